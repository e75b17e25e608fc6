/**
 * Time as a port: reminders, timers, token expiry and rate limits all read it, so tests drive
 * time forward explicitly instead of sleeping.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once `ms` milliseconds from now (by this clock). */
  setTimer(fn: () => void, ms: number): TimerHandle;
}

/**
 * The longest delay setTimeout holds (about 24.8 days): Node runs a longer one after 1 ms. An
 * offer's deadline or a reminder months away is armed again in steps of at most this.
 */
export const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const due = Date.now() + Math.max(0, ms);
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      const left = due - Date.now();
      timer =
        left > LONGEST_TIMEOUT_MS ? setTimeout(arm, LONGEST_TIMEOUT_MS) : setTimeout(fn, Math.max(0, left));
      timer.unref?.();
    };
    arm();
    return { cancel: () => clearTimeout(timer) };
  },
};

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that only moves when told to; timers fire in due order during `advance`. */
export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: PendingTimer[] = [];

  constructor(start: number | string = "2026-01-01T00:00:00Z") {
    this.current = typeof start === "number" ? start : Date.parse(start);
  }

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer: PendingTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  /** Moves time forward, firing due timers one by one and letting their async work settle in between. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      const next = this.timers
        .filter((t) => !t.cancelled && t.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
    this.current = target;
    await settle();
  }

  pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}

/** Lets queued promise callbacks and I/O callbacks of already-resolved work run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
