/**
 * A token bucket per vendor and domain (spec 8.1: inventory search about 10 TPS, booking about
 * 5 TPS, tenant-configured). A call beyond the rate waits its turn on the clock instead of failing,
 * so bursts queue in the worker rather than reaching the vendor. Waiters are served first come,
 * first served.
 */
import type { Clock, TimerHandle } from "../runtime/clock.js";

export interface BucketRate {
  /** Calls per second in the long run. */
  perSecond: number;
  /** Calls that may go at once after a quiet spell; defaults to one second's worth. */
  burst?: number;
}

export class TokenBucket {
  private readonly perSecond: number;
  private readonly capacity: number;
  private tokens: number;
  private updatedAt: number;
  private readonly waiters: Array<() => void> = [];
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    rate: BucketRate,
  ) {
    if (!(rate.perSecond > 0)) throw new Error(`a token bucket needs a positive rate, got ${rate.perSecond}`);
    this.perSecond = rate.perSecond;
    this.capacity = Math.max(1, rate.burst ?? rate.perSecond);
    this.tokens = this.capacity;
    this.updatedAt = clock.now();
  }

  /** Resolves when the caller may make one call. */
  take(): Promise<void> {
    this.refill();
    if (this.waiters.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  /** Calls waiting for a token right now. */
  waiting(): number {
    return this.waiters.length;
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) * this.perSecond) / 1000);
    this.updatedAt = now;
  }

  private schedule(): void {
    if (this.timer || this.waiters.length === 0) return;
    const wait = Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
    this.timer = this.clock.setTimer(
      () => {
        this.timer = undefined;
        this.release();
      },
      Math.max(0, wait),
    );
  }

  private release(): void {
    this.refill();
    // Tolerates the float error of refills that add up to exactly one token.
    while (this.waiters.length > 0 && this.tokens >= 1 - 1e-9) {
      this.tokens = Math.max(0, this.tokens - 1);
      this.waiters.shift()!();
    }
    this.schedule();
  }
}
