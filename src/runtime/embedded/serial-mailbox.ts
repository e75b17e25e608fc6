/**
 * One actor's turn queue: work runs strictly one item at a time in arrival order, so two calls on
 * the same actor never interleave, while separate mailboxes run concurrently.
 */
export class SerialMailbox {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  get pending(): number {
    return this.queued;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = this.tail.then(work);
    // Callbacks inline: tsx names every function kept in a const (a defineProperty per call).
    this.tail = result.then(
      () => this.queued--,
      () => this.queued--,
    );
    return result;
  }

  /** Resolves once everything queued so far has run. */
  drain(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
