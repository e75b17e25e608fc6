import { CASE_PRIORITIES, type CasePriority, type CaseRecord, type RecordedChange } from "./case.js";
import { assertCaseOpen } from "./case-lifecycle.js";
import { DomainError } from "./domain-error.js";

/**
 * How a partner raises a case's priority (spec 4.3 `POST /partner/v1/cases/{case_urn}/priority-request`,
 * scope cases.priority.request: "bounded priority elevation request"). A request raises it one
 * level (NORMAL, HIGH, URGENT); a request on an URGENT case changes nothing. How often a partner
 * may ask is bounded in src/app/partner-write-bounds.ts.
 */
export interface PriorityDecision {
  record: CaseRecord;
  /** False when the case was already at the top level: store and audit nothing. */
  changed: boolean;
  from: CasePriority;
  to: CasePriority;
  change?: RecordedChange;
}

/** A case stored before priorities were kept is NORMAL. */
export function priorityOf(record: Pick<CaseRecord, "priority">): CasePriority {
  return record.priority ?? "NORMAL";
}

/** Raises the case's priority one level; a closed case takes no request (409 case-closed). */
export function raisePriority(
  record: CaseRecord,
  request: { by: string; reason: string },
  now: Date,
): PriorityDecision {
  assertCaseOpen(record);
  const reason = request.reason.trim();
  if (!reason) throw new DomainError("invalid", "reason-required", "A reason is required");
  const from = priorityOf(record);
  const to = CASE_PRIORITIES[Math.min(CASE_PRIORITIES.indexOf(from) + 1, CASE_PRIORITIES.length - 1)]!;
  if (to === from) return { record, changed: false, from, to };
  const at = now.toISOString();
  return {
    record: {
      ...record,
      priority: to,
      priorityRequest: { by: request.by, reason, at, from, to },
      updatedAt: at,
      version: record.version + 1,
    },
    changed: true,
    from,
    to,
    change: {
      action: "case.priority-raised",
      by: request.by,
      reason,
      before: { priority: from },
      after: { priority: to },
    },
  };
}
