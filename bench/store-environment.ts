import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { keysStartingWith } from "../src/runtime/redis/key-pattern.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The state store a bench runs the platform on, as its environment names it (STATE_STORE, and
 * REDIS_URL for `redis`): `STATE_STORE=redis npm run bench:intake` measures the durable node. Each
 * platform gets key prefixes of its own, for documents and for state: the Redis document store
 * loads every document under its prefix at start and takes one writer per prefix
 * (src/runtime/redis/document-store.ts), and the embedded runtime takes up every workflow,
 * reminder and outbox entry left under its state prefix, so a platform sharing them would also
 * work off what earlier runs (or platforms of the same run) left unfinished. `dropDocuments`
 * deletes both afterwards.
 */
export function storeEnvironment(store = process.env.STATE_STORE): Record<string, string> {
  return {
    ...(store ? { STATE_STORE: store } : {}),
    REDIS_URL,
    REDIS_DOCUMENT_PREFIX: `bench:documents:${randomUUID()}:`,
    REDIS_STATE_PREFIX: `bench:state:${randomUUID()}:`,
  };
}

/** Deletes the documents and state a platform started with `environment` left in Redis. */
export async function dropDocuments(environment: Record<string, string>): Promise<void> {
  if (environment.STATE_STORE !== "redis") return;
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  for (const prefix of [environment.REDIS_DOCUMENT_PREFIX, environment.REDIS_STATE_PREFIX]) {
    if (!prefix) continue;
    for await (const keys of client.scanIterator({ MATCH: keysStartingWith(prefix), COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  }
  await client.close();
}
