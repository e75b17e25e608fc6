const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * Spec 6.1's backoff: attempt 1 at once, then +1 min, +5 min, +30 min, +2 h, +6 h, +24 h. The
 * offsets count from the first attempt, so the last comes 24 hours after it: spec 8.2's retry
 * span ("up to 24 hours, 7 attempts").
 */
export const WEBHOOK_ATTEMPT_OFFSETS_MS = [
  0,
  MINUTE_MS,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  6 * HOUR_MS,
  24 * HOUR_MS,
] as const;

export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_ATTEMPT_OFFSETS_MS.length;

/** Spec 6.1, 8.2: no response within 10 seconds is a failure. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * When attempt `attempt + 1` is due, after attempt `attempt` (1-based) of a round that began at
 * `firstAttemptAt` failed; undefined once the last attempt failed.
 */
export function nextAttemptAt(firstAttemptAt: number, attempt: number): number | undefined {
  const offset = WEBHOOK_ATTEMPT_OFFSETS_MS[attempt];
  return attempt < 1 || offset === undefined ? undefined : firstAttemptAt + offset;
}

/** Spec 6.1: only a 2xx answer is a delivery. */
export function isDelivered(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}
