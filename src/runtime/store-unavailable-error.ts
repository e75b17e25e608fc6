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
