import { describeAgainstRedis } from "../support/redis.js";
import type { StoreHarness } from "../support/store-harness.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/runtime/clock.js";
import type { CounterStore } from "../../src/runtime/counter-store.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { RedisCounterStore } from "../../src/runtime/redis/counter-store.js";

type CounterStoreHarness = StoreHarness<CounterStore>;

/** Slow enough that a Redis bucket never expires in real time while a test runs; a power of two keeps the arithmetic exact. */
const MS_PER_TOKEN = 8192;
const bucket = { capacity: 3, refillPerMs: 1 / MS_PER_TOKEN };

function describeCounterStore(name: string, openHarness: () => Promise<CounterStoreHarness>): void {
  describe(name, () => {
    let harness: CounterStoreHarness;
    let store: CounterStore;

    beforeEach(async () => {
      harness = await openHarness();
      store = harness.store;
    });
    afterEach(() => harness.dispose());

    it("starts a counter at the increment with the given lifetime, and keeps that expiry on later increments", async () => {
      const first = await store.increment("attempts:ip", 1, 600_000);
      const second = await store.increment("attempts:ip", 2, 1_000);
      const third = await store.increment("attempts:ip", -1, 1_000);

      expect(first.value).toBe(1);
      expect(first.ttlMs).toBeGreaterThan(0);
      expect(first.ttlMs).toBeLessThanOrEqual(600_000);
      expect(second.value).toBe(3);
      expect(second.ttlMs).toBeGreaterThan(1_000);
      expect(second.ttlMs).toBeLessThanOrEqual(first.ttlMs);
      expect(third.value).toBe(2);
      expect(await store.get("attempts:ip")).toBe("2");
    });

    it("counts every one of many concurrent increments from several processes once", async () => {
      const peers = await harness.peers(5);

      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => peers[i % peers.length]!.increment("hits", 1, 60_000)),
      );

      expect(results.map((result) => result.value).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      expect(await store.get("hits")).toBe("50");
    });

    it("keeps the expiry of a value that was set before it is incremented", async () => {
      await store.set("window", "5", 600_000);

      const incremented = await store.increment("window", 1, 1_000);

      expect(incremented.value).toBe(6);
      expect(incremented.ttlMs).toBeGreaterThan(1_000);
    });

    it("refuses to increment a value that is not an integer, by a fraction, or with a lifetime that is not positive", async () => {
      await store.set("idempotency:1", '{"status":201}', 60_000);

      await expect(store.increment("idempotency:1", 1, 60_000)).rejects.toThrow();
      await expect(store.increment("n", 0.5, 60_000)).rejects.toThrow(RangeError);
      await expect(store.increment("n", 1, 0)).rejects.toThrow(RangeError);
      await expect(store.set("n", "x", -5)).rejects.toThrow(RangeError);
      expect(await store.get("idempotency:1")).toBe('{"status":201}');
      expect(await store.get("n")).toBeUndefined();
    });

    it("stores a value only when absent with setIfAbsent, and overwrites with set", async () => {
      expect(await store.get("idempotency:k")).toBeUndefined();
      expect(await store.setIfAbsent("idempotency:k", "first", 60_000)).toBe(true);
      expect(await store.setIfAbsent("idempotency:k", "second", 60_000)).toBe(false);
      expect(await store.get("idempotency:k")).toBe("first");

      await store.set("idempotency:k", "third", 60_000);
      expect(await store.get("idempotency:k")).toBe("third");
    });

    it("lets exactly one of 50 concurrent setIfAbsent calls from several processes win", async () => {
      const peers = await harness.peers(5);

      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          peers[i % peers.length]!.setIfAbsent("lock", `owner-${i}`, 60_000),
        ),
      );

      const winners = outcomes.flatMap((won, i) => (won ? [i] : []));
      expect(winners).toHaveLength(1);
      expect(await store.get("lock")).toBe(`owner-${winners[0]}`);
    });

    it("forgets a value and the token bucket of the same name on delete", async () => {
      await store.increment("pnr:ABC123", 7, 60_000);
      for (let i = 0; i < bucket.capacity; i++) await store.takeToken("pnr:ABC123", { ...bucket, now: 0 });

      await store.delete("pnr:ABC123");

      expect(await store.get("pnr:ABC123")).toBeUndefined();
      expect((await store.increment("pnr:ABC123", 1, 60_000)).value).toBe(1);
      expect(await store.takeToken("pnr:ABC123", { ...bucket, now: 0 })).toEqual({
        allowed: true,
        remaining: 2,
        retryAfterMs: 0,
      });
      await expect(store.delete("never-written")).resolves.toBeUndefined();
    });

    it("refills a token bucket by the caller's time, up to its capacity", async () => {
      const t0 = 1_000_000;
      const take = (now: number) => store.takeToken("vendor:booking", { ...bucket, now });

      expect(await take(t0)).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0 });
      expect(await take(t0)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
      expect(await take(t0)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
      expect(await take(t0)).toEqual({ allowed: false, remaining: 0, retryAfterMs: MS_PER_TOKEN });
      expect(await take(t0 + MS_PER_TOKEN / 4)).toEqual({
        allowed: false,
        remaining: 0,
        retryAfterMs: (MS_PER_TOKEN * 3) / 4,
      });
      expect(await take(t0 + MS_PER_TOKEN)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
      expect(await take(t0 + MS_PER_TOKEN * 1.5)).toEqual({
        allowed: false,
        remaining: 0,
        retryAfterMs: MS_PER_TOKEN / 2,
      });
      expect(await take(t0 + MS_PER_TOKEN * 100)).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0 });
      // A process whose clock lags behind adds no tokens, and takes none away.
      expect(await take(t0)).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
      expect(await store.takeToken("vendor:search", { ...bucket, now: t0 })).toEqual({
        allowed: true,
        remaining: 2,
        retryAfterMs: 0,
      });
    });

    it("refuses a token bucket without capacity or refill", async () => {
      await expect(store.takeToken("b", { capacity: 0, refillPerMs: 1, now: 0 })).rejects.toThrow(RangeError);
      await expect(store.takeToken("b", { capacity: 5, refillPerMs: 0, now: 0 })).rejects.toThrow(RangeError);
    });
  });
}

