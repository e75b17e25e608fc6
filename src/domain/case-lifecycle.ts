import type { CaseRecord, CaseStatus, RecordedChange } from "./case.js";
import { DomainError } from "./domain-error.js";
import { roleSatisfies, type ServiceRole } from "./roles.js";

/**
 * The case state machine (spec 3.3) as pure functions over the case record: OPEN and
 * MANUAL_REVIEW are the open states, CLOSED is final until an ADMIN reopens the case. After CLOSED
 * every change is refused. Each change returns the transition so the caller can audit it (actor,
 * reason, before and after) and carry out the side effects it lists.
 */

export type CaseEffect = "revoke-passenger-tokens";

export interface CaseTransition {
  record: CaseRecord;
  from: CaseStatus;
  to: CaseStatus;
  /** False for a repeat of a move already made: store and audit nothing. */
  changed: boolean;
  effects: CaseEffect[];
}

/** The URN automatic moves are recorded under. */
export const SYSTEM_ACTOR = "urn:system:case-lifecycle";

export function caseClosedError(caseUrn: string): DomainError {
  return new DomainError("conflict", "case-closed", `Case ${caseUrn} is closed`, { caseUrn });
}

/** Guard for any change to a case or its parts. */
export function assertCaseOpen(record: Pick<CaseRecord, "urn" | "status">): void {
  if (record.status === "CLOSED") throw caseClosedError(record.urn);
}

/** Allocation found no matching policy, or another rule needs a person (spec 3.3). */
export function toManualReview(
  record: CaseRecord,
  change: { reason: string; by: string },
  now: Date,
): CaseTransition {
  assertCaseOpen(record);
  if (record.status === "MANUAL_REVIEW") return unchanged(record);
  return moved(record, "MANUAL_REVIEW", change, now, []);
}

/** The review item was resolved: the case returns to the normal flow. */
export function returnToFlow(
  record: CaseRecord,
  change: { reason: string; by: string },
  now: Date,
): CaseTransition {
  assertCaseOpen(record);
  if (record.status === "OPEN") return unchanged(record);
  return moved(record, "OPEN", change, now, []);
}

/** Closed by an operator: AIRPORT_OPERATOR or a role inheriting it, with a reason. */
export function close(
  record: CaseRecord,
  change: { reason: string; by: string; role: ServiceRole },
  now: Date,
): CaseTransition {
  assertCaseOpen(record);
  if (!roleSatisfies(change.role, ["AIRPORT_OPERATOR"])) {
    throw new DomainError("forbidden", "role-required", "Closing a case needs AIRPORT_OPERATOR or higher", {
      role: change.role,
    });
  }
  return moved(record, "CLOSED", change, now, ["revoke-passenger-tokens"]);
}

/**
 * Closes the case once every reservation is CHECKED_OUT; undefined when that is not (yet) the
 * case. A case without reservations is not closed this way: nobody has stayed yet.
 */
export function closeWhenCheckedOut(
  record: CaseRecord,
  reservations: readonly { status: string }[],
  now: Date,
): CaseTransition | undefined {
  if (record.status === "CLOSED" || reservations.length === 0) return undefined;
  if (!reservations.every((reservation) => reservation.status === "CHECKED_OUT")) return undefined;
  return moved(record, "CLOSED", { reason: "every reservation is checked out", by: SYSTEM_ACTOR }, now, [
    "revoke-passenger-tokens",
  ]);
}

/**
 * Reopened by an ADMIN; the caller writes the audit entry that gates it. The route carries no body,
 * so the reason is optional here.
 */
export function reopen(
  record: CaseRecord,
  change: { reason?: string; by: string; role: ServiceRole },
  now: Date,
): CaseTransition {
  if (change.role !== "ADMIN") {
    throw new DomainError("forbidden", "role-required", "Reopening a case needs ADMIN", {
      role: change.role,
    });
  }
  if (record.status !== "CLOSED") {
    throw new DomainError(
      "conflict",
      "case-not-closed",
      `Case ${record.urn} is ${record.status}, not CLOSED`,
      {
        status: record.status,
      },
    );
  }
  return moved(
    record,
    "OPEN",
    { by: change.by, reason: change.reason?.trim() || "reopened by ADMIN" },
    now,
    [],
  );
}

/** The audit entry of a move: who made it and why, the status before and after. */
export function recordedMove(
  transition: CaseTransition,
  action: string,
  acting: { by: string; reason?: string },
): RecordedChange {
  return {
    action,
    by: acting.by,
    reason: transition.record.statusChange?.reason ?? acting.reason ?? "",
    before: { status: transition.from },
    after: { status: transition.to },
  };
}

function moved(
  record: CaseRecord,
  to: CaseStatus,
  change: { reason: string; by: string },
  now: Date,
  effects: CaseEffect[],
): CaseTransition {
  const reason = change.reason.trim();
  if (!reason) throw new DomainError("invalid", "reason-required", "A reason is required");
  const at = now.toISOString();
  return {
    record: {
      ...record,
      status: to,
      statusChange: { from: record.status, to, reason, by: change.by, at },
      updatedAt: at,
      version: record.version + 1,
    },
    from: record.status,
    to,
    changed: true,
    effects,
  };
}

function unchanged(record: CaseRecord): CaseTransition {
  return { record, from: record.status, to: record.status, changed: false, effects: [] };
}
