/**
 * Retries of transient vendor failures (spec part 7): exponential backoff with full jitter, from a
 * longer base after a 429, never shorter than the vendor's Retry-After. Permanent failures and
 * anything that is not a VendorError (an open circuit, a bug) are given back at once.
 */
import type { Clock } from "../runtime/clock.js";
import { VendorError } from "./vendor-error.js";

export interface RetryPolicy {
  maxAttempts: number;
  /** Backoff ceiling of the first retry after a 5xx, timeout or network error; doubles each time. */
  baseDelayMs: number;
  /** The same after a 429. */
  rateLimitedBaseDelayMs: number;
  maxDelayMs: number;
}

/** A search is time-boxed to 2 s, so it gets few, quick retries; a booking is worth waiting for. */
export const SEARCH_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 100,
  rateLimitedBaseDelayMs: 500,
  maxDelayMs: 1_000,
};

export const BOOKING_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  rateLimitedBaseDelayMs: 2_000,
  maxDelayMs: 8_000,
};

/** Full jitter: a uniform draw below the exponential ceiling, so retrying clients spread out. */
export function backoffDelayMs(
  error: VendorError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number {
  const base = error.classification === "rate-limited" ? policy.rateLimitedBaseDelayMs : policy.baseDelayMs;
  const ceiling = Math.min(policy.maxDelayMs, base * 2 ** (attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  return error.retryAfterMs === undefined ? jittered : Math.max(jittered, error.retryAfterMs);
}

/** Spec 7, wallet issuance: a vendor 5xx is retried, 5 attempts in all, backing off from 3 s. */
export const WALLET_ISSUE_RETRY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 3_000,
  rateLimitedBaseDelayMs: 3_000,
  maxDelayMs: 24_000,
};

export async function withRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  clock: Clock,
  random: () => number = Math.random,
): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!(error instanceof VendorError) || !error.retryable || attemptNumber >= policy.maxAttempts)
        throw error;
      const delay = backoffDelayMs(error, attemptNumber, policy, random);
      await new Promise<void>((resolve) => clock.setTimer(resolve, delay));
    }
  }
}
