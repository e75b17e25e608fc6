import { caseClosedError } from "./case-lifecycle.js";
import { DomainError } from "./domain-error.js";
import { uuidFromParts } from "./uuid.js";

/**
 * The sub-case: the per-group unit of the compensation saga (spec 2.2, 3.4), with its operator lock.
 *
 * States. The spec names RESOLVED and COMPENSATION_FAILED; the others follow the events of 6.1:
 *   OPEN                  created with the case, nothing running yet
 *   PROCESSING            an operator submitted compensation; the saga runs (subcase.processing)
 *   OFFER_READY           the saga succeeded and the passenger was notified (subcase.offer-ready)
 *   RESOLVED              the passenger accepted (subcase.resolved)
 *   DECLINED              the passenger declined; the saga rolls the booking back (subcase.declined)
 *   FAILED                a vendor failed permanently; manual review is queued (subcase.failed)
 *   COMPENSATION_FAILED   a cancellation failed for good; manual reconciliation (subcase.compensation-failed)
 * RESOLVED, DECLINED and COMPENSATION_FAILED are terminal for case.resolved.
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
  /** Set when the case was closed: the sub-case is frozen. */
  caseClosedAt?: string;
  updatedAt: string;
}

export type SubCaseEvent =
  | "subcase.processing"
  | "subcase.offer-ready"
  | "subcase.resolved"
  | "subcase.declined"
  | "subcase.failed"
  | "subcase.compensation-failed";

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
    { ...subCase, correlationUrn: request.correlationUrn },
    "PROCESSING",
    "subcase.processing",
    now,
  );
}

/** The saga succeeded and the passenger was notified. */
export function offerReady(subCase: SubCase, now: Date): SubCaseTransition {
  assertNotFrozen(subCase);
  requireStatus(subCase, "PROCESSING");
  return moved(subCase, "OFFER_READY", "subcase.offer-ready", now);
}

/** A vendor failed permanently during the saga; manual review is queued. */
export function failProcessing(subCase: SubCase, now: Date): SubCaseTransition {
  assertNotFrozen(subCase);
  requireStatus(subCase, "PROCESSING");
  return moved(subCase, "FAILED", "subcase.failed", now);
}

export function accept(subCase: SubCase, now: Date): SubCaseTransition {
  assertNotFrozen(subCase);
  if (subCase.status === "RESOLVED") return { subCase, changed: false };
  requireOffer(subCase);
  return moved(subCase, "RESOLVED", "subcase.resolved", now);
}

/** The passenger declines: the caller starts the rollback and alerts an operator. */
export function decline(subCase: SubCase, now: Date): SubCaseTransition {
  assertNotFrozen(subCase);
  requireOffer(subCase);
  return moved(subCase, "DECLINED", "subcase.declined", now);
}

/** A cancellation failed permanently (not refundable, past the deadline): manual reconciliation. */
export function compensationFailed(subCase: SubCase, now: Date): SubCaseTransition {
  assertNotFrozen(subCase);
  if (subCase.status === "COMPENSATION_FAILED") return { subCase, changed: false };
  return moved(subCase, "COMPENSATION_FAILED", "subcase.compensation-failed", now);
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
