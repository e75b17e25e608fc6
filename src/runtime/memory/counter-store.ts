import { type Clock, systemClock } from "../clock.js";
import {
  type CounterIncrement,
  type CounterStore,
  requireIncrement,
  requireTokenBucket,
  type TokenBucket,
  type TokenGrant,
  wholeTtlMs,
} from "../counter-store.js";

interface ExpiringValue {
  value: string;
  expiresAt: number;
}

interface BucketLevel {
  tokens: number;
  /** The caller's `now` at the last take. */
  updatedAt: number;
  expiresAt: number;
}

/** Below this many entries, expired ones are only dropped when read. */
const SWEEP_FLOOR = 1024;

/**
 * Counters for one process. Expiry follows the injected clock, so tests move time with ManualClock;
 * token buckets refill by the caller's `now` alone, exactly as the Redis script does.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly values = new Map<string, ExpiringValue>();
  private readonly buckets = new Map<string, BucketLevel>();
  private sweepAbove = SWEEP_FLOOR;

  constructor(private readonly clock: Clock = systemClock) {}

  async increment(key: string, by: number, ttlMs: number): Promise<CounterIncrement> {
    requireIncrement(by);
    const lifetime = wholeTtlMs(ttlMs);
    const now = this.clock.now();
    const current = this.live(key);
    if (current !== undefined && !/^-?(0|[1-9]\d*)$/.test(current.value)) {
      throw new TypeError(`The value at ${key} is not an integer counter`);
    }
    const value = Number(current?.value ?? 0) + by;
    const expiresAt = current?.expiresAt ?? now + lifetime;
    this.write(this.values, key, { value: String(value), expiresAt });
    return { value, ttlMs: expiresAt - now };
  }

  async get(key: string): Promise<string | undefined> {
    return this.live(key)?.value;
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const lifetime = wholeTtlMs(ttlMs);
    if (this.live(key)) return false;
    this.write(this.values, key, { value, expiresAt: this.clock.now() + lifetime });
    return true;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.write(this.values, key, { value, expiresAt: this.clock.now() + wholeTtlMs(ttlMs) });
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.buckets.delete(key);
  }

  async takeToken(
    key: string,
    { capacity, refillPerMs, now }: TokenBucket & { now: number },
  ): Promise<TokenGrant> {
    requireTokenBucket({ capacity, refillPerMs });
    const level = this.buckets.get(key);
    const clockNow = this.clock.now();
    const known = level && level.expiresAt > clockNow ? level : undefined;
    const updatedAt = known?.updatedAt ?? now;
    let tokens = Math.min(capacity, (known?.tokens ?? capacity) + Math.max(0, now - updatedAt) * refillPerMs);
    const allowed = tokens >= 1;
    if (allowed) tokens -= 1;
    // A bucket left alone until it is full again is the same as no bucket, so it may be forgotten then.
    const untilFullMs = Math.max(1, Math.ceil((capacity - tokens) / refillPerMs));
    if (level) {
      // The bucket's entry is updated where it is: no new entry, nor a second lookup, per take.
      level.tokens = tokens;
      level.updatedAt = Math.max(now, updatedAt);
      level.expiresAt = clockNow + untilFullMs;
    } else {
      this.write(this.buckets, key, {
        tokens,
        updatedAt: Math.max(now, updatedAt),
        expiresAt: clockNow + untilFullMs,
      });
    }
    return {
      allowed,
      remaining: Math.floor(tokens),
      retryAfterMs: allowed ? 0 : Math.ceil((1 - tokens) / refillPerMs),
    };
  }

  async close(): Promise<void> {}

  private live(key: string): ExpiringValue | undefined {
    const entry = this.values.get(key);
    if (entry && entry.expiresAt <= this.clock.now()) {
      this.values.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Drops expired entries whenever the maps have doubled, so keys never read again do not pile up. */
  private write<E extends { expiresAt: number }>(map: Map<string, E>, key: string, entry: E): void {
    map.set(key, entry);
    if (this.values.size + this.buckets.size <= this.sweepAbove) return;
    const now = this.clock.now();
    for (const expiring of [this.values, this.buckets] as Map<string, { expiresAt: number }>[]) {
      for (const [k, e] of expiring) if (e.expiresAt <= now) expiring.delete(k);
    }
    this.sweepAbove = Math.max(SWEEP_FLOOR, 2 * (this.values.size + this.buckets.size));
  }
}
