import {
  EtagMismatchError,
  type ScannableStateStore,
  type StateEntry,
  type StateOperation,
} from "../state-store.js";
import { keysStartingWith } from "./key-pattern.js";
import { LuaScript } from "./lua-script.js";
import { RedisStore } from "./redis-store.js";
import { BATCH_BYTES, TurnBatches } from "./turn-batch.js";

/**
 * Runs a turn's requests, in the order they were made, inside one script: Redis runs a script
 * without interleaving other commands, so writers in several processes cannot slip in between.
 * A transaction checks every expected ETag, then applies every operation; one that mismatches
 * changes nothing and leaves the requests after it to run as they would have alone.
 *
 * KEYS[1] is the namespace's ETag sequence, then the state hashes of each request in turn. ARGV
 * holds per request its kind ("r" reads, "w" writes) and its number of keys, then for a write
 * three entries per operation: "upsert" or "delete", the expected ETag ("" for none), and the
 * JSON value. The reply holds one array per request: for a read each key's value and ETag (nil
 * when missing); for a write "ok" and each operation's new ETag ("" for deletes), or "mismatch"
 * and the 1-based position of the operation whose ETag did not match.
 */
const batchScript = new LuaScript(`
local reply = {}
local k = 2
local a = 1
while a <= #ARGV do
  local kind = ARGV[a]
  local n = tonumber(ARGV[a + 1])
  a = a + 2
  if kind == "r" then
    local found = {}
    for i = 0, n - 1 do
      local entry = redis.call("HMGET", KEYS[k + i], "v", "e")
      found[2 * i + 1] = entry[1]
      found[2 * i + 2] = entry[2]
    end
    reply[#reply + 1] = found
  else
    local mismatch = 0
    for i = 0, n - 1 do
      local expected = ARGV[a + 3 * i + 1]
      if expected ~= "" and redis.call("HGET", KEYS[k + i], "e") ~= expected then
        mismatch = i + 1
        break
      end
    end
    if mismatch > 0 then
      reply[#reply + 1] = { "mismatch", mismatch }
    else
      local written = { "ok" }
      for i = 0, n - 1 do
        if ARGV[a + 3 * i] == "upsert" then
          local etag = tostring(redis.call("INCR", KEYS[1]))
          redis.call("HSET", KEYS[k + i], "v", ARGV[a + 3 * i + 2], "e", etag)
          written[#written + 1] = etag
        else
          redis.call("DEL", KEYS[k + i])
          written[#written + 1] = ""
        end
      end
      reply[#reply + 1] = written
    end
    a = a + 3 * n
  end
  k = k + n
end
return reply
`);

/** One get, getMany or write waiting in a batch. */
interface Request {
  keys: string[];
  /** ARGV entries after the request's kind and key count (a write's operations). */
  args: string[];
  kind: "r" | "w";
  resolve: (reply: unknown[]) => void;
  reject: (error: unknown) => void;
}

interface Batch {
  requests: Request[];
  bytes: number;
}

/**
 * State entries as hashes `{v: JSON value, e: ETag}`. ETags come from one counter per namespace, so
 * a key deleted and written again never gets back an ETag a caller may still hold.
 *
 * The reads and writes of one turn of the event loop, of every caller, go to Redis together as one
 * script (TurnBatches): a turn in which many actors commit costs one round trip, not one per
 * commit, read or outbox deletion. Each request still resolves only once Redis has answered it,
 * and each transaction is still all or nothing.
 */
export class RedisStateStore extends RedisStore implements ScannableStateStore {
  private readonly valuePrefix = `${this.prefix}v:`;
  private readonly etagSequenceKey = `${this.prefix}etag`;
  private readonly batches = new TurnBatches<Batch>(
    () => ({ requests: [], bytes: 0 }),
    (batch) => void this.send(batch),
  );

  async get<T = unknown>(key: string): Promise<StateEntry<T> | undefined> {
    return (await this.getMany<T>([key])).get(key);
  }

  async getMany<T = unknown>(keys: string[]): Promise<Map<string, StateEntry<T>>> {
    const entries = new Map<string, StateEntry<T>>();
    if (keys.length === 0) return entries;
    const found = await this.request(
      "r",
      keys.map((key) => this.valuePrefix + key),
      [],
    );
    keys.forEach((key, i) => {
      const entry = toEntry<T>(key, found[2 * i], found[2 * i + 1]);
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
    const keys = operations.map((op) => this.valuePrefix + op.key);
    const args = operations.flatMap((op) => [
      op.operation,
      op.etag ?? "",
      op.operation === "upsert" ? JSON.stringify(op.value ?? null) : "",
    ]);
    const [status, ...rest] = await this.request("w", keys, args);
    if (status === "mismatch") throw new EtagMismatchError(operations[Number(rest[0]) - 1]!.key);
    return rest.map(String);
  }

  /** Adds a request to this turn's batch; resolves with its part of the script's reply. */
  private request(kind: Request["kind"], keys: string[], args: string[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const batch = this.batches.current();
      batch.requests.push({ kind, keys, args, resolve, reject });
      for (const key of keys) batch.bytes += key.length;
      for (const arg of args) batch.bytes += arg.length;
      if (batch.bytes >= BATCH_BYTES) this.batches.close(batch);
    });
  }

  private async send({ requests }: Batch): Promise<void> {
    const keys = [this.etagSequenceKey];
    const args: string[] = [];
    for (const request of requests) {
      keys.push(...request.keys);
      args.push(request.kind, String(request.keys.length), ...request.args);
    }
    let replies: unknown[];
    try {
      replies = (await batchScript.run(this.client, keys, args)) as unknown[];
    } catch (error) {
      for (const request of requests) request.reject(error);
      return;
    }
    requests.forEach((request, i) => {
      request.resolve(replies[i] as unknown[]);
    });
  }
}

function toEntry<T>(key: string, value: unknown, etag: unknown): StateEntry<T> | undefined {
  if (value === null || value === undefined || etag === null || etag === undefined) return undefined;
  return { key, value: JSON.parse(String(value)) as T, etag: String(etag) };
}
