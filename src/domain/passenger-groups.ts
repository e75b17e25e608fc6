import { type Passenger, type PassengerGroup, REVIEW_PRIORITY_OF, type ReviewItemDraft } from "./case.js";
import { DomainError } from "./domain-error.js";
import { passengerTier } from "./policy/tiers.js";

/**
 * Passenger groups: the units allocation places together (spec 2.2). A group defaults to its PNR;
 * operators split and merge groups with a reason, and two manifest problems are flagged for review.
 */

/** A manifest line: a passenger, its PNR and, when the uploader chose one, an explicit group. */
export interface ManifestPassenger {
  pnr: string;
  groupId?: string;
  passenger: Passenger;
}

/**
 * One group per PNR, in order of first appearance; an explicit groupId overrides the PNR. A group
 * keeps a PNR only when all its passengers share it.
 */
export function defaultGroups(rows: readonly ManifestPassenger[]): PassengerGroup[] {
  const groups = new Map<string, { pnrs: Set<string>; passengers: Passenger[] }>();
  for (const row of rows) {
    const id = row.groupId ?? row.pnr;
    const group = groups.get(id) ?? { pnrs: new Set<string>(), passengers: [] };
    group.pnrs.add(row.pnr);
    group.passengers.push(row.passenger);
    groups.set(id, group);
  }
  return [...groups].map(([id, { pnrs, passengers }]) => ({
    id,
    ...(pnrs.size === 1 ? { pnr: [...pnrs][0]! } : {}),
    passengers,
  }));
}

export interface GroupSplit {
  /** All groups of the case, the split group replaced by its parts in its place. */
  groups: PassengerGroup[];
  parts: PassengerGroup[];
}

/**
 * Splits a group into parts that together hold each of its passengers exactly once. The parts are
 * named `<id>-1`, `<id>-2`, ... skipping names another group already uses, so the same split of the
 * same case always yields the same ids.
 */
export function splitGroup(
  groups: readonly PassengerGroup[],
  groupId: string,
  into: readonly (readonly string[])[],
  reason: string,
): GroupSplit {
  const why = requireReason(reason);
  const group = findGroup(groups, groupId);
  if (into.length < 2) {
    throw new DomainError("invalid", "split-needs-two-parts", "A split needs at least two parts", {
      parts: into.length,
    });
  }
  if (into.some((part) => part.length === 0)) {
    throw new DomainError("invalid", "empty-part", "A part of a split cannot be empty");
  }
  const byId = new Map(group.passengers.map((passenger) => [passenger.id, passenger]));
  const listed = into.flat();
  const unknown = listed.filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    throw new DomainError(
      "invalid",
      "unknown-passenger",
      `Group ${groupId} has no passenger ${unknown.join(", ")}`,
      {
        passengerIds: unknown,
      },
    );
  }
  const repeated = listed.filter((id, index) => listed.indexOf(id) !== index);
  if (repeated.length > 0) {
    throw new DomainError("invalid", "passenger-repeated", "Each passenger must be in exactly one part", {
      passengerIds: [...new Set(repeated)],
    });
  }
  const missing = group.passengers.map((p) => p.id).filter((id) => !listed.includes(id));
  if (missing.length > 0) {
    throw new DomainError("invalid", "passenger-missing", "Each passenger must be in exactly one part", {
      passengerIds: missing,
    });
  }

  const taken = new Set(groups.map((g) => g.id));
  let next = 1;
  const parts = into.map((ids) => {
    while (taken.has(`${groupId}-${next}`)) next++;
    const id = `${groupId}-${next++}`;
    return {
      id,
      ...(group.pnr !== undefined ? { pnr: group.pnr } : {}),
      passengers: ids.map((passengerId) => byId.get(passengerId)!),
      origin: { kind: "split" as const, from: [groupId], reason: why },
    };
  });
  return { groups: groups.flatMap((g) => (g.id === groupId ? parts : [g])), parts };
}

export interface GroupMerge {
  /** All groups of the case, the merged group in the place of the first one named. */
  groups: PassengerGroup[];
  merged: PassengerGroup;
}

/**
 * Merges groups into one that keeps the first named group's id (its sub-case carries on); the
 * others disappear. The PNR is kept only when all merged groups share it.
 */
