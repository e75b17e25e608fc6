/**
 * Short-lived shared numbers and markers that expire on their own: rate-limit windows, idempotency
 * keys, PNR-login attempt counts, vendor token buckets. Memory serves one process; Redis serves
 * several, so every operation is atomic on its own.
 */
export interface CounterIncrement {
  value: number;
  /** Milliseconds the counter has left to live. */
  ttlMs: number;
}

export interface TokenBucket {
  /** Most tokens the bucket holds, and so the largest burst. */
  capacity: number;
  /** Tokens added back per millisecond, e.g. `10 / 1000` for 10 per second. */
  refillPerMs: number;
}

export interface TokenGrant {
  allowed: boolean;
  /** Whole tokens left after this take. */
  remaining: number;
  /** When refused, how long until a token is back; 0 when allowed. */
  retryAfterMs: number;
}

export interface CounterStore {
  /**
   * Adds `by` (an integer) to the counter at `key`. A missing counter starts at 0 and lives `ttlMs`
   * from now; later increments keep that expiry, so the counter is a fixed window.
   */
  increment(key: string, by: number, ttlMs: number): Promise<CounterIncrement>;
  get(key: string): Promise<string | undefined>;
  /** Stores `value` for `ttlMs` unless the key holds one already; true when this call stored it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Forgets the value or counter at `key`, and the token bucket of the same name. */
  delete(key: string): Promise<void>;
  /**
   * Takes one token from the bucket at `key`, which starts full. `now` comes from the caller's clock,
   * so every process refills by the same rule and tests choose the time.
   */
  takeToken(key: string, bucket: TokenBucket & { now: number }): Promise<TokenGrant>;
  close(): Promise<void>;
}

/** Both stores keep whole milliseconds, as Redis PX does. */
export function wholeTtlMs(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`A TTL must be positive, got ${ttlMs} ms`);
  return Math.ceil(ttlMs);
}

export function requireIncrement(by: number): number {
  if (!Number.isSafeInteger(by)) throw new RangeError(`A counter moves by whole numbers, got ${by}`);
  return by;
}

export function requireTokenBucket(bucket: TokenBucket): void {
  if (!(bucket.capacity >= 1) || !(bucket.refillPerMs > 0)) {
    throw new RangeError(
      `A token bucket needs capacity >= 1 and refillPerMs > 0, got ${bucket.capacity} and ${bucket.refillPerMs}`,
    );
  }
}
