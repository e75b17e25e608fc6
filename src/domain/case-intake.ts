import {
  type CaseRecord,
  type OpenCaseCommand,
  openCase,
  type RecordedChange,
  type ReviewItemDraft,
} from "./case.js";
import { assertManifestConsistent } from "./case-manifest.js";
import { DomainError } from "./domain-error.js";
import { groupReviewDrafts } from "./passenger-groups.js";

/**
 * Opening a case from a declared or pushed disruption (spec 2.1, 4.3). Intake is idempotent per
 * tenant and externalEventId: a replay lands on the case already opened and changes nothing.
 */

/** How the disruption reached the service; kept for the partner disruption feed. */
export interface CaseIntake {
  source: "operator" | "partner";
  /** The user, service token or partner URN that declared it. */
  receivedBy: string;
  receivedAt: string;
  /** The trace of the request that opened the case; replays answer with it. */
  correlationUrn: string;
  /** The disruption as a partner pushed it (spec 4.3); absent for a manual declaration. */
  disruption?: { type: string; reason: string; decidedAt: string };
}

export interface CaseOpening extends OpenCaseCommand {
  intake: Pick<CaseIntake, "source" | "disruption">;
}

export type IntakeDecision =
  | { created: false; record: CaseRecord }
  | {
      created: true;
      record: CaseRecord;
      intake: CaseIntake;
      /** Groups spanning tiers or missing data, for the manual-review queue. */
      reviewDrafts: ReviewItemDraft[];
      change: RecordedChange;
    };

/**
 * Opens the case, or recognises a replay of the disruption that opened `existing`. Another
 * disruption on the same case id (a digest collision) is refused.
 */
export function receiveDisruption(
  existing: CaseRecord | undefined,
  command: CaseOpening,
  now: Date,
): IntakeDecision {
  if (existing) {
    if (existing.tenant !== command.tenant || existing.externalEventId !== command.externalEventId) {
      throw new DomainError(
        "conflict",
        "case-id-collision",
        `Case ${existing.urn} belongs to another disruption`,
      );
    }
    return { created: false, record: existing };
  }
  const { intake, ...opening } = command;
  assertManifestConsistent(opening.passengerGroups);
  const record = openCase(opening, now);
  return {
    created: true,
    record,
    intake: {
      ...intake,
      receivedBy: command.openedBy,
      receivedAt: record.openedAt,
      correlationUrn: command.correlationUrn,
    },
    reviewDrafts: groupReviewDrafts(record.passengerGroups),
    change: {
      action: "case.opened",
      by: command.openedBy,
      before: null,
      after: { status: record.status, groupCount: record.passengerGroups.length },
    },
  };
}
