import { caseClosedError } from "./case-lifecycle.js";
import { DomainError } from "./domain-error.js";
import { uuidFromParts } from "./uuid.js";

/**
 * The sub-case: the per-group unit of the compensation saga (spec 2.2, 3.4), with its operator lock.
 *
 * States. The spec names RESOLVED and COMPENSATION_FAILED; the others follow the events of 6.1:
 *   OPEN                  created with the case, nothing running yet
 *   PROCESSING            a saga run works: the group's stay was confirmed, or an operator submitted
 *                         compensation (subcase.processing)
 *   OFFER_READY           the saga succeeded and the passenger was notified (subcase.offer-ready)
 *   RESOLVED              the passenger accepted (subcase.resolved)
 *   DECLINED              the passenger declined; the saga rolls the booking back (subcase.declined)
 *   FAILED                a vendor failed permanently; manual review is queued (subcase.failed)
 *   COMPENSATION_FAILED   a cancellation failed for good; manual reconciliation (subcase.compensation-failed)
 * RESOLVED, DECLINED and COMPENSATION_FAILED are terminal for case.resolved. The whole table, with
 * the saga's side effects, is in the README ("Sub-cases and the compensation saga").
 *
 * An offer exists only in OFFER_READY, so accept and decline need it. A repeat accept on a RESOLVED
 * sub-case is not an error but returns `changed: false`, so the caller answers with the cached
 * response and publishes nothing (3.4). Every other accept or decline after the passenger has
 * answered is a conflict: reload the offer (spec 7).
 *
 * Locks. An operator takes a lock for `ttlMs`. Acquiring again while holding it renews the expiry
 * and keeps the fencing token: nobody else can have written in between, and the holder's writes in
 * flight stay valid. Any new acquisition (free, expired, or taken over after expiry, even by the
 * same operator) gets a token one higher than the last one issued, so a writer holding an older
 * token is always detectable. A lock is expired from `expiresAt` on.
 *
 * Once the case is CLOSED every sub-case is frozen with it: no transition and no lock (spec 3.3).
 */

export const SUB_CASE_STATUSES = [
  "OPEN",
  "PROCESSING",
  "OFFER_READY",
  "RESOLVED",
  "DECLINED",
  "FAILED",
  "COMPENSATION_FAILED",
] as const;
export type SubCaseStatus = (typeof SUB_CASE_STATUSES)[number];

export const TERMINAL_SUB_CASE_STATUSES: readonly SubCaseStatus[] = [
  "RESOLVED",
  "DECLINED",
  "COMPENSATION_FAILED",
];

export interface SubCaseLock {
  /** User URN. */
  lockedBy: string;
  expiresAt: string;
  fencingToken: number;
}

export interface SubCase {
  urn: string;
  caseUrn: string;
  groupId: string;
  status: SubCaseStatus;
  lock?: SubCaseLock;
  /** The last fencing token issued; survives release so tokens only grow. */
  lastFencingToken: number;
  /** Optimistic-concurrency version, bumped by every transition (spec 7, 409 on compensate). */
  version: number;
  /** The compensation run in progress or last run. */
  correlationUrn?: string;
  /** The saga instance of that run (src/workflows/sub-case-saga), which waits for the answer. */
  sagaInstanceId?: string;
  /** What the run offers the passenger; set in OFFER_READY and kept once answered. */
  offer?: SubCaseOffer;
  /** The passenger's answer to `offer`. */
  answer?: PassengerAnswer;
  /** The vendor's error code of the failure that stopped the run (FAILED, COMPENSATION_FAILED). */
  vendorErrorCode?: string;
  /** Set when the case was closed: the sub-case is frozen. */
  caseClosedAt?: string;
  updatedAt: string;
}

/** The stay a run offers: its reservation and voucher, and until when the passenger may answer (ISO). */
export interface SubCaseOffer {
  reservationUrn: string;
  voucherUrn: string | null;
  answerBy: string | null;
}

export interface PassengerAnswer {
  kind: "ACCEPTED" | "DECLINED";
  at: string;
  reason: string | null;
  /** The passenger session's subject URN. */
  by: string | null;
}

