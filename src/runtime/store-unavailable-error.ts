/**
 * A store (state, documents, counters) cannot answer for now: its connection is lost, refused or
 * closed, or it refuses commands for a while (loading its data, a replica without its primary, out
 * of memory, busy). The adapters raise it around their driver's error, kept as `cause`; the request
 * may succeed later, so the HTTP surfaces answer 503 with Retry-After (src/http/problem.ts). Any
 * other failure of a store stays what it is: a bug, not an outage.
 *
 * Not a DomainError of kind `unavailable`: callers take a DomainError for the domain's answer, and
 * several give up on one instead of retrying (a wave trigger, a subscription that drops the event),
 * which an outage must not make them do.
 */
export class StoreUnavailableError extends Error {
  /** `cause`'s message is kept in this one for the logs; the HTTP answer does not show it. */
  constructor(options: { cause: unknown }) {
    const { cause } = options;
    super(`The store is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, options);
    this.name = "StoreUnavailableError";
  }
}

/**
 * Whether `error` says the store is unavailable: a StoreUnavailableError, or a workflow activity
 * that failed with one (a workflow sees an activity's failure only as failure details naming the
 * error's class, on both runtimes). Background work that retries (event redelivery, workflow
 * activities, reminders) waits such a failure out, for as long as it lasts, without counting it
 * against its attempts: the event or the step did not fail, the store was away (a restart).
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  const details = (error as { details?: { errorType?: unknown } } | null | undefined)?.details;
  return details?.errorType === StoreUnavailableError.name;
}

/** The longest wait between two tries through an outage: Redis is reconnected at least this often (redis-connection.ts). */
const LONGEST_OUTAGE_WAIT_MS = 2_000;

/** The wait before trying again after the `outage`th failure in a row for isStoreUnavailable: 100 ms, doubling to 2 s. */
export function storeOutageWaitMs(outage: number): number {
  return Math.min(LONGEST_OUTAGE_WAIT_MS, 100 * 2 ** (outage - 1));
}
