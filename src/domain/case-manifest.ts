import type { Passenger, PassengerGroup } from "./case.js";
import { DomainError } from "./domain-error.js";
import type { ManifestPassenger } from "./passenger-groups.js";

/**
 * Pure rules for changing a case's manifest beyond split and merge (which live in
 * src/domain/passenger-groups.ts): the consistency every manifest keeps, a full regrouping, and
 * adding or correcting passengers from an upload or a partner amendment.
 */

/** Group ids are unique, passenger ids are unique across the whole case, and no group is empty. */
export function assertManifestConsistent(groups: readonly PassengerGroup[]): void {
  const groupIds = new Set<string>();
  const passengerIds = new Set<string>();
  for (const group of groups) {
    if (groupIds.has(group.id)) {
      throw new DomainError("invalid", "group-repeated", `Group ${group.id} appears twice`, {
        groupId: group.id,
      });
    }
    groupIds.add(group.id);
    if (group.passengers.length === 0) {
      throw new DomainError("invalid", "empty-group", `Group ${group.id} has no passengers`, {
        groupId: group.id,
      });
    }
    for (const passenger of group.passengers) {
      if (passengerIds.has(passenger.id)) {
        throw new DomainError("invalid", "passenger-repeated", `Passenger ${passenger.id} appears twice`, {
          passengerId: passenger.id,
        });
      }
      passengerIds.add(passenger.id);
    }
  }
}

/** One group of a regrouping: its id and the passengers it holds. */
export interface GroupAssignment {
  id: string;
  passengerIds: string[];
  pnr?: string;
}

/**
 * Replaces the case's groups by a new partition of the same passengers: each passenger of the case
 * is named exactly once. A group keeps the PNR given, else the PNR all its passengers' former
 * groups share.
 */
export function regroup(
  groups: readonly PassengerGroup[],
  assignments: readonly GroupAssignment[],
): PassengerGroup[] {
  const home = new Map<string, { passenger: Passenger; group: PassengerGroup }>();
  for (const group of groups)
    for (const passenger of group.passengers) home.set(passenger.id, { passenger, group });
  const named = assignments.flatMap((a) => a.passengerIds);
  const unknown = named.filter((id) => !home.has(id));
  if (unknown.length > 0) {
    throw new DomainError("invalid", "unknown-passenger", `The case has no passenger ${unknown.join(", ")}`, {
      passengerIds: unknown,
    });
  }
  const missing = [...home.keys()].filter((id) => !named.includes(id));
  if (missing.length > 0) {
    throw new DomainError("invalid", "passenger-missing", "Every passenger of the case must be in a group", {
      passengerIds: missing,
    });
  }
  const regrouped = assignments.map((assignment) => {
    const members = assignment.passengerIds.map((id) => home.get(id)!);
    const pnrs = new Set(members.map((m) => m.group.pnr));
    const pnr = assignment.pnr ?? (pnrs.size === 1 ? [...pnrs][0] : undefined);
    return {
      id: assignment.id,
      ...(pnr !== undefined ? { pnr } : {}),
      passengers: members.map((m) => m.passenger),
    };
  });
  assertManifestConsistent(regrouped);
  return regrouped;
}

export interface PassengerUpsert {
  groups: PassengerGroup[];
  added: string[];
  updated: string[];
  groupsCreated: string[];
}

/**
 * Adds manifest lines to the case. A passenger id already on the case is a correction: its fields
 * are replaced and it stays in its group, so uploading the same sheet twice changes nothing. A new
 * passenger joins the group its line names (`groupId`), else the first group of its PNR; a missing
 * group is created with that id (the PNR by default).
 */
export function upsertPassengers(
  groups: readonly PassengerGroup[],
  lines: readonly ManifestPassenger[],
): PassengerUpsert {
  const result: PassengerUpsert = {
    groups: groups.map((g) => ({ ...g, passengers: [...g.passengers] })),
    added: [],
    updated: [],
    groupsCreated: [],
  };
  for (const line of lines) {
    const holder = result.groups.find((g) => g.passengers.some((p) => p.id === line.passenger.id));
    if (holder) {
      holder.passengers = holder.passengers.map((p) => (p.id === line.passenger.id ? line.passenger : p));
      result.updated.push(line.passenger.id);
      continue;
    }
    const groupId = line.groupId ?? line.pnr;
    const target = line.groupId
      ? result.groups.find((g) => g.id === line.groupId)
      : (result.groups.find((g) => g.pnr === line.pnr) ?? result.groups.find((g) => g.id === line.pnr));
    if (target) {
      target.passengers.push(line.passenger);
      if (target.pnr !== undefined && target.pnr !== line.pnr) delete target.pnr;
    } else {
      result.groups.push({ id: groupId, pnr: line.pnr, passengers: [line.passenger] });
      result.groupsCreated.push(groupId);
    }
    result.added.push(line.passenger.id);
  }
  assertManifestConsistent(result.groups);
  return result;
}

/** An id for a passenger sent without one: `<PNR>-<n>`, the first n the case does not use yet. */
export function nextPassengerId(pnr: string, taken: Set<string>): string {
  let n = 1;
  while (taken.has(`${pnr}-${n}`)) n++;
  const id = `${pnr}-${n}`;
  taken.add(id);
  return id;
}

export function passengerIdsOf(groups: readonly PassengerGroup[]): Set<string> {
  return new Set(groups.flatMap((g) => g.passengers.map((p) => p.id)));
}
