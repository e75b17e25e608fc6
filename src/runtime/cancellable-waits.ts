import type { Clock } from "./clock.js";

/**
 * Waits on a clock that a closing component ends at once: the event bus's redelivery backoff and
 * the workflow backend's waits through a store outage. A wait resolves true once its time is up,
 * false when `cancelAll` ran before (or while) it waited, so the waiter gives up instead of working
 * on after its owner closed; no timer of it keeps the process alive past that.
 */
export class CancellableWaits {
  private readonly pending = new Set<() => void>();
  private cancelled = false;

  constructor(private readonly clock: Clock) {}

  wait(ms: number): Promise<boolean> {
    if (this.cancelled) return Promise.resolve(false);
    return new Promise((resolve) => {
      const cancel = () => {
        timer.cancel();
        this.pending.delete(cancel);
        resolve(false);
      };
      const timer = this.clock.setTimer(() => {
        this.pending.delete(cancel);
        resolve(true);
      }, ms);
      this.pending.add(cancel);
    });
  }

  /** Ends every wait now (each resolves false), and every later one at once. */
  cancelAll(): void {
    this.cancelled = true;
    for (const cancel of [...this.pending]) cancel();
  }
}
