import { injectable } from "tsyringe";

/**
 * Attempts in flight at once, per process. The transport sends from a thread of its own, so many
 * may wait on their receivers at once without holding anything else up.
 */
const CONCURRENCY = 512;

/**
 * The process's queue of webhook attempts: at most `CONCURRENCY` in flight, and when more wait, a
 * Tier-1 registration's go first, then Tier-2's, then Tier-3's (spec 8.1: Tier-1 deliveries have
 * the tightest bound, 5 s at p95), each tier in arrival order.
 */
@injectable()
export class WebhookDispatcher {
  private readonly waiting: Array<Array<() => Promise<void>>> = [[], [], []];
  private running = 0;
  private readonly idleWaiters: Array<() => void> = [];

  enqueue(tier: 1 | 2 | 3, attempt: () => Promise<void>): void {
    this.waiting[tier - 1]!.push(attempt);
    this.pump();
  }

  /** Waiting attempts, all tiers. */
  get queued(): number {
    return this.waiting.reduce((sum, queue) => sum + queue.length, 0);
  }

  /** Resolves once nothing waits or runs (shutdown, tests, the bench). */
  idle(): Promise<void> {
    if (this.running === 0 && this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Shutdown: forgets the attempts still waiting (each delivery's actor holds a reminder for its
   * next attempt, so none is lost) and resolves once those under way have ended.
   */
  drain(): Promise<void> {
    for (const queue of this.waiting) queue.length = 0;
    return this.idle();
  }

  private pump(): void {
    while (this.running < CONCURRENCY) {
      const next = this.waiting.find((queue) => queue.length > 0)?.shift();
      if (!next) break;
      this.running++;
      // Attempts report their own failures; one that throws anyway must not stop the queue.
      next()
        .catch(() => undefined)
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
    if (this.running === 0 && this.queued === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }
}
