/**
 * A batch is sent at once past this many bytes, so one script never holds Redis, nor a write the
 * connection, for long.
 */
export const BATCH_BYTES = 1_000_000;

/**
 * Gathers what one turn of the event loop asks of Redis into one batch, sent as one script at the
 * end of the turn (or earlier, once the batch is full). Under a storm the writes of a turn then go
 * in one round trip, so the client's per-command cost and its queue of commands do not grow with
 * the number of writers; and a connection's scripts run in the order they were sent, so batches
 * keep the order of what they carry.
 */
export class TurnBatches<B> {
  private open: B | undefined;

  constructor(
    private readonly start: () => B,
    private readonly send: (batch: B) => void,
  ) {}

  /** The batch of this turn, started now if the turn has none yet. */
  current(): B {
    if (this.open) return this.open;
    const batch = this.start();
    this.open = batch;
    setImmediate(() => this.close(batch));
    return batch;
  }

  /** Sends `batch` now, unless it was sent already; what comes next joins a new one. */
  close(batch: B): void {
    if (this.open !== batch) return;
    this.open = undefined;
    this.send(batch);
  }
}
