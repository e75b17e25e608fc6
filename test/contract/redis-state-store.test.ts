import { randomUUID } from "node:crypto";
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

  async function open(): Promise<ReturnType<typeof vi.spyOn>> {
    client = await connectRedis({ url: REDIS_URL });
    store = new RedisStateStore({ client, prefix: `${runPrefix}${randomUUID()}:` });
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
});
