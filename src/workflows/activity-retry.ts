import type { Task, WorkflowContext } from "@dapr/dapr";

/**
 * How a workflow retries an activity that threw. The Dapr JS SDK has no retry policies, so a retry
 * is written in the workflow: the activity called again after a durable timer, which survives a
 * restart like any other step. Activities answer refusals (a missing wave, a vendor saying no) as
 * values; a throw means "this may work later" (an actor call that timed out, a store that was
 * down), and is what this policy retries.
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

/** Five calls over about fifteen seconds: past a sidecar or store restart, short of a lease running out. */
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

/** A durable timer `ms` from the workflow's current time (the SDK counts in seconds). */
export function sleep(ctx: WorkflowContext, ms: number): Task<unknown> {
  return ctx.createTimer(ms / 1_000);
}

/**
 * Calls the activity until it returns, with a durable timer between attempts; once the attempts
 * run out the last failure is thrown, as a failed activity is. Use it with `yield*`.
 */
export async function* callWithRetry<T>(
  ctx: WorkflowContext,
  activity: string,
  input: unknown,
  policy: ActivityRetryPolicy = ACTIVITY_RETRY,
): AsyncGenerator<unknown, T, any> {
  for (let attempt = 1; ; attempt++) {
    try {
      return yield ctx.callActivity(activity, input);
    } catch (error) {
      if (attempt >= policy.maxAttempts) throw error;
      yield sleep(ctx, retryIntervalMs(policy, attempt));
    }
  }
}
