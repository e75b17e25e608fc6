import { randomUUID } from "node:crypto";
import { ErrorReply } from "redis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { connectRedis, type RedisClient } from "../../src/runtime/redis/redis-connection.js";
import { RedisStateStore } from "../../src/runtime/redis/state-store.js";
import { EtagMismatchError } from "../../src/runtime/state-store.js";
import { deleteKeysStartingWith, REDIS_URL, redisForTests } from "../support/redis.js";

const redis = await redisForTests("RedisStateStore round trips");
const runPrefix = `test:redis-state:${randomUUID()}:`;

describe.skipIf(!redis.reachable)("RedisStateStore: one round trip per turn of the event loop", () => {
  let client: RedisClient;
  let store: RedisStateStore;
  let prefix: string;

  async function open(): Promise<ReturnType<typeof vi.spyOn>> {
    client = await connectRedis({ url: REDIS_URL });
    prefix = `${runPrefix}${randomUUID()}:`;
    store = new RedisStateStore({ client, prefix });
    return vi.spyOn(client, "evalSha");
  }

  afterEach(async () => {
    await store.close();
    await client.close();
  });

  afterAll(() => deleteKeysStartingWith(runPrefix));

  it("sends the commits, deletes and reads of one turn as one script, each commit all or nothing", async () => {
    const scripts = await open();
    const stale = await store.set("b", "b0");
    const bEtag = await store.set("b", "b1");
    await store.set("gone", "soon");
    scripts.mockClear();

    const outcomes = await Promise.allSettled([
      store.transact([
        { operation: "upsert", key: "a", value: { n: 1 } },
        { operation: "delete", key: "gone" },
      ]),
      store.transact([
        { operation: "upsert", key: "c", value: "never" },
        { operation: "upsert", key: "b", value: "b2", etag: stale },
      ]),
      store.set("b", "b3", { etag: bEtag }),
      store.get("a"),
      store.getMany(["b", "c", "gone"]),
    ]);

    expect(scripts).toHaveBeenCalledTimes(1);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(EtagMismatchError);
    // Each request sees what the requests before it in the turn wrote.
    expect((outcomes[3] as PromiseFulfilledResult<unknown>).value).toMatchObject({ value: { n: 1 } });
    const read = (outcomes[4] as PromiseFulfilledResult<Map<string, { value: unknown }>>).value;
    expect([...read.keys()]).toEqual(["b"]);
    expect(read.get("b")?.value).toBe("b3");
  });

  it("answers each caller once Redis has its write, in the order the turns made them", async () => {
    const scripts = await open();
    for (let i = 0; i < 5; i++) await Promise.all([store.set("k", i), store.set(`other${i}`, i)]);

    expect(scripts).toHaveBeenCalledTimes(5);
    expect((await store.get("k"))?.value).toBe(4);
  });

  it("fails only the request Redis fails: the others of its turn keep what they did", async () => {
    const scripts = await open();
    await store.set("before", 0);
    // Another client made the key a string: every hash command on it raises WRONGTYPE.
    await client.set(`${prefix}v:foreign`, "not a hash");
    scripts.mockClear();

    const outcomes = await Promise.allSettled([
      store.set("first", 1),
      store.transact([
        { operation: "upsert", key: "half", value: "never" },
        { operation: "upsert", key: "foreign", value: "x" },
      ]),
      store.getMany(["before", "foreign"]),
      store.delete("before"),
      store.set("last", 2),
    ]);

    expect(scripts).toHaveBeenCalledTimes(1);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    for (const failed of [outcomes[1], outcomes[2]] as PromiseRejectedResult[]) {
      expect(failed.reason).toBeInstanceOf(ErrorReply);
      expect((failed.reason as ErrorReply).message).toMatch(/^WRONGTYPE/);
    }
    const stored = await store.getMany(["first", "half", "before", "last"]);
    expect(Object.fromEntries([...stored].map(([key, entry]) => [key, entry.value]))).toEqual({
      first: 1,
      last: 2,
    });
    // The failed transaction took no ETag either: the next write's follows the last one's.
    const lastEtag = Number(stored.get("last")?.etag);
    expect(Number(await store.set("next", 3))).toBe(lastEtag + 1);
    expect(await client.get(`${prefix}v:foreign`)).toBe("not a hash");
  });
});
