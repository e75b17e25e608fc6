import {
  EtagMismatchError,
  type ScannableStateStore,
  type StateEntry,
  type StateOperation,
} from "../state-store.js";
import { keysStartingWith } from "./key-pattern.js";
import { LuaScript } from "./lua-script.js";
import { RedisStore } from "./redis-store.js";

/**
 * Checks every expected ETag, then applies every operation, inside one script: Redis runs a script
 * without interleaving other commands, so writers in several processes cannot slip in between.
 *
 * KEYS[1] is the namespace's ETag sequence, KEYS[2..] one state hash per operation.
 * ARGV holds three entries per operation: "upsert" or "delete", the expected ETag ("" for none),
 * and the JSON value.
 */
const transactScript = new LuaScript(`
for i = 2, #KEYS do
  local expected = ARGV[(i - 2) * 3 + 2]
  if expected ~= "" and redis.call("HGET", KEYS[i], "e") ~= expected then
    return { "mismatch", i - 1 }
  end
end
local reply = { "ok" }
for i = 2, #KEYS do
  local base = (i - 2) * 3
  if ARGV[base + 1] == "upsert" then
    local etag = tostring(redis.call("INCR", KEYS[1]))
    redis.call("HSET", KEYS[i], "v", ARGV[base + 3], "e", etag)
    reply[#reply + 1] = etag
  else
    redis.call("DEL", KEYS[i])
    reply[#reply + 1] = ""
  end
end
return reply
`);

/**
 * State entries as hashes `{v: JSON value, e: ETag}`. ETags come from one counter per namespace, so
 * a key deleted and written again never gets back an ETag a caller may still hold.
 */
export class RedisStateStore extends RedisStore implements ScannableStateStore {
  private readonly valuePrefix = `${this.prefix}v:`;
  private readonly etagSequenceKey = `${this.prefix}etag`;

  async get<T = unknown>(key: string): Promise<StateEntry<T> | undefined> {
    const [value, etag] = await this.client.hmGet(this.valuePrefix + key, ["v", "e"]);
    return toEntry<T>(key, value, etag);
  }

  async getMany<T = unknown>(keys: string[]): Promise<Map<string, StateEntry<T>>> {
    const replies = await Promise.all(
      keys.map((key) => this.client.hmGet(this.valuePrefix + key, ["v", "e"])),
    );
    const entries = new Map<string, StateEntry<T>>();
    keys.forEach((key, i) => {
      const [value, etag] = replies[i] ?? [];
      const entry = toEntry<T>(key, value, etag);
      if (entry) entries.set(key, entry);
    });
    return entries;
  }

  async set(key: string, value: unknown, options: { etag?: string } = {}): Promise<string> {
    const [etag] = await this.apply([{ operation: "upsert", key, value, etag: options.etag }]);
    return etag!;
  }

  async delete(key: string, options: { etag?: string } = {}): Promise<void> {
    await this.apply([{ operation: "delete", key, etag: options.etag }]);
  }

  async transact(operations: StateOperation[]): Promise<void> {
    if (operations.length > 0) await this.apply(operations);
  }

  async keys(prefix: string): Promise<string[]> {
    const found = new Set<string>();
    // SCAN may return a key more than once while the keyspace is being resized.
    for await (const batch of this.client.scanIterator({
      MATCH: keysStartingWith(this.valuePrefix + prefix),
      COUNT: 500,
    })) {
      for (const key of batch) found.add(String(key).slice(this.valuePrefix.length));
    }
    return [...found];
  }

  /** Returns the new ETag of each operation, "" for deletes. */
  private async apply(operations: StateOperation[]): Promise<string[]> {
    const keys = [this.etagSequenceKey, ...operations.map((op) => this.valuePrefix + op.key)];
    const args = operations.flatMap((op) => [
      op.operation,
      op.etag ?? "",
      op.operation === "upsert" ? JSON.stringify(op.value ?? null) : "",
    ]);
    const [status, ...rest] = (await transactScript.run(this.client, keys, args)) as unknown[];
    if (status === "mismatch") throw new EtagMismatchError(operations[Number(rest[0]) - 1]!.key);
    return rest.map(String);
  }
}

function toEntry<T>(key: string, value: unknown, etag: unknown): StateEntry<T> | undefined {
  if (value === null || value === undefined || etag === null || etag === undefined) return undefined;
  return { key, value: JSON.parse(String(value)) as T, etag: String(etag) };
}
