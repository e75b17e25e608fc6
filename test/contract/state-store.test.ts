import { describeAgainstRedis } from "../support/redis.js";
import type { StoreHarness } from "../support/store-harness.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { RedisStateStore } from "../../src/runtime/redis/state-store.js";
import { EtagMismatchError, type ScannableStateStore } from "../../src/runtime/state-store.js";

type StateStoreHarness = StoreHarness<ScannableStateStore>;

function describeStateStore(name: string, openHarness: () => Promise<StateStoreHarness>): void {
  describe(name, () => {
    let harness: StateStoreHarness;
    let store: ScannableStateStore;

    beforeEach(async () => {
      harness = await openHarness();
      store = harness.store;
    });
    afterEach(() => harness.dispose());

    it("reads back what was set, with its ETag, and forgets deleted keys", async () => {
      const etag = await store.set("case:1", { status: "OPEN", passengers: 3 });

      expect(await store.get("case:1")).toEqual({
        key: "case:1",
        value: { status: "OPEN", passengers: 3 },
        etag,
      });
      await store.delete("case:1");
      expect(await store.get("case:1")).toBeUndefined();
      expect(await store.get("never-written")).toBeUndefined();
    });

    it("gives every write a new ETag", async () => {
      const first = await store.set("k", 1);
      const second = await store.set("k", 2);
      const other = await store.set("other", 1);

      expect(new Set([first, second, other]).size).toBe(3);
      expect((await store.get("k"))?.etag).toBe(second);
    });

    it("returns only the keys that exist from getMany", async () => {
      await store.set("a", "A");
      await store.set("b", { nested: ["B"] });

      const found = await store.getMany(["a", "missing", "b"]);

      expect([...found.keys()].sort()).toEqual(["a", "b"]);
      expect(found.get("b")?.value).toEqual({ nested: ["B"] });
    });

    it("writes with the current ETag and refuses a stale one", async () => {
      const stale = await store.set("k", "v1");
      const current = await store.set("k", "v2", { etag: stale });

      await expect(store.set("k", "v3", { etag: stale })).rejects.toThrow(EtagMismatchError);
      expect(await store.get("k")).toEqual({ key: "k", value: "v2", etag: current });
    });

    it("refuses a write with an ETag to a key that does not exist", async () => {
      await expect(store.set("missing", 1, { etag: "1" })).rejects.toMatchObject({
        name: "EtagMismatchError",
        key: "missing",
      });
      expect(await store.get("missing")).toBeUndefined();
    });

    it("never accepts an ETag from before a key was deleted and written again", async () => {
      const old = await store.set("k", "first life");
      await store.delete("k");
      await store.set("k", "second life");

      await expect(store.set("k", "overwrite", { etag: old })).rejects.toThrow(EtagMismatchError);
      await expect(store.delete("k", { etag: old })).rejects.toThrow(EtagMismatchError);
      expect((await store.get("k"))?.value).toBe("second life");
    });

    it("deletes with the current ETag, refuses a stale one, and ignores a missing key without one", async () => {
      const stale = await store.set("k", 1);
      const current = await store.set("k", 2);

      await expect(store.delete("k", { etag: stale })).rejects.toThrow(EtagMismatchError);
      expect((await store.get("k"))?.value).toBe(2);
      await store.delete("k", { etag: current });
      expect(await store.get("k")).toBeUndefined();
      await expect(store.delete("k")).resolves.toBeUndefined();
      await expect(store.delete("k", { etag: current })).rejects.toThrow(EtagMismatchError);
    });

    it("applies every operation of a transaction", async () => {
      const aEtag = await store.set("a", "old a");
      await store.set("c", "doomed");

      await store.transact([
        { operation: "upsert", key: "a", value: "new a", etag: aEtag },
        { operation: "upsert", key: "b", value: { fresh: true } },
        { operation: "delete", key: "c" },
      ]);

      expect((await store.get("a"))?.value).toBe("new a");
      expect((await store.get("b"))?.value).toEqual({ fresh: true });
      expect(await store.get("c")).toBeUndefined();
    });

    it("leaves every key untouched when one ETag of a transaction mismatches", async () => {
      const aEtag = await store.set("a", "a0");
      const bStale = await store.set("b", "b0");
      const bEtag = await store.set("b", "b1");
      const cEtag = await store.set("c", "c0");
      const before = await store.getMany(["a", "b", "c", "d"]);

      await expect(
        store.transact([
          { operation: "upsert", key: "a", value: "a1", etag: aEtag },
          { operation: "upsert", key: "d", value: "d0" },
          { operation: "delete", key: "c", etag: cEtag },
          { operation: "upsert", key: "b", value: "b2", etag: bStale },
        ]),
      ).rejects.toMatchObject({ name: "EtagMismatchError", key: "b" });

      const after = await store.getMany(["a", "b", "c", "d"]);
      expect(after).toEqual(before);
      expect(after.get("b")?.etag).toBe(bEtag);
      expect(after.has("d")).toBe(false);
    });

    it("lets exactly one of several writers holding the same ETag win each round", async () => {
      const writers = await harness.peers(6);
      await store.set("contended", { round: -1, writer: -1 });

      for (let round = 0; round < 8; round++) {
        const seen = await store.get("contended");
        const outcomes = await Promise.allSettled(
          writers.map((writer, i) => writer.set("contended", { round, writer: i }, { etag: seen!.etag })),
        );

        const winners = outcomes.flatMap((outcome, i) => (outcome.status === "fulfilled" ? [i] : []));
        expect(winners).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === "rejected") expect(outcome.reason).toBeInstanceOf(EtagMismatchError);
        }
        expect((await store.get("contended"))?.value).toEqual({ round, writer: winners[0] });
      }
    });

    it("loses no update when writers retry read-modify-write on ETag mismatch", async () => {
      const writers = await harness.peers(4);
      const incrementsEach = 10;
      await store.set("counter", 0);

      await Promise.all(
        writers.map(async (writer) => {
          for (let done = 0; done < incrementsEach; ) {
            const seen = await writer.get<number>("counter");
            try {
              await writer.transact([
                { operation: "upsert", key: "counter", value: seen!.value + 1, etag: seen!.etag },
              ]);
              done++;
            } catch (error) {
              if (!(error instanceof EtagMismatchError)) throw error;
            }
          }
        }),
      );

      expect((await store.get("counter"))?.value).toBe(writers.length * incrementsEach);
    });

    it("lists keys by prefix, taking glob characters in the prefix literally", async () => {
      for (const key of ["actor:A:1", "actor:A:2", "actor:B:1", "reminder:A", "glob*[1]?", "globXYZ"]) {
        await store.set(key, key);
      }

      expect((await store.keys("actor:A:")).sort()).toEqual(["actor:A:1", "actor:A:2"]);
      expect((await store.keys("actor:")).sort()).toEqual(["actor:A:1", "actor:A:2", "actor:B:1"]);
      expect(await store.keys("glob*")).toEqual(["glob*[1]?"]);
      expect(await store.keys("nothing:")).toEqual([]);
    });

    it("answers reads of a value handed to it with copies the reader may change", async () => {
      const written = { legs: [{ flight: "LH400" }] };
      await store.set("k", written);
      await store.transact([{ operation: "upsert", key: "t", value: written }]);

      for (const key of ["k", "t"]) {
        const read = await store.get<typeof written>(key);
        expect(read?.value).toEqual({ legs: [{ flight: "LH400" }] });
        expect(read?.value).not.toBe(written);
        expect(read?.value.legs).not.toBe(written.legs);
        read!.value.legs[0]!.flight = "changed by reader";
        read!.value.legs.push({ flight: "added by reader" });
        const [many] = (await store.getMany<typeof written>([key])).values();
        many!.value.legs.pop();

        expect((await store.get(key))?.value).toEqual({ legs: [{ flight: "LH400" }] });
      }
      expect(written).toEqual({ legs: [{ flight: "LH400" }] });
    });
  });
}

describeStateStore("MemoryStateStore", async () => {
  const store = new MemoryStateStore();
  return {
    store,
    peers: async (count) => Array.from({ length: count }, () => store),
    dispose: () => store.close(),
  };
});

await describeAgainstRedis(
  "RedisStateStore",
  "state-store",
  (options) => RedisStateStore.connect(options),
  describeStateStore,
);
