import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { afterAll, describe, it } from "vitest";
import type { StoreHarness } from "./store-harness.js";

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

export interface RedisProbe {
  reachable: boolean;
  reason?: string;
}

async function probeRedis(url: string): Promise<RedisProbe> {
  const client = createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  // The failed connect below reports the error; the event would only repeat it.
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    await client.close();
    return { reachable: true };
  } catch (error) {
    client.destroy();
    return { reachable: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Whether Redis-backed tests can run. Unreachable Redis skips them with a printed reason, except
 * under REQUIRE_REDIS=1 (CI), where a failing test stands in for them.
 */
export async function redisForTests(suite: string): Promise<RedisProbe> {
  const probe = await probeRedis(REDIS_URL);
  if (!probe.reachable) {
    if (process.env.REQUIRE_REDIS === "1") {
      describe(suite, () => {
        it("reaches Redis, which REQUIRE_REDIS=1 demands", () => {
          throw new Error(`Redis at ${REDIS_URL} is unreachable: ${probe.reason}`);
        });
      });
    } else {
      console.warn(`${suite} tests skipped: Redis at ${REDIS_URL} is unreachable (${probe.reason})`);
    }
  }
  return probe;
}

export async function deleteKeysStartingWith(prefix: string, url = REDIS_URL): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) await client.del(keys);
  }
  await client.close();
}

/**
 * Runs a store contract "against Redis", skipped or failed as `redisForTests` says when Redis is
 * unreachable. The stores of each test share a key prefix of their own; the run's keys are deleted
 * at the end.
 */
export async function describeAgainstRedis<S extends { close(): Promise<void> }>(
  store: string,
  keys: string,
  connect: (options: { url: string; prefix: string }) => Promise<S>,
  describeContract: (name: string, openHarness: () => Promise<StoreHarness<S>>) => void,
): Promise<void> {
  const redis = await redisForTests(`${store} contract`);
  const runPrefix = `test:${keys}:${randomUUID()}:`;
  describe.skipIf(!redis.reachable)("against Redis", () => {
    let testNumber = 0;

    afterAll(() => deleteKeysStartingWith(runPrefix));

    describeContract(store, async () => {
      const prefix = `${runPrefix}${testNumber++}:`;
      const open = () => connect({ url: REDIS_URL, prefix });
      const stores = [await open()];
      return {
        store: stores[0]!,
        peers: async (count) => {
          const peers = await Promise.all(Array.from({ length: count }, open));
          stores.push(...peers);
          return peers;
        },
        dispose: async () => {
          await Promise.all(stores.map((each) => each.close()));
        },
      };
    });
  });
}