export function mergeGroups(
  groups: readonly PassengerGroup[],
  groupIds: readonly string[],
  reason: string,
): GroupMerge {
  const why = requireReason(reason);
  if (new Set(groupIds).size !== groupIds.length) {
    throw new DomainError("invalid", "group-repeated", "Each group may be named once");
  }
  if (groupIds.length < 2) {
    throw new DomainError("invalid", "merge-needs-two-groups", "A merge needs at least two groups");
  }
  const merging = groupIds.map((id) => findGroup(groups, id));
  const pnrs = new Set(merging.map((g) => g.pnr));
  const [first] = merging;
  const merged: PassengerGroup = {
    id: first!.id,
    ...(pnrs.size === 1 && first!.pnr !== undefined ? { pnr: first!.pnr } : {}),
    passengers: merging.flatMap((g) => g.passengers),
    origin: { kind: "merge", from: [...groupIds], reason: why },
  };
  const absorbed = new Set(groupIds.slice(1));
  return {
    groups: groups.filter((g) => !absorbed.has(g.id)).map((g) => (g.id === merged.id ? merged : g)),
    merged,
  };
}

/** A group whose passengers travel in more than one tier (spec 2.5, MIXED_TIER_GROUP). */
export function mixedTierGroups(groups: readonly PassengerGroup[]): ReviewItemDraft[] {
  return groups.flatMap((group) => {
    const tiers = new Set(group.passengers.map(passengerTier).filter((tier) => tier !== undefined));
    if (tiers.size < 2) return [];
    return [
      {
        category: "MIXED_TIER_GROUP",
        priority: REVIEW_PRIORITY_OF.MIXED_TIER_GROUP,
        affectedGroups: [group.id],
        reason: `Group ${group.id} spans tiers ${[...tiers].join(", ")}`,
      },
    ];
  });
}

/**
 * Groups whose manifest misses a required field (spec 2.5, DATA_INCOMPLETE). Required: every
 * passenger has a last name (PNR login and vouchers need it) and a tier (or a cabin class naming
 * one: policies are matched by tier); the lead passenger, listed first, has an e-mail or a phone,
 * since offers and vouchers are sent to the lead.
 */
export function incompleteGroups(groups: readonly PassengerGroup[]): ReviewItemDraft[] {
  return groups.flatMap((group) => {
    const missing = group.passengers.flatMap((passenger, index) => {
      const fields = [
        ...(passenger.lastName?.trim() ? [] : ["lastName"]),
        ...(passengerTier(passenger) ? [] : ["tier"]),
        ...(index === 0 && !passenger.contact?.email?.trim() && !passenger.contact?.phone?.trim()
          ? ["email or phone"]
          : []),
      ];
      return fields.length > 0 ? [`${passenger.id}: ${fields.join(", ")}`] : [];
    });
    if (group.passengers.length === 0) missing.push("no passengers");
    if (missing.length === 0) return [];
    return [
      {
        category: "DATA_INCOMPLETE",
        priority: REVIEW_PRIORITY_OF.DATA_INCOMPLETE,
        affectedGroups: [group.id],
        reason: `Group ${group.id} misses ${missing.join("; ")}`,
      },
    ];
  });
}

/**
 * Each passenger's PNR where its group does not carry that PNR: after a merge or a regrouping a
 * group may hold several PNRs (and then carries none), while PNR login still needs every
 * passenger's own. The groups carry the rest, so a case as it opened, one group per PNR, needs no
 * entry at all. `apart` is the answer for `before`; `assigned` are PNRs given now (an upload).
 */
export function pnrsApartFromGroups(
  before: readonly PassengerGroup[],
  after: readonly PassengerGroup[],
  apart: Readonly<Record<string, string>>,
  assigned: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const pnrOf = new Map<string, string>();
  for (const group of before) {
    for (const passenger of group.passengers) {
      const pnr = apart[passenger.id] ?? group.pnr;
      if (pnr !== undefined) pnrOf.set(passenger.id, pnr);
    }
  }
  for (const [passengerId, pnr] of Object.entries(assigned)) pnrOf.set(passengerId, pnr);
  const next: Record<string, string> = {};
  for (const group of after) {
    for (const passenger of group.passengers) {
      const pnr = pnrOf.get(passenger.id);
      if (pnr !== undefined && pnr !== group.pnr) next[passenger.id] = pnr;
    }
  }
  return next;
}

/** Every review draft the grouping rules raise for a manifest. */
export function groupReviewDrafts(groups: readonly PassengerGroup[]): ReviewItemDraft[] {
  return [...mixedTierGroups(groups), ...incompleteGroups(groups)];
}

export function groupNotFound(groupId: string): DomainError {
  return new DomainError("not-found", "group-not-found", `No passenger group ${groupId}`, { groupId });
}

function findGroup(groups: readonly PassengerGroup[], groupId: string): PassengerGroup {
  const group = groups.find((g) => g.id === groupId);
  if (!group) throw groupNotFound(groupId);
  return group;
}

function requireReason(reason: string): string {
  const trimmed = reason.trim();
  if (!trimmed) throw new DomainError("invalid", "reason-required", "A reason is required");
  return trimmed;
}
