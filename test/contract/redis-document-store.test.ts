import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { createClient, ErrorReply } from "redis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type Doc, DuplicateKeyError } from "../../src/runtime/document-store.js";
import { RedisDocumentStore } from "../../src/runtime/redis/document-store.js";
import { deleteKeysStartingWith, REDIS_URL, redisForTests } from "../support/redis.js";

interface CaseDoc extends Doc {
  airport: string;
  email?: string;
  count?: number;
  openedAt?: Date;
  tags?: string[];
}

const redis = await redisForTests("RedisDocumentStore durability");
const runPrefix = `test:redis-documents:${randomUUID()}:`;

describe.skipIf(!redis.reachable)("RedisDocumentStore: what Redis keeps", () => {
  const open: RedisDocumentStore[] = [];
  let prefix = "";
  let raw: ReturnType<typeof createClient>;

  async function openStore(leaseMs?: number): Promise<RedisDocumentStore> {
    const store = await RedisDocumentStore.open({ url: REDIS_URL, prefix, ...(leaseMs ? { leaseMs } : {}) });
    open.push(store);
    return store;
  }

  /** The collection's documents as Redis holds them, by `_id`. */
  async function persisted(collection: string): Promise<Record<string, unknown>> {
    const hash = await raw.hGetAll(`${prefix}c:${collection}`);
    return Object.fromEntries(Object.entries(hash).map(([id, json]) => [id, JSON.parse(String(json))]));
  }

  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
    await raw?.close();
  });

  afterAll(() => deleteKeysStartingWith(runPrefix));

  async function fresh(): Promise<void> {
    prefix = `${runPrefix}${randomUUID()}:`;
    raw = createClient({ url: REDIS_URL });
    await raw.connect();
  }

  it("gives a new store on the same prefix every document, page by page, with its unique keys", async () => {
    await fresh();
    const first = await openStore();
    const cases = first.collection<CaseDoc>("cases");
    await cases.ensureIndex({ keys: { email: 1 }, unique: true, name: "email_unique" });
    for (let i = 0; i < 30; i++) {
      await cases.insert({
        _id: `c${String(i).padStart(2, "0")}`,
        airport: i % 2 ? "FRA" : "MUC",
        email: `p${i}@x`,
      });
    }
    await cases.updateOne({ _id: "c03" }, { $inc: { count: 2 }, $push: { tags: "vip" } });
    await cases.put({
      _id: "c04",
      airport: "CDG",
      email: "p4@x",
      openedAt: new Date("2026-03-01T10:00:00Z"),
    });
    await cases.deleteOne({ _id: "c05" });
    await cases.deleteMany({ airport: "MUC", _id: { $gte: "c20" } });
    await first.collection<Doc>("audit").insert({ _id: "a1" });
    const walk = async (store: RedisDocumentStore) => {
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await store.collection<CaseDoc>("cases").find({ airport: "FRA" }, { limit: 4, cursor });
        pages.push(page.items.map((doc) => doc._id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return pages;
    };
    const before = await cases.findAll({}, { sort: { _id: 1 } });
    const pagesBefore = await walk(first);
    const cursorBefore = (await cases.find({ airport: "FRA" }, { limit: 4 })).nextCursor!;
    await first.close();

    const second = await openStore();
    const reloaded = second.collection<CaseDoc>("cases");
    await reloaded.ensureIndex({ keys: { email: 1 }, unique: true, name: "email_unique" });
    expect(await reloaded.findAll({}, { sort: { _id: 1 } })).toEqual(before);
    expect((await reloaded.get("c04"))?.openedAt).toEqual(new Date("2026-03-01T10:00:00Z"));
    expect(await reloaded.get("c05")).toBeUndefined();
    expect(await reloaded.get("c03")).toMatchObject({ count: 2, tags: ["vip"] });
    expect(await second.collection<Doc>("audit").count()).toBe(1);
    expect(await walk(second)).toEqual(pagesBefore);
    // A cursor handed out before the restart still pages on.
    expect((await reloaded.find({ airport: "FRA" }, { limit: 4, cursor: cursorBefore })).items[0]?._id).toBe(
      pagesBefore[1]![0],
    );
    await expect(reloaded.insert({ _id: "other", airport: "FRA", email: "p7@x" })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
    await expect(reloaded.put({ _id: "c08", airport: "FRA", email: "p9@x" })).rejects.toBeInstanceOf(
      DuplicateKeyError,
    );
  });

  it("leaves Redis equal to memory after interleaved writes to the same documents, retries included", async () => {
    await fresh();
    const store = await openStore();
    const cases = store.collection<CaseDoc>("cases");
    await cases.insert({ _id: "warm", airport: "FRA" });
    // The server forgets the write script: every command below fails once (NOSCRIPT) and is sent
    // again, after later writes to the same documents were sent.
    await raw.scriptFlush();
    const writes: Promise<unknown>[] = [];
    for (let round = 0; round < 40; round++) {
      const id = `d${round % 3}`;
      writes.push(
        cases.put({ _id: id, airport: "FRA", count: round }),
        cases.updateOne({ _id: id }, { $inc: { count: 1000 } }),
        round % 7 === 0 ? cases.deleteOne({ _id: id }) : cases.insertIfAbsent({ _id: id, airport: "MUC" }),
        cases.updateOne({ _id: id }, { $push: { tags: `r${round}` } }),
      );
      // Writes of several turns of the event loop go in several batches, in flight together.
      if (round % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);

    const inMemory = Object.fromEntries((await cases.findAll({})).map((doc) => [doc._id, doc]));
    expect(await persisted("cases")).toEqual(inMemory);
    await store.close();
    const reopened = await openStore();
    expect(
      Object.fromEntries((await reopened.collection<CaseDoc>("cases").findAll({})).map((d) => [d._id, d])),
    ).toEqual(inMemory);
  });

  it("refuses a second live writer on the same prefix", async () => {
    await fresh();
    await openStore(400);
    await expect(openStore(400)).rejects.toThrow(/Another live process/);
  });

  it("takes the lease at once from a dead process of this host, and from another host once it expires", async () => {
    await fresh();
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid;
    await raw.set(`${prefix}writer`, `${hostname()}|${dead}|gone`, {
      expiration: { type: "PX", value: 60_000 },
    });
    const began = Date.now();
    await (await openStore()).close();
    expect(Date.now() - began).toBeLessThan(5_000);

    await raw.set(`${prefix}writer`, "elsewhere|1|x", { expiration: { type: "PX", value: 300 } });
    const store = await openStore(1_000);
    await store.collection<CaseDoc>("cases").insert({ _id: "c1", airport: "FRA" });
    expect(await persisted("cases")).toEqual({ c1: { _id: "c1", airport: "FRA" } });
  });

  it("writes no more once another process took its lease", async () => {
    await fresh();
    const store = await openStore();
    const cases = store.collection<CaseDoc>("cases");
    await cases.insert({ _id: "c1", airport: "FRA" });
    await raw.set(`${prefix}writer`, "elsewhere|1|usurper");

    await expect(cases.insert({ _id: "c2", airport: "FRA" })).rejects.toThrow(
      /Another process holds the lease/,
    );
    await expect(cases.insert({ _id: "c3", airport: "FRA" })).rejects.toThrow(
      /Another process holds the lease/,
    );
    expect(await persisted("cases")).toEqual({ c1: { _id: "c1", airport: "FRA" } });
  });

  it("fails only the write whose change Redis refused: the others of its turn are written", async () => {
    await fresh();
    const store = await openStore();
    const cases = store.collection<CaseDoc>("cases");
    // Another client made the collection's key a string: HSET on it raises WRONGTYPE.
    await raw.set(`${prefix}c:broken`, "not a hash");

    const outcomes = await Promise.allSettled([
      cases.insert({ _id: "c1", airport: "FRA" }),
      store.collection<CaseDoc>("broken").insert({ _id: "b1", airport: "MUC" }),
      cases.put({ _id: "c2", airport: "CDG" }),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const refused = (outcomes[1] as PromiseRejectedResult).reason as Error;
    expect(refused).toBeInstanceOf(ErrorReply);
    expect(refused.message).toMatch(/^WRONGTYPE/);
    expect(await persisted("cases")).toEqual({
      c1: { _id: "c1", airport: "FRA" },
      c2: { _id: "c2", airport: "CDG" },
    });
    // The store goes on writing.
    await cases.updateOne({ _id: "c1" }, { $set: { count: 1 } });
    expect((await persisted("cases")).c1).toEqual({ _id: "c1", airport: "FRA", count: 1 });
  });
});
