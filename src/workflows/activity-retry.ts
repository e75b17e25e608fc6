import type { Task, WorkflowContext } from "@dapr/dapr";
import { isStoreUnavailable, storeOutageWaitMs } from "../runtime/store-unavailable-error.js";

/**
 * How a workflow retries an activity that threw. The Dapr JS SDK has no retry policies, so a retry
 * is written in the workflow: the activity called again after a durable timer, which survives a
 * restart like any other step. Activities answer refusals (a missing wave, a vendor saying no) as
 * values; a throw means "this may work later" (an actor call that timed out, a store that was
 * down), and is what this policy retries; a store outage is waited out without counting.
 */
export interface ActivityRetryPolicy {
  /** Calls in all, the first included. */
  maxAttempts: number;
  /** The wait before the first retry. */
  firstIntervalMs: number;
  /** Each wait is this many times the one before... */
  backoffCoefficient: number;
  /** ...up to this. */
  maxIntervalMs: number;
}

/**
 * Five calls over about fifteen seconds: past a sidecar restart, short of a lease running out. A
 * store restart is not counted at all (`nextTry`).
 */
export const ACTIVITY_RETRY: ActivityRetryPolicy = {
  maxAttempts: 5,
  firstIntervalMs: 1_000,
  backoffCoefficient: 2,
  maxIntervalMs: 60_000,
};

/** The wait before retry `retry` (1 for the first retry). */
export function retryIntervalMs(policy: ActivityRetryPolicy, retry: number): number {
  return Math.min(policy.maxIntervalMs, policy.firstIntervalMs * policy.backoffCoefficient ** (retry - 1));
}

/** Where a call stands in its retries: the attempts made, the store outages met in a row since the last one. */
export interface Tries {
  attempt: number;
  outages: number;
}

/** The first call. */
export const FIRST_TRY: Tries = { attempt: 1, outages: 0 };

/**
 * After a call that failed with `error`: the wait before the next call and where that one stands,
 * or undefined once the attempts ran out. A failure because a store is unavailable is no attempt
 * (isStoreUnavailable): the call is made again after `storeOutageWaitMs`, for as long as the outage
 * lasts, so a store restart does not fail the step.
 */
export function nextTry(
  policy: ActivityRetryPolicy,
  tries: Tries,
  error: unknown,
): { waitMs: number; tries: Tries } | undefined {
  if (isStoreUnavailable(error)) {
    const outages = tries.outages + 1;
    return { waitMs: storeOutageWaitMs(outages), tries: { attempt: tries.attempt, outages } };
  }
  if (tries.attempt >= policy.maxAttempts) return undefined;
  return {
    waitMs: retryIntervalMs(policy, tries.attempt),
    tries: { attempt: tries.attempt + 1, outages: 0 },
  };
}

/** A durable timer `ms` from the workflow's current time (the SDK counts in seconds). */
export function sleep(ctx: WorkflowContext, ms: number): Task<unknown> {
  return ctx.createTimer(ms / 1_000);
}

/**
 * Calls the activity until it returns, with a durable timer between attempts; once the attempts
 * run out the last failure is thrown, as a failed activity is (`nextTry`). Use it with `yield*`.
 */
export async function* callWithRetry<T>(
  ctx: WorkflowContext,
  activity: string,
  input: unknown,
  policy: ActivityRetryPolicy = ACTIVITY_RETRY,
): AsyncGenerator<unknown, T, any> {
  for (let tries = FIRST_TRY; ; ) {
    try {
      return yield ctx.callActivity(activity, input);
    } catch (error) {
      const next = nextTry(policy, tries, error);
      if (!next) throw error;
      yield sleep(ctx, next.waitMs);
      tries = next.tries;
    }
  }
}