/** The events of the state machine's moves (spec 6.1). */
export const SUB_CASE_MOVES = [
  "subcase.processing",
  "subcase.offer-ready",
  "subcase.resolved",
  "subcase.declined",
  "subcase.failed",
  "subcase.compensation-failed",
] as const;
export type SubCaseEvent = (typeof SUB_CASE_MOVES)[number];

export interface SubCaseTransition {
  subCase: SubCase;
  /** False for an idempotent repeat: store nothing, publish nothing. */
  changed: boolean;
  /** The event to publish with the change. */
  event?: SubCaseEvent;
}

/** Sub-case ids derive from the case and group, so creating them again on replay is harmless. */
export function subCaseUrnFor(caseUrn: string, groupId: string): string {
  return uuidFromParts("urn:sub-case:", caseUrn, groupId);
}

export function openSubCase(caseUrn: string, groupId: string, now: Date): SubCase {
  return {
    urn: subCaseUrnFor(caseUrn, groupId),
    caseUrn,
    groupId,
    status: "OPEN",
    lastFencingToken: 0,
    version: 1,
    updatedAt: now.toISOString(),
  };
}

// ---- locks -------------------------------------------------------------------------------------

export interface LockGrant {
  subCase: SubCase;
  lock: SubCaseLock;
  /** True when the holder renewed its own live lock (same token). */
  renewed: boolean;
}

export function acquireLock(subCase: SubCase, who: string, now: Date, ttlMs: number): LockGrant {
  assertNotFrozen(subCase);
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) {
    throw new DomainError(
      "invalid",
      "invalid-lock-ttl",
      "A lock lasts a positive whole number of milliseconds",
      { ttlMs },
    );
  }
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
  const current = liveLock(subCase, now);
  if (current && current.lockedBy !== who) throw lockedError(current, now);
  const renewed = current !== undefined;
  const fencingToken = renewed ? current.fencingToken : subCase.lastFencingToken + 1;
  const lock: SubCaseLock = { lockedBy: who, expiresAt, fencingToken };
  return {
    subCase: { ...subCase, lock, lastFencingToken: fencingToken, updatedAt: now.toISOString() },
    lock,
    renewed,
  };
}

/**
 * Explicit unlock by the holder with its token. Releasing a lock that is gone or expired changes
 * nothing; another operator's live lock is theirs to release.
 */
export function releaseLock(
  subCase: SubCase,
  who: string,
  fencingToken: number,
  now: Date,
): SubCaseTransition {
  const current = liveLock(subCase, now);
  if (!current) return { subCase: withoutLock(subCase, now), changed: subCase.lock !== undefined };
  if (current.lockedBy !== who) throw lockedError(current, now);
  if (current.fencingToken !== fencingToken) throw staleTokenError(current);
  return { subCase: withoutLock(subCase, now), changed: true };
}

/** The holder's live connection dropped (spec 3.3 "Locking"): its lock goes without a token. */
export function releaseLockOnDisconnect(subCase: SubCase, who: string, now: Date): SubCaseTransition {
  if (subCase.lock?.lockedBy !== who) return { subCase, changed: false };
  return { subCase: withoutLock(subCase, now), changed: true };
}

/**
 * Guards an operator write. On a locked sub-case the write must carry the live lock's token. On an
 * unlocked one no token is needed, but a token that is presented must be live: a writer whose lock
 * expired or was released holds a stale token and must reload.
 */
export function assertFencing(subCase: SubCase, fencingToken: number | undefined, now: Date): void {
  const current = liveLock(subCase, now);
  if (current ? fencingToken !== current.fencingToken : fencingToken !== undefined) {
    throw staleTokenError(current);
  }
}

function liveLock(subCase: SubCase, now: Date): SubCaseLock | undefined {
  const lock = subCase.lock;
  return lock && Date.parse(lock.expiresAt) > now.getTime() ? lock : undefined;
}

function withoutLock(subCase: SubCase, now: Date): SubCase {
  const { lock: _released, ...rest } = subCase;
  return subCase.lock ? { ...rest, updatedAt: now.toISOString() } : subCase;
}

