import {
  type CounterIncrement,
  type CounterStore,
  requireIncrement,
  requireTokenBucket,
  type TokenBucket,
  type TokenGrant,
  wholeTtlMs,
} from "../counter-store.js";
import { LuaScript } from "./lua-script.js";
import { RedisStore } from "./redis-store.js";

/** Sets the expiry only when the counter has none yet, i.e. when INCRBY just created it. */
const incrementScript = new LuaScript(`
local value = redis.call("INCRBY", KEYS[1], ARGV[1])
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[2])
  redis.call("PEXPIRE", KEYS[1], ttl)
end
return { value, ttl }
`);

/**
 * The same refill rule as MemoryCounterStore.takeToken. Levels are stored with %.17g because Lua's
 * default number formatting keeps 14 digits, which would drift from the in-memory arithmetic.
 * ARGV: capacity, refillPerMs, now.
 */
const takeTokenScript = new LuaScript(`
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local level = redis.call("HMGET", KEYS[1], "tokens", "updatedAt")
local updatedAt = tonumber(level[2]) or now
local tokens = math.min(capacity, (tonumber(level[1]) or capacity) + math.max(0, now - updatedAt) * refill)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call("HSET", KEYS[1], "tokens", string.format("%.17g", tokens), "updatedAt", math.max(now, updatedAt))
redis.call("PEXPIRE", KEYS[1], math.max(1, math.ceil((capacity - tokens) / refill)))
local retryAfter = 0
if allowed == 0 then retryAfter = math.ceil((1 - tokens) / refill) end
return { allowed, math.floor(tokens), retryAfter }
`);

/** Counters shared by every process on one Redis; each operation is a single command or script. */
export class RedisCounterStore extends RedisStore implements CounterStore {
  private readonly valuePrefix = `${this.prefix}c:`;
  private readonly bucketPrefix = `${this.prefix}b:`;

  async increment(key: string, by: number, ttlMs: number): Promise<CounterIncrement> {
    const args = [String(requireIncrement(by)), String(wholeTtlMs(ttlMs))];
    const [value, ttl] = (await incrementScript.run(this.client, [this.valuePrefix + key], args)) as number[];
    return { value: Number(value), ttlMs: Number(ttl) };
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.command((client) => client.get(this.valuePrefix + key))) ?? undefined;
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const reply = await this.command((client) =>
      client.set(this.valuePrefix + key, value, {
        condition: "NX",
        expiration: { type: "PX", value: wholeTtlMs(ttlMs) },
      }),
    );
    return reply === "OK";
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.command((client) =>
      client.set(this.valuePrefix + key, value, {
        expiration: { type: "PX", value: wholeTtlMs(ttlMs) },
      }),
    );
  }

  async delete(key: string): Promise<void> {
    await this.command((client) => client.del([this.valuePrefix + key, this.bucketPrefix + key]));
  }

  async takeToken(
    key: string,
    { capacity, refillPerMs, now }: TokenBucket & { now: number },
  ): Promise<TokenGrant> {
    requireTokenBucket({ capacity, refillPerMs });
    const args = [String(capacity), String(refillPerMs), String(now)];
    const [allowed, remaining, retryAfterMs] = (await takeTokenScript.run(
      this.client,
      [this.bucketPrefix + key],
      args,
    )) as number[];
    return { allowed: allowed === 1, remaining: Number(remaining), retryAfterMs: Number(retryAfterMs) };
  }
}
