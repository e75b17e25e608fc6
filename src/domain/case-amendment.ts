import {
  type CaseRecord,
  type NextFlight,
  type PassengerGroup,
  type RecordedChange,
  type ReviewItemDraft,
  revised,
} from "./case.js";
import { assertCaseOpen } from "./case-lifecycle.js";
import { type GroupAssignment, regroup, upsertPassengers } from "./case-manifest.js";
import {
  groupReviewDrafts,
  type ManifestPassenger,
  mergeGroups,
  pnrsApartFromGroups,
  splitGroup,
} from "./passenger-groups.js";

/**
 * A change to an open case's manifest (spec 3.3, 4.3): operators regroup, split and merge groups;
 * a spreadsheet upload or a partner amendment adds or corrects passengers and the next flight.
 * Each amendment bumps the case, keeps each passenger's own PNR where its new group does not carry
 * it, and asks again for the review items the new groups call for.
 */

export interface CaseAmendment {
  record: CaseRecord;
  /** The PNRs kept apart from the groups (`pnrsApartFromGroups`), when they changed. */
  passengerPnrs?: Record<string, string>;
  /** What the change did beyond the new groups, for the `case.amended` event and the audit. */
  details: Record<string, unknown>;
  reviewDrafts: ReviewItemDraft[];
  change: RecordedChange & { reason: string };
}

interface Amending {
  by: string;
  reason: string;
}

/** POST /v1/cases/{urn}/passenger-groups: a new partition of the case's passengers. */
export function regroupCase(
  record: CaseRecord,
  pnrsApart: Readonly<Record<string, string>>,
  args: Amending & { groups: GroupAssignment[] },
  now: Date,
): CaseAmendment {
  assertCaseOpen(record);
  const groups = regroup(record.passengerGroups, args.groups);
  return amend(record, groups, pnrsApart, { action: "case.regrouped", ...args }, {}, now);
}

export function splitCaseGroup(
  record: CaseRecord,
  pnrsApart: Readonly<Record<string, string>>,
  args: Amending & { groupId: string; into: string[][] },
  now: Date,
): CaseAmendment {
  assertCaseOpen(record);
  const { groups, parts } = splitGroup(record.passengerGroups, args.groupId, args.into, args.reason);
  const details = { parts: parts.map((p) => p.id) };
  return amend(record, groups, pnrsApart, { action: "case.group-split", ...args }, details, now);
}

export function mergeCaseGroups(
  record: CaseRecord,
  pnrsApart: Readonly<Record<string, string>>,
  args: Amending & { groupIds: string[] },
  now: Date,
): CaseAmendment {
  assertCaseOpen(record);
  const { groups, merged } = mergeGroups(record.passengerGroups, args.groupIds, args.reason);
  const details = { merged: merged.id };
  return amend(record, groups, pnrsApart, { action: "case.groups-merged", ...args }, details, now);
}

export interface ManifestAmendmentArgs {
  by: string;
  lines: ManifestPassenger[];
  /** The audit action: a spreadsheet upload or a partner amendment. */
  action: "case.passengers-uploaded" | "case.manifest-amended";
  nextFlight?: NextFlight;
  reason?: string;
}

export type ManifestAmendment = CaseAmendment & { added: string[]; updated: string[] };

/**
 * Passengers added or corrected, the next flight corrected; undefined when the lines and the next
 * flight are what the case already holds, so a repeated upload changes nothing. The PNR of each
 * line stays the passenger's own even where its group carries none.
 */
export function amendManifest(
  record: CaseRecord,
  pnrsApart: Readonly<Record<string, string>>,
  args: ManifestAmendmentArgs,
  now: Date,
): ManifestAmendment | undefined {
  assertCaseOpen(record);
  const upsert = upsertPassengers(record.passengerGroups, args.lines);
  const nextFlightChanged =
    args.nextFlight !== undefined && JSON.stringify(args.nextFlight) !== JSON.stringify(record.nextFlight);
  if (upsert.added.length === 0 && upsert.updated.length === 0 && !nextFlightChanged) return undefined;
  const amended = nextFlightChanged ? { ...record, nextFlight: args.nextFlight } : record;
  const amendment = amend(
    amended,
    upsert.groups,
    pnrsApart,
    { action: args.action, by: args.by, reason: args.reason ?? "manifest updated" },
    {
      added: upsert.added,
      updated: upsert.updated,
      groupsCreated: upsert.groupsCreated,
      ...(nextFlightChanged ? { nextFlightBefore: record.nextFlight ?? null } : {}),
    },
    now,
    Object.fromEntries(args.lines.map((line) => [line.passenger.id, line.pnr])),
  );
  return { ...amendment, added: upsert.added, updated: upsert.updated };
}

/** `record` (with any field other than its groups already changed) takes `groups`; `assigned` holds PNRs given with this change. */
function amend(
  record: CaseRecord,
  groups: PassengerGroup[],
  pnrsApart: Readonly<Record<string, string>>,
  change: Amending & { action: string },
  details: Record<string, unknown>,
  now: Date,
  assigned?: Record<string, string>,
): CaseAmendment {
  const nextApart = pnrsApartFromGroups(record.passengerGroups, groups, pnrsApart, assigned);
  return {
    record: revised({ ...record, passengerGroups: groups }, now),
    ...(JSON.stringify(nextApart) !== JSON.stringify(pnrsApart) ? { passengerPnrs: nextApart } : {}),
    details,
    reviewDrafts: groupReviewDrafts(groups),
    change: {
      action: change.action,
      by: change.by,
      reason: change.reason,
      before: summary(record.passengerGroups),
      after: { ...summary(groups), ...details },
    },
  };
}

function summary(groups: readonly PassengerGroup[]) {
  return { groups: groups.map((g) => ({ id: g.id, passengerIds: g.passengers.map((p) => p.id) })) };
}
