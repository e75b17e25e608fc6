import type { SubCaseEvent, SubCaseStatus } from "../sub-case.js";

/**
 * The sub-case as everyone else sees it: events, the index and HTTP answers. The fencing token is
 * never in it: the token is the holder's proof, handed to the holder alone.
 */
export interface SubCaseView {
  subCaseUrn: string;
  caseUrn: string;
  groupId: string;
  tenant: string;
  airport: string;
  status: SubCaseStatus;
  version: number;
  revision: number;
  lockedBy: string | null;
  lockExpiresAt: string | null;
  retiredAt: string | null;
  /** Set while the case is CLOSED: the sub-case is frozen with it. */
  caseClosedAt: string | null;
  /** What the last run offers the passenger (OFFER_READY on); `answerBy` is the deadline (ISO). */
  offer: { reservationUrn: string; voucherUrn: string | null; answerBy: string | null } | null;
  /** The passenger's answer to `offer`. */
  answer: { kind: "ACCEPTED" | "DECLINED"; at: string; reason: string | null } | null;
  /** The saga instance of the last run (src/workflows/sub-case-saga), for its progress. */
  sagaInstanceId: string | null;
  /** The vendor's error code that stopped the last run (FAILED, COMPENSATION_FAILED), for the operator. */
  vendorErrorCode: string | null;
  updatedAt: string;
}

export type LockReleaseReason = "unlock" | "disconnect" | "logout";

/** Every sub-case event carries the sub-case's view after the change. */
export type SubCaseEventData = SubCaseView & {
  /** For `subcase.locked`: true when the holder renewed its own live lock. */
  renewed?: boolean;
  /** For `subcase.unlocked`: why the lock went. */
  releasedBecause?: LockReleaseReason;
  /** For an operator's `subcase.processing`: what the compensation asks the saga run to do. */
  compensationAction?: string;
  /** For an operator's `subcase.processing`: the run the new one replaces, which is stopped. */
  replacedSagaInstanceId?: string;
};

/** The sub-case actor's bookkeeping events: creation, locks, retirement, the case's closing. */
export const SUB_CASE_EVENT = {
  opened: "subcase.opened",
  locked: "subcase.locked",
  unlocked: "subcase.unlocked",
  lockExpired: "subcase.lock-expired",
  processing: "subcase.processing",
  retired: "subcase.retired",
  caseClosed: "subcase.case-closed",
  caseReopened: "subcase.case-reopened",
} as const;

/**
 * Every sub-case event: the bookkeeping above and the moves of the sub-case state machine
 * (src/domain/sub-case.ts, spec 3.4), which partners receive (spec 6.1).
 */
export type SubCaseEventDataByType = Record<
  (typeof SUB_CASE_EVENT)[keyof typeof SUB_CASE_EVENT] | SubCaseEvent,
  SubCaseEventData
>;

/** `case.resolved` (spec 3.3, 6.1): every active sub-case of the case reached a terminal state. */
export interface CaseResolvedData {
  caseUrn: string;
  /** The sub-cases and where each ended. */
  subCases: { subCaseUrn: string; groupId: string; status: SubCaseStatus }[];
  resolvedAt: string;
}

/** The event the sub-cases raise for their case. */
export interface CaseResolutionEventDataByType {
  "case.resolved": CaseResolvedData;
}