function lockedError(lock: SubCaseLock, now: Date): DomainError {
  const expiresInSeconds = Math.ceil((Date.parse(lock.expiresAt) - now.getTime()) / 1000);
  return new DomainError("conflict", "sub-case-locked", `The sub-case is locked by ${lock.lockedBy}`, {
    lockedBy: lock.lockedBy,
    expiresInSeconds,
  });
}

function staleTokenError(lock: SubCaseLock | undefined): DomainError {
  return new DomainError(
    "conflict",
    "stale-fencing-token",
    lock
      ? "The fencing token does not match the live lock"
      : "The fencing token belongs to a lock that is gone",
    lock ? { lockedBy: lock.lockedBy } : {},
  );
}

// ---- transitions (spec 3.4) --------------------------------------------------------------------

export interface CompensationRequest {
  /** Operator URN. */
  by: string;
  correlationUrn: string;
  fencingToken?: number;
  /** When given, must equal the current version (optimistic concurrency). */
  expectedVersion?: number;
  /** The saga instance that runs the compensation. */
  sagaInstanceId?: string;
}

/**
 * An operator submits compensation: the saga starts (PROCESSING). Refused while a run is in
 * progress and after the passenger accepted, since a second booking would double-book the group.
 */
export function submitCompensation(
  subCase: SubCase,
  request: CompensationRequest,
  now: Date,
): SubCaseTransition {
  assertNotFrozen(subCase);
  assertFencing(subCase, request.fencingToken, now);
  if (request.expectedVersion !== undefined && request.expectedVersion !== subCase.version) {
    throw new DomainError("conflict", "version-mismatch", "The sub-case changed since it was read", {
      currentVersion: subCase.version,
    });
  }
  if (subCase.status === "PROCESSING" || subCase.status === "RESOLVED") {
    throw new DomainError(
      "conflict",
      "sub-case-state",
      `Compensation cannot start on a ${subCase.status} sub-case`,
      {
        status: subCase.status,
      },
    );
  }
  return moved(
    newRun(subCase, request.correlationUrn, request.sagaInstanceId),
    "PROCESSING",
    "subcase.processing",
    now,
  );
}

/**
 * The group's stay was confirmed and the saga starts on its own (spec 1 step 6): only a sub-case
 * nobody has worked yet (OPEN) takes the run; the same run again changes nothing. Any other state
 * means an operator's run or an answered offer owns the sub-case: the caller's run stands down.
 */
export function startRun(
  subCase: SubCase,
  run: { correlationUrn: string; sagaInstanceId: string },
  now: Date,
): SubCaseTransition {
  assertNotFrozen(subCase);
  if (subCase.sagaInstanceId === run.sagaInstanceId) return { subCase, changed: false };
  requireStatus(subCase, "OPEN");
  return moved(
    newRun(subCase, run.correlationUrn, run.sagaInstanceId),
    "PROCESSING",
    "subcase.processing",
    now,
  );
}

/** Whether `sagaInstanceId` is the run the sub-case follows now (an older run must stand down). */
export function isCurrentRun(subCase: SubCase, sagaInstanceId: string): boolean {
  return subCase.sagaInstanceId === sagaInstanceId;
}

function newRun(subCase: SubCase, correlationUrn: string, sagaInstanceId: string | undefined): SubCase {
  const { offer: _offer, answer: _answer, vendorErrorCode: _code, sagaInstanceId: _run, ...rest } = subCase;
  return { ...rest, correlationUrn, ...(sagaInstanceId !== undefined ? { sagaInstanceId } : {}) };
}

/** The saga succeeded and the passenger was notified: the offer waits for the answer. */
export function offerReady(subCase: SubCase, now: Date, offer: SubCaseOffer): SubCaseTransition {
  assertNotFrozen(subCase);
  requireStatus(subCase, "PROCESSING");
  return moved({ ...subCase, offer }, "OFFER_READY", "subcase.offer-ready", now);
}

