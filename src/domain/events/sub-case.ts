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
  updatedAt: string;
}

export type LockReleaseReason = "unlock" | "disconnect" | "logout";

/** Every sub-case event carries the sub-case's view after the change. */
export type SubCaseEventData = SubCaseView & {
  /** For `subcase.locked`: true when the holder renewed its own live lock. */
  renewed?: boolean;
  /** For `subcase.unlocked`: why the lock went. */
  releasedBecause?: LockReleaseReason;
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
