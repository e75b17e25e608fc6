/**
 * One lock per key, granted in arrival order. Taking a free lock allocates no promise: the backend
 * takes one for every state change, thousands of times a second.
 */
export class KeyedLock {
  private readonly waiting = new Map<string, Array<() => void>>();
  private readonly idleWaiters: Array<() => void> = [];

  /** Takes the lock for `key`; when another holder has it, returns a promise that resolves once it is yours. */
  acquire(key: string): Promise<void> | undefined {
    const queue = this.waiting.get(key);
    if (!queue) {
      this.waiting.set(key, []);
      return undefined;
    }
    return new Promise((resolve) => queue.push(resolve));
  }

  release(key: string): void {
    const next = this.waiting.get(key)?.shift();
    if (next) {
      next();
      return;
    }
    this.waiting.delete(key);
    if (this.waiting.size === 0) for (const idle of this.idleWaiters.splice(0)) idle();
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const turn = this.acquire(key);
    if (turn) await turn;
    try {
      return await work();
    } finally {
      this.release(key);
    }
  }

  /** Resolves once no lock is held. */
  idle(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