/** A vendor failed permanently during the saga; manual review is queued. */
export function failProcessing(subCase: SubCase, now: Date, vendorErrorCode?: string): SubCaseTransition {
  assertNotFrozen(subCase);
  requireStatus(subCase, "PROCESSING");
  return moved(withVendorError(subCase, vendorErrorCode), "FAILED", "subcase.failed", now);
}

export function accept(subCase: SubCase, now: Date, by?: string): SubCaseTransition {
  assertNotFrozen(subCase);
  if (subCase.status === "RESOLVED") return { subCase, changed: false };
  requireOffer(subCase);
  const answer: PassengerAnswer = { kind: "ACCEPTED", at: now.toISOString(), reason: null, by: by ?? null };
  return moved({ ...subCase, answer }, "RESOLVED", "subcase.resolved", now);
}

/** The passenger declines: the saga rolls the run back and alerts an operator. */
export function decline(
  subCase: SubCase,
  now: Date,
  details: { by?: string; reason?: string } = {},
): SubCaseTransition {
  assertNotFrozen(subCase);
  requireOffer(subCase);
  const answer: PassengerAnswer = {
    kind: "DECLINED",
    at: now.toISOString(),
    reason: details.reason ?? null,
    by: details.by ?? null,
  };
  return moved({ ...subCase, answer }, "DECLINED", "subcase.declined", now);
}

/** A cancellation failed permanently (not refundable, past the deadline): manual reconciliation. */
export function compensationFailed(subCase: SubCase, now: Date, vendorErrorCode?: string): SubCaseTransition {
  assertNotFrozen(subCase);
  if (subCase.status === "COMPENSATION_FAILED") return { subCase, changed: false };
  return moved(
    withVendorError(subCase, vendorErrorCode),
    "COMPENSATION_FAILED",
    "subcase.compensation-failed",
    now,
  );
}

function withVendorError(subCase: SubCase, vendorErrorCode: string | undefined): SubCase {
  return vendorErrorCode === undefined ? subCase : { ...subCase, vendorErrorCode };
}

/** The case was closed: freeze the sub-case and drop its lock. */
export function closeWithCase(subCase: SubCase, now: Date): SubCase {
  if (subCase.caseClosedAt) return subCase;
  const { lock: _dropped, ...rest } = subCase;
  const at = now.toISOString();
  return { ...rest, caseClosedAt: at, version: subCase.version + 1, updatedAt: at };
}

/** The case was reopened (ADMIN): the sub-case takes changes again. */
export function reopenWithCase(subCase: SubCase, now: Date): SubCase {
  if (!subCase.caseClosedAt) return subCase;
  const { caseClosedAt: _reopened, ...rest } = subCase;
  return { ...rest, version: subCase.version + 1, updatedAt: now.toISOString() };
}

function requireOffer(subCase: SubCase): void {
  if (subCase.status === "OFFER_READY") return;
  if (subCase.status === "RESOLVED") {
    throw new DomainError("conflict", "offer-already-accepted", "The offer was already accepted", {
      status: subCase.status,
    });
  }
  if (subCase.status === "DECLINED") {
    throw new DomainError("conflict", "offer-already-declined", "The offer was already declined", {
      status: subCase.status,
    });
  }
  throw new DomainError(
    "conflict",
    "offer-not-ready",
    `There is no offer to answer (sub-case ${subCase.status})`,
    {
      status: subCase.status,
    },
  );
}

function requireStatus(subCase: SubCase, expected: SubCaseStatus): void {
  if (subCase.status !== expected) {
    throw new DomainError(
      "conflict",
      "sub-case-state",
      `The sub-case is ${subCase.status}, not ${expected}`,
      {
        status: subCase.status,
      },
    );
  }
}

function assertNotFrozen(subCase: SubCase): void {
  if (subCase.caseClosedAt) throw caseClosedError(subCase.caseUrn);
}

function moved(subCase: SubCase, status: SubCaseStatus, event: SubCaseEvent, now: Date): SubCaseTransition {
  return {
    subCase: { ...subCase, status, version: subCase.version + 1, updatedAt: now.toISOString() },
    changed: true,
    event,
  };
}
