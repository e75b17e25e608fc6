/**
 * The sub-case locks this window holds (spec 4.1 lock/unlock): their fencing tokens, in memory only,
 * which every write under a lock carries. A lock of this operator whose token was lost (a reload)
 * is renewed by locking again, which answers the same token.
 */
import { api, segment } from "./api.js";
import { onSessionChange, accessToken } from "./session.js";

export interface HeldLock {
  subCaseUrn: string;
  fencingToken: number;
  expiresAt: string;
}

const held = new Map<string, HeldLock>();

/** Acquires or renews the lock; a 409 `sub-case-locked` (another holder) is thrown as ApiProblem. */
export async function lockSubCase(subCaseUrn: string): Promise<HeldLock> {
  const lock = await api<HeldLock>("POST", `/v1/subcases/${segment(subCaseUrn)}/lock`, {});
  held.set(subCaseUrn, lock);
  return lock;
}

export async function unlockSubCase(subCaseUrn: string): Promise<void> {
  const lock = held.get(subCaseUrn) ?? (await lockSubCase(subCaseUrn));
  await api("POST", `/v1/subcases/${segment(subCaseUrn)}/unlock`, { fencingToken: lock.fencingToken });
  held.delete(subCaseUrn);
}

/** The fencing token of a lock this window holds, for writes under it (compensate). */
export function fencingTokenOf(subCaseUrn: string): number | undefined {
  return held.get(subCaseUrn)?.fencingToken;
}

/** The server let the lock go (expiry, release on disconnect): its token is no longer live. */
export function forgetLock(subCaseUrn: string): void {
  held.delete(subCaseUrn);
}

onSessionChange(() => {
  if (!accessToken()) held.clear();
});
