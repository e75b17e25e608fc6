import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { ErrorReply } from "redis";
import type {
  Doc,
  DocumentCollection,
  DocumentStore,
  Filter,
  FindOptions,
  IndexSpec,
  Page,
  SortSpec,
} from "../document-store.js";
import { MemoryDocumentStore } from "../memory/document-store.js";
import { storeOutageWaitMs } from "../store-unavailable-error.js";
import { keysStartingWith } from "./key-pattern.js";
import { LuaScript } from "./lua-script.js";
import { type RedisClient, type RedisConnectOptions, connectRedis } from "./redis-connection.js";
import { BATCH_BYTES, TurnBatches } from "./turn-batch.js";

export interface RedisDocumentStoreOptions extends RedisConnectOptions {
  /** Namespace of the store's keys, e.g. `"documents:"`: one writer process per prefix. */
  prefix?: string;
  /** How long the writer's lease outlives its last renewal (renewed every third of it). */
  leaseMs?: number;
}

const DEFAULT_LEASE_MS = 15_000;

/**
 * Writes a batch of document changes if this process still holds the writer's lease (taking it
 * back when it lapsed and nobody took it, as after a long pause of the event loop): { 1, then per
 * change Redis refused its 1-based position and Redis' error }, or { 0 } when another writer holds
 * the lease. Each change runs under `redis.pcall`, so one Redis refuses (WRONGTYPE on a collection
 * key some other client wrote, OOM) leaves the others of the batch written. KEYS: the lease, then
 * each change's collection hash. ARGV: lease token, lease ms, then per change its `_id` and its
 * JSON document ("" deletes it).
 */
const WRITE_SOURCE = `
local holder = redis.call("GET", KEYS[1])
if holder ~= ARGV[1] then
  if holder then return { 0 } end
  redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
end
local reply = { 1 }
for i = 2, #KEYS do
  local id = ARGV[i * 2 - 1]
  local json = ARGV[i * 2]
  local done
  if json == "" then
    done = redis.pcall("HDEL", KEYS[i], id)
  else
    done = redis.pcall("HSET", KEYS[i], id, json)
  end
  if type(done) == "table" and done.err then
    reply[#reply + 1] = i - 1
    reply[#reply + 1] = done.err
  end
end
return reply
`;
const writeScript = new LuaScript(WRITE_SOURCE);

/** Renews the lease of ARGV[1] for ARGV[2] ms unless another holds it (1 renewed, 0 not). */
const renewScript = new LuaScript(`
local holder = redis.call("GET", KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
return 1
`);

/** Hands the lease from ARGV[1] (a dead holder) to ARGV[2] for ARGV[3] ms, if ARGV[1] still holds it. */
const takeOverScript = new LuaScript(`
if redis.call("GET", KEYS[1]) ~= ARGV[1] then return 0 end
redis.call("SET", KEYS[1], ARGV[2], "PX", ARGV[3])
return 1
`);

