import type { DeepReadonly } from "../../domain/deep-readonly.js";
import {
  type Collection,
  type Db,
  type Document,
  type Filter as MongoFilter,
  MongoClient,
  MongoClientClosedError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  type UpdateFilter,
} from "mongodb";
import { pageQuery, stableSort, toPage } from "../document-cursor.js";
import {
  type Doc,
  type DocumentCollection,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Page,
  type SortSpec,
} from "../document-store.js";
import { StoreUnavailableError } from "../store-unavailable-error.js";

const DUPLICATE_KEY = 11000;

/** Every document here has a string `_id`, never a driver-generated ObjectId. */
interface StoredDoc extends Document {
  _id: string;
}

/** Documents in MongoDB through the official driver; the same queries as MemoryDocumentStore. */
export class MongoDocumentStore implements DocumentStore {
  /** Takes a database of a client the caller keeps; `close()` then leaves the client open. */
  constructor(
    private readonly db: Db,
    private readonly ownedClient?: MongoClient,
  ) {}

  static async connect(url: string, dbName: string): Promise<MongoDocumentStore> {
    // Fields set to undefined are left out, as JSON and the memory store's copies leave them out;
    // the driver's default would store them as null.
    const client = await MongoClient.connect(url, { ignoreUndefined: true });
    return new MongoDocumentStore(client.db(dbName), client);
  }

  collection<T extends Doc>(name: string): DocumentCollection<T> {
    return new MongoDocumentCollection<T>(this.db.collection<StoredDoc>(name));
  }

  async close(): Promise<void> {
    await this.ownedClient?.close();
  }
}

class MongoDocumentCollection<T extends Doc> implements DocumentCollection<T> {
  constructor(private readonly collection: Collection<StoredDoc>) {}

  async insert(doc: T): Promise<void> {
    await this.translating(() => this.collection.insertOne(doc));
  }

  async insertIfAbsent(doc: T): Promise<boolean> {
    const { _id, ...fields } = doc;
    try {
      const result = await this.translating(() =>
        this.collection.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true }),
      );
      return result.upsertedCount === 1;
    } catch (error) {
      // Two upserts of one new _id can race to insert it; the one that lost finds it there.
      if (error instanceof DuplicateKeyError && error.key === _id) return false;
      throw error;
    }
  }

  async put(doc: T): Promise<void> {
    await this.translating(() => this.collection.replaceOne({ _id: doc._id }, doc, { upsert: true }));
  }

  /** The driver sends the document's bytes: nothing of it is kept. */
  handOver(doc: T): Promise<void> {
    return this.put(doc);
  }

  async get(id: string): Promise<T | undefined> {
    return this.asDoc(await this.translating(() => this.collection.findOne({ _id: id })));
  }

  /** The driver's answer is this reader's own: nothing to copy. */
  async peek(id: string): Promise<DeepReadonly<T> | undefined> {
    return (await this.get(id)) as DeepReadonly<T> | undefined;
  }

  async updateOne(filter: Filter, update: Record<string, unknown>): Promise<T | undefined> {
    const updated = await this.translating(() =>
      this.collection.findOneAndUpdate(mongoFilter(filter), update as UpdateFilter<StoredDoc>, {
        returnDocument: "after",
      }),
    );
    return this.asDoc(updated);
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    return (await this.translating(() => this.collection.deleteOne(mongoFilter(filter)))).deletedCount === 1;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.translating(() => this.collection.deleteMany(mongoFilter(filter)))).deletedCount;
  }

  async findOne(filter: Filter, options: { sort?: SortSpec } = {}): Promise<T | undefined> {
    const found = await this.translating(() =>
      this.collection.findOne(mongoFilter(filter), options.sort ? { sort: stableSort(options.sort) } : {}),
    );
    return this.asDoc(found);
  }

  /** The driver's answer is this reader's own: nothing to copy. */
  async peekOneFields<K extends keyof T & string>(
    filter: Filter,
    fields: readonly K[],
    options: { sort?: SortSpec } = {},
  ): Promise<DeepReadonly<Pick<T, K | "_id">> | undefined> {
    const found = await this.translating(() =>
      this.collection.findOne(mongoFilter(filter), {
        projection: Object.fromEntries(fields.map((field) => [field, 1])),
        ...(options.sort ? { sort: stableSort(options.sort) } : {}),
      }),
    );
    return found === null ? undefined : (found as unknown as DeepReadonly<Pick<T, K | "_id">>);
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Page<T>> {
    const query = pageQuery(filter, options);
    const fetched = await this.translating(() =>
      this.collection
        .find(mongoFilter(query.filter), { sort: query.sort, limit: query.fetchLimit })
        .toArray(),
    );
    return toPage(fetched as unknown as T[], query);
  }

  async findAll(filter: Filter, options: { sort?: SortSpec; limit?: number } = {}): Promise<T[]> {
    let cursor = this.collection.find(mongoFilter(filter));
    if (options.sort) cursor = cursor.sort(stableSort(options.sort));
    if (options.limit) cursor = cursor.limit(options.limit);
    return (await this.translating(() => cursor.toArray())) as unknown as T[];
  }

  /** The driver's answer is this reader's own: nothing to copy. */
  async peekAll(
    filter: Filter,
    options?: { sort?: SortSpec; limit?: number },
  ): Promise<readonly DeepReadonly<T>[]> {
    return (await this.findAll(filter, options)) as unknown as DeepReadonly<T>[];
  }

  async count(filter: Filter = {}): Promise<number> {
    return this.translating(() => this.collection.countDocuments(mongoFilter(filter)));
  }

  async ensureIndex(spec: IndexSpec): Promise<void> {
    await this.translating(() =>
      this.collection.createIndex(spec.keys, {
        unique: spec.unique ?? false,
        ...(spec.name ? { name: spec.name } : {}),
      }),
    );
  }

  private asDoc(found: Document | null): T | undefined {
    return found === null ? undefined : (found as T);
  }

  /** Runs a driver call, its failure as the port says: a duplicate key, the store unavailable. */
  private async translating<R>(call: () => Promise<R>): Promise<R> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) {
        throw new DuplicateKeyError(this.collection.collectionName, duplicateKeyOf(error));
      }
      if (unavailable(error)) throw new StoreUnavailableError({ cause: error });
      throw error;
    }
  }
}

/** Failures of reaching MongoDB (network, no server to select, client closed), not of the operation. */
function unavailable(error: unknown): boolean {
  return (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoServerClosedError ||
    error instanceof MongoClientClosedError
  );
}

function mongoFilter(filter: Filter): MongoFilter<StoredDoc> {
  return filter as MongoFilter<StoredDoc>;
}

/** The `_id` alone, as MemoryDocumentStore reports it, or the colliding fields of a unique index. */
function duplicateKeyOf(error: MongoServerError): string {
  const keyValue = error["keyValue"] as Record<string, unknown> | undefined;
  if (!keyValue) return error.message;
  const fields = Object.keys(keyValue);
  return fields.length === 1 && fields[0] === "_id" ? String(keyValue["_id"]) : JSON.stringify(keyValue);
}
