import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { keysStartingWith } from "../src/runtime/redis/key-pattern.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The state store a bench runs the platform on, as its environment names it (STATE_STORE, and
 * REDIS_URL for `redis`): `STATE_STORE=redis npm run bench:intake` measures the durable node. Each
 * platform gets a document key prefix of its own: the Redis document store loads every document
 * under its prefix at start and takes one writer per prefix (src/runtime/redis/document-store.ts),
 * so runs, and platforms of one run, must not share one. `dropDocuments` deletes them afterwards.
 */
export function storeEnvironment(store = process.env.STATE_STORE): Record<string, string> {
  return {
    ...(store ? { STATE_STORE: store } : {}),
    REDIS_URL,
    REDIS_DOCUMENT_PREFIX: `bench:documents:${randomUUID()}:`,
  };
}

/** Deletes the documents a platform started with `environment` left in Redis. */
export async function dropDocuments(environment: Record<string, string>): Promise<void> {
  const prefix = environment.REDIS_DOCUMENT_PREFIX;
  if (environment.STATE_STORE !== "redis" || !prefix) return;
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: keysStartingWith(prefix), COUNT: 500 })) {
    if (keys.length > 0) await client.del(keys);
  }
  await client.close();
}