/** Gives the lease up if ARGV[1] holds it. */
const releaseScript = new LuaScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then redis.call("DEL", KEYS[1]) end
return 1
`);

/** The lease tokens of the stores open in this process (a token names host, pid and store). */
const openHere = new Set<string>();

/**
 * Documents kept in Redis for a single node without MongoDB (STATE_STORE=redis): every query is
 * answered by a MemoryDocumentStore holding every document (its query language, indexes, unique
 * keys and cursors), and every change is written to Redis before the write resolves: one hash per
 * collection (`<prefix>c:<collection>`, field `_id`, value the JSON document, dates as
 * `{"$date": iso}`), a deleted document HDEL'd. Opening the store loads every collection back, so
 * a process killed with SIGKILL finds its documents again; indexes (unique ones too) are declared
 * by the `ensureIndex` calls of start-up, after the load, and so cover what was loaded. Unsorted
 * matches come back in load order after a restart, not in insertion order (MongoDB promises no
 * natural order either; pages are sorted and end with `_id`).
 *
 * One writer per prefix: a second process on the same prefix would answer from its own copy and
 * never see the first one's writes (several processes sharing documents is what MongoDB is for).
 * The writer holds a lease (`<prefix>writer`: host, pid and a random id), renewed every third of
 * its duration; every write checks it in the same script, so a writer that lost it to another
 * process writes nothing more (its writes reject). Opening takes the lease when it is free, at
 * once when its holder is provably dead (a pid of this host that no longer runs, as after a
 * SIGKILL and restart, or this very pid under a store this process no longer has open, as for a
 * restarted container's pid 1), and otherwise waits for it to expire: a live holder renews it, so
 * opening fails after one lease duration.
 */
export class RedisDocumentStore implements DocumentStore {
  private readonly memory = new MemoryDocumentStore((collection, id, stored) =>
    this.changed(collection, id, stored),
  );
  private readonly collections = new Map<string, RedisDocumentCollection<Doc>>();
  private readonly leaseKey: string;
  private readonly collectionPrefix: string;
  private readonly token = `${hostname()}|${process.pid}|${randomUUID()}`;
  private loading = false;
  private closed = false;
  /** Why writes are refused: the lease went to another writer, or the store is closed. */
  private failure: Error | undefined;
  /** Settles once every write issued so far is in Redis (it never rejects; see `failure`). */
  private persisted: Promise<void> = Promise.resolve();
  /** The latest JSON (undefined: deleted) of each document with a write in flight, for retries. */
  private readonly inFlight = new Map<string, InFlight>();
  /** The changes the write `persist` is running makes, with the batch each joined. */
  private making: Array<[Batch, string]> | undefined;
  /** The batch changes join until it is sent. */
  private readonly batches = new TurnBatches<Batch>(
    () => this.startBatch(),
    (batch) => batch.send(),
  );
  private renewal: NodeJS.Timeout | undefined;

  private constructor(
    private readonly client: RedisClient,
    prefix: string,
    private readonly leaseMs: number,
    private readonly onError: (error: Error) => void,
  ) {
    this.leaseKey = `${prefix}writer`;
    this.collectionPrefix = `${prefix}c:`;
  }

  /** Connects, takes the writer's lease and loads every collection; `close()` ends the connection. */
  static async open({
    prefix = "",
    leaseMs = DEFAULT_LEASE_MS,
    ...connection
  }: RedisDocumentStoreOptions): Promise<RedisDocumentStore> {
    const onError =
      connection.onError ?? ((error: Error) => console.warn(`Redis documents: ${error.message}`));
    const client = await connectRedis({ ...connection, onError });
    const store = new RedisDocumentStore(client, prefix, leaseMs, onError);
    try {
      await store.acquireLease();
      await store.load();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  collection<T extends Doc>(name: string): DocumentCollection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new RedisDocumentCollection<Doc>(this.memory.collection<Doc>(name), this);
      this.collections.set(name, collection);
    }
    return collection as unknown as DocumentCollection<T>;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    clearInterval(this.renewal);
    await this.persisted;
    this.closed = true;
    this.failure ??= new Error("The document store is closed");
    openHere.delete(this.token);
    if (this.client.isOpen) {
      await releaseScript.run(this.client, [this.leaseKey], [this.token]).catch(() => undefined);
      await this.client.close();
    }
  }

  /**
   * Runs a write of the in-memory copy, which changes it at once (synchronously), and resolves once
   * Redis holds every write issued so far; rejects when writes can no longer be persisted, and with
   * Redis' error when Redis refused one of this write's own changes (`write`).
   */
  async persist<R>(write: () => Promise<R>): Promise<R> {
    this.refuseIfFailed();
    const made: Array<[Batch, string]> = [];
    this.making = made;
    let result: Promise<R>;
    try {
      result = write();
    } finally {
      this.making = undefined;
    }
    const value = await result;
    await this.persisted;
    this.refuseIfFailed();
    for (const [batch, slot] of made) {
      const refusal = batch.refused.get(slot);
      if (refusal) throw refusal;
    }
    return value;
  }

  /** Refuses a write before it changes anything when writes can no longer be persisted. */
  private refuseIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /**
   * Persists a change of the in-memory copy. Why Redis ends equal to memory: the memory store calls
   * this synchronously at each change, in the order of the changes; the change joins the turn's
   * batch (TurnBatches), sent as one script on this store's one connection, carrying each of its
   * documents' latest JSON; and
   * Redis applies a connection's commands in the order they were sent. So every batch holds each
   * of its documents' values no older than any batch sent before it, and the last one Redis
   * applies is the document's current value, whatever the interleaving of concurrent writers. A
   * batch that fails is sent again with its documents' latest values (`inFlight`), never with the
   * older ones it carried, which a later batch may already have replaced in Redis.
   */
  private changed(collection: string, id: string, stored: Doc | undefined): void {
    if (this.loading) return;
    const key = `${this.collectionPrefix}${collection}`;
    const value = stored === undefined ? undefined : toJson(stored);
    const slot = `${key}\u0000${id}`;
    const latest = this.inFlight.get(slot) ?? { key, id, value, commands: 0 };
    latest.value = value;
    this.inFlight.set(slot, latest);
    const batch = this.batches.current();
    this.making?.push([batch, slot]);
    if (!batch.changes.has(slot)) {
      latest.commands++;
      batch.changes.set(slot, latest);
    }
    batch.bytes += value?.length ?? 0;
    if (batch.bytes >= BATCH_BYTES) this.batches.close(batch);
  }

  private startBatch(): Batch {
    const batch: Batch = { changes: new Map(), bytes: 0, send: () => undefined, refused: new Map() };
    const sent = new Promise<void>((resolve) => {
      batch.send = resolve;
    });
    const written = sent.then(() => this.write(batch));
    this.persisted = Promise.all([this.persisted, written]).then(() => undefined);
    return batch;
  }

  /**
   * A change Redis refuses for lack of memory is sent again (with the others of a batch whose
   * script failed), as memory comes back; one refused for another reason, such as a collection key
   * some other client made a string, would be refused again: it fails the writes that made it, and
   * no other. The in-memory copy keeps it, so reads show it until the document is written again or
   * the process restarts and loads what Redis holds.
   */
  private async write(batch: Batch): Promise<void> {
    const changes = [...batch.changes];
    try {
      let unwritten = changes;
      let script = "EVALSHA";
      for (let attempt = 0; ; attempt++) {
        // Closed: `failure` says so. Fenced: another writer owns the documents now.
        if (this.failure) return;
        const keys = [this.leaseKey];
        const args = [this.token, String(this.leaseMs)];
        for (const [, latest] of unwritten) {
          keys.push(latest.key);
          args.push(latest.id, latest.value ?? "");
        }
        let failed: string;
        try {
          const [held, ...refusals] = (await this.client.sendCommand([
            script,
            script === "EVALSHA" ? writeScript.sha1 : WRITE_SOURCE,
            String(keys.length),
            ...keys,
            ...args,
          ])) as unknown[];
          if (Number(held) !== 1) {
            this.fence();
            return;
          }
          const outOfMemory: typeof unwritten = [];
          for (let i = 0; i < refusals.length; i += 2) {
            const change = unwritten[Number(refusals[i]) - 1]!;
            const message = String(refusals[i + 1]);
            if (message.startsWith("OOM")) outOfMemory.push(change);
            else batch.refused.set(change[0], new ErrorReply(message));
          }
          if (outOfMemory.length === 0) return;
          unwritten = outOfMemory;
          failed = `Redis is out of memory for ${outOfMemory.length} document changes`;
        } catch (error) {
          if (error instanceof Error && error.message.startsWith("NOSCRIPT")) {
            script = "EVAL";
            continue;
          }
          failed = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        }
        this.onError(new Error(`a document write failed, retrying: ${failed}`));
        await new Promise((resolve) => setTimeout(resolve, storeOutageWaitMs(attempt + 1)));
      }
    } finally {
      for (const [slot, latest] of changes) if (--latest.commands === 0) this.inFlight.delete(slot);
    }
  }

  private fence(): void {
    if (this.failure) return;
    this.failure = new Error(
      `Another process holds the lease of these documents (${this.leaseKey}); this one writes no more`,
    );
    this.onError(this.failure);
  }

  private async acquireLease(): Promise<void> {
    const ttl = String(this.leaseMs);
    const deadline = Date.now() + this.leaseMs + 1_000;
    for (;;) {
      const taken = await this.client.set(this.leaseKey, this.token, {
        condition: "NX",
        expiration: { type: "PX", value: this.leaseMs },
      });
      if (taken === "OK") break;
      const holder = await this.client.get(this.leaseKey);
      if (
        holder !== null &&
        provablyDead(holder) &&
        Number(await takeOverScript.run(this.client, [this.leaseKey], [holder, this.token, ttl])) === 1
      ) {
        break;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `Another live process (${holder}) writes the documents under ${this.leaseKey}; one writer per prefix`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, this.leaseMs / 4)));
    }
    openHere.add(this.token);
    this.renewal = setInterval(() => void this.renewLease(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.renewal.unref();
  }

  private async renewLease(): Promise<void> {
    try {
      const renewed = await renewScript.run(this.client, [this.leaseKey], [this.token, String(this.leaseMs)]);
      if (Number(renewed) !== 1) this.fence();
    } catch (error) {
      // The next renewal tries again; writes retake a lapsed lease themselves.
      if (!this.closed) this.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private async load(): Promise<void> {
    const keys = new Set<string>();
    for await (const batch of this.client.scanIterator({
      MATCH: keysStartingWith(this.collectionPrefix),
      COUNT: 500,
    })) {
      for (const key of batch) keys.add(String(key));
    }
    this.loading = true;
    try {
      for (const key of keys) {
        const collection = this.memory.collection<Doc>(key.slice(this.collectionPrefix.length));
        const documents = await this.client.hGetAll(key);
        for (const json of Object.values(documents)) {
          await collection.insert(JSON.parse(String(json), reviveDates) as Doc);
        }
      }
    } finally {
      this.loading = false;
    }
  }
}

interface InFlight {
  key: string;
  id: string;
  value: string | undefined;
  /** Batches not yet in Redis that carry the document. */
  commands: number;
}

/** Changes sent together, each document once with its latest JSON. */
interface Batch {
  changes: Map<string, InFlight>;
  bytes: number;
  /** Lets the batch's write go: at the end of the event loop's turn, or once the batch is full. */
  send: () => void;
  /** Why Redis refused a change of the batch, by slot, once it answered. */
  refused: Map<string, Error>;
}

/** Whether the lease's holder (`host|pid|id`) is a process of this host that is gone. */
function provablyDead(holder: string): boolean {
  const [host, pidText] = holder.split("|");
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return !openHere.has(holder);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * JSON keeps a date as `{"$date": iso}` (as MongoDB's extended JSON does), so it comes back a date.
 * A replacer makes JSON.stringify several times slower, so it is used only on a document holding
 * a date, which a walk finds in a fraction of the time.
 */
function toJson(doc: Doc): string {
  return holdsDate(doc) ? JSON.stringify(doc, withDates) : JSON.stringify(doc);
}

function holdsDate(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (value instanceof Date) return true;
  if (Array.isArray(value)) return value.some(holdsDate);
  for (const key in value) if (holdsDate((value as Record<string, unknown>)[key])) return true;
  return false;
}

function withDates(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  return raw instanceof Date ? { $date: raw.toISOString() } : value;
}

function reviveDates(_key: string, value: unknown): unknown {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const { $date, ...rest } = value as { $date?: unknown };
    if (typeof $date === "string" && Object.keys(rest).length === 0) return new Date($date);
  }
  return value;
}

/** Reads from the in-memory copy; each write resolves once Redis holds what it changed. */
class RedisDocumentCollection<T extends Doc> implements DocumentCollection<T> {
  constructor(
    private readonly memory: DocumentCollection<T>,
    private readonly store: RedisDocumentStore,
  ) {}

  insert(doc: T): Promise<void> {
    return this.persisting(() => this.memory.insert(doc));
  }

  insertIfAbsent(doc: T): Promise<boolean> {
    return this.persisting(() => this.memory.insertIfAbsent(doc));
  }

  put(doc: T): Promise<void> {
    return this.persisting(() => this.memory.put(doc));
  }

  handOver(doc: T): Promise<void> {
    return this.persisting(() => this.memory.handOver(doc));
  }

  updateOne(filter: Filter, update: Record<string, unknown>): Promise<T | undefined> {
    return this.persisting(() => this.memory.updateOne(filter, update));
  }

  deleteOne(filter: Filter): Promise<boolean> {
    return this.persisting(() => this.memory.deleteOne(filter));
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.persisting(() => this.memory.deleteMany(filter));
  }

  get(id: string): Promise<T | undefined> {
    return this.memory.get(id);
  }

  peek(id: string): Promise<DeepReadonly<T> | undefined> {
    return this.memory.peek(id);
  }

  findOne(filter: Filter, options?: { sort?: SortSpec }): Promise<T | undefined> {
    return this.memory.findOne(filter, options);
  }

  peekOneFields<K extends keyof T & string>(
    filter: Filter,
    fields: readonly K[],
    options?: { sort?: SortSpec },
  ): Promise<DeepReadonly<Pick<T, K | "_id">> | undefined> {
    return this.memory.peekOneFields(filter, fields, options);
  }

  find(filter: Filter, options?: FindOptions): Promise<Page<T>> {
    return this.memory.find(filter, options);
  }

  findAll(filter: Filter, options?: { sort?: SortSpec; limit?: number }): Promise<T[]> {
    return this.memory.findAll(filter, options);
  }

  peekAll(
    filter: Filter,
    options?: { sort?: SortSpec; limit?: number },
  ): Promise<readonly DeepReadonly<T>[]> {
    return this.memory.peekAll(filter, options);
  }

  count(filter?: Filter): Promise<number> {
    return this.memory.count(filter);
  }

  ensureIndex(spec: IndexSpec): Promise<void> {
    return this.memory.ensureIndex(spec);
  }

  private persisting<R>(write: () => Promise<R>): Promise<R> {
    return this.store.persist(write);
  }
}