describeCounterStore("MemoryCounterStore", async () => {
  const store = new MemoryCounterStore(new ManualClock());
  return {
    store,
    peers: async (count) => Array.from({ length: count }, () => store),
    dispose: () => store.close(),
  };
});

describe("MemoryCounterStore expiry", () => {
  let clock: ManualClock;
  let store: MemoryCounterStore;

  beforeEach(() => {
    clock = new ManualClock();
    store = new MemoryCounterStore(clock);
  });

  it("reports the lifetime a counter has left and restarts it once expired", async () => {
    await store.increment("attempts", 1, 1_000);
    await clock.advance(999);

    expect(await store.increment("attempts", 1, 1_000)).toEqual({ value: 2, ttlMs: 1 });
    await clock.advance(1);
    expect(await store.get("attempts")).toBeUndefined();
    expect(await store.increment("attempts", 1, 1_000)).toEqual({ value: 1, ttlMs: 1_000 });
  });

  it("lets setIfAbsent win again once the earlier value expired", async () => {
    await store.setIfAbsent("idempotency:k", "first", 500);
    await clock.advance(499);
    expect(await store.setIfAbsent("idempotency:k", "second", 500)).toBe(false);

    await clock.advance(1);
    expect(await store.setIfAbsent("idempotency:k", "second", 500)).toBe(true);
    expect(await store.get("idempotency:k")).toBe("second");
  });

  it("drops values written with set when their lifetime ends", async () => {
    await store.set("revoked:grant", "1", 2_000);
    await clock.advance(1_999);
    expect(await store.get("revoked:grant")).toBe("1");

    await clock.advance(1);
    expect(await store.get("revoked:grant")).toBeUndefined();
  });

  it("keeps live counters when sweeping out many expired ones", async () => {
    await store.set("long-lived", "kept", 60_000);
    for (let i = 0; i < 3_000; i++) await store.increment(`short:${i}`, 1, 10);
    await clock.advance(10);
    for (let i = 0; i < 3_000; i++) await store.setIfAbsent(`later:${i}`, "x", 10_000);

    expect(await store.get("long-lived")).toBe("kept");
    expect(await store.get("short:0")).toBeUndefined();
    expect(await store.get("later:2999")).toBe("x");
  });
});

await describeAgainstRedis(
  "RedisCounterStore",
  "counter-store",
  (options) => RedisCounterStore.connect(options),
  describeCounterStore,
);
