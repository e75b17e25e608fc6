import { ErrorReply } from "redis";
import {
  EtagMismatchError,
  type ScannableStateStore,
  type StateEntry,
  type StateOperation,
} from "../state-store.js";
import { keysStartingWith } from "./key-pattern.js";
import { LuaScript } from "./lua-script.js";
import { redisFailure } from "./redis-connection.js";
import { RedisStore } from "./redis-store.js";
import { BATCH_BYTES, TurnBatches } from "./turn-batch.js";

/**
 * Runs a turn's requests, in the order they were made, inside one script: Redis runs a script
 * without interleaving other commands, so writers in several processes cannot slip in between.
 *
 * Each request has an outcome of its own: its commands run under `redis.pcall`, so a command that
 * fails (WRONGTYPE on a key some other client wrote, OOM) fails that request alone, with Redis'
 * error, and the requests before and after it keep what they did. Redis does not roll back a
 * script, so failing the whole batch would tell callers whose writes committed that they had not.
 *
 * A transaction checks before it writes: an HGET of every key it touches (a key that is not a hash
 * fails there, with Redis' WRONGTYPE) against its expected ETag, then one INCRBY for all its new
 * ETags; a mismatch or error there changes nothing. (A lone write without an ETag skips its HGET:
 * it has nothing to leave half done.) Its HSETs and DELs then act on hashes or absent
 * keys, which fail only for lack of memory, and past maxmemory Redis refuses a script's writes only
 * until one has run (it does not stop a script half-way; checked on Redis 7.0): the INCRBY comes
 * first, so it is refused and nothing is written, or it runs and so do the rest. What could still
 * half apply a transaction is a failure these commands do not have today; it would reject the
 * request and leave its caller as unsure as a lost connection does.
 *
 * KEYS[1] is the namespace's ETag sequence, then the state hashes of each request in turn. ARGV
 * holds per request its kind ("r" reads, "w" writes) and its number of keys, then for a write
 * three entries per operation: "upsert" or "delete", the expected ETag ("" for none), and the
 * JSON value. The reply holds one array per request: "error" and Redis' message; for a read "ok"
 * then each key's value and ETag (nil when missing); for a write "ok" and each operation's new
 * ETag ("" for deletes), or "mismatch" and the 1-based position of the operation whose ETag did
 * not match.
 */
const batchScript = new LuaScript(`
local function failed(result)
  return type(result) == "table" and result.err ~= nil
end

local function read(k, n)
  local found = { "ok" }
  for i = 0, n - 1 do
    local entry = redis.pcall("HMGET", KEYS[k + i], "v", "e")
    if failed(entry) then return { "error", entry.err } end
    found[2 * i + 2] = entry[1]
    found[2 * i + 3] = entry[2]
  end
  return found
end

local function write(k, n, a)
  local upserts = 0
  for i = 0, n - 1 do
    local expected = ARGV[a + 3 * i + 1]
    if expected ~= "" or n > 1 then
      local current = redis.pcall("HGET", KEYS[k + i], "e")
      if failed(current) then return { "error", current.err } end
      if expected ~= "" and current ~= expected then return { "mismatch", i + 1 } end
    end
    if ARGV[a + 3 * i] == "upsert" then upserts = upserts + 1 end
  end
  local etag = 0
  if upserts > 0 then
    local last = redis.pcall("INCRBY", KEYS[1], upserts)
    if failed(last) then return { "error", last.err } end
    etag = last - upserts
  end
  local written = { "ok" }
  for i = 0, n - 1 do
    local done
    if ARGV[a + 3 * i] == "upsert" then
      etag = etag + 1
      done = redis.pcall("HSET", KEYS[k + i], "v", ARGV[a + 3 * i + 2], "e", tostring(etag))
      written[#written + 1] = tostring(etag)
    else
      done = redis.pcall("DEL", KEYS[k + i])
      written[#written + 1] = ""
    end
    if failed(done) then return { "error", done.err } end
  end
  return written
end

local reply = {}
local k = 2
local a = 1
while a <= #ARGV do
  local kind = ARGV[a]
  local n = tonumber(ARGV[a + 1])
  a = a + 2
  if kind == "r" then
    reply[#reply + 1] = read(k, n)
  else
    reply[#reply + 1] = write(k, n, a)
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
 * and each transaction is still all or nothing (batchScript says how far Redis allows). A request
 * that Redis fails rejects alone. A batch whose connection is lost after it was sent rejects
 * whole, and each of its requests may or may not have been applied, as for a single command.
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
    const [, ...found] = await this.request(
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
    return this.command(async (client) => {
      const found = new Set<string>();
      // SCAN may return a key more than once while the keyspace is being resized.
      for await (const batch of client.scanIterator({
        MATCH: keysStartingWith(this.valuePrefix + prefix),
        COUNT: 500,
      })) {
        for (const key of batch) found.add(String(key).slice(this.valuePrefix.length));
      }
      return [...found];
    });
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

  /**
   * Adds a request to this turn's batch; resolves with its part of the script's reply, or rejects
   * with the error Redis failed it with, as the request's own command would have.
   */
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
      const [status, ...rest] = replies[i] as unknown[];
      if (status === "error") request.reject(redisFailure(new ErrorReply(String(rest[0]))));
      else request.resolve([status, ...rest]);
    });
  }
}

function toEntry<T>(key: string, value: unknown, etag: unknown): StateEntry<T> | undefined {
  if (value === null || value === undefined || etag === null || etag === undefined) return undefined;
  return { key, value: JSON.parse(String(value)) as T, etag: String(etag) };
}
