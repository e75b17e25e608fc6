import { find } from "mingo";
import type { AnyObject } from "mingo/types";
import { type Modifier, update } from "mingo/updater";
import { resolve } from "mingo/util";
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

/**
 * Documents in Maps, queried and updated by mingo so that filters, sorts and update operators mean
 * what they mean in MongoDB. Documents are copied on the way in and out.
 */
export class MemoryDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, MemoryDocumentCollection<Doc>>();

  collection<T extends Doc>(name: string): DocumentCollection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MemoryDocumentCollection<Doc>(name);
      this.collections.set(name, collection);
    }
    return collection as unknown as DocumentCollection<T>;
  }

  async close(): Promise<void> {}
}

class MemoryDocumentCollection<T extends Doc> implements DocumentCollection<T> {
  /** In insertion order, which is the natural order MongoDB also returns unsorted matches in. */
  private readonly docs = new Map<string, T>();
  private readonly indexes = new Map<string, IndexSpec>();
  private readonly uniqueIndexes: UniqueIndex[] = [];

  constructor(private readonly name: string) {}

  async insert(doc: T): Promise<void> {
    if (this.docs.has(doc._id)) throw new DuplicateKeyError(this.name, doc._id);
    this.write(structuredClone(doc));
  }

  async put(doc: T): Promise<void> {
    this.write(structuredClone(doc));
  }

  async get(id: string): Promise<T | undefined> {
    const doc = this.docs.get(id);
    return doc && structuredClone(doc);
  }

  async updateOne(filter: Filter, changes: Record<string, unknown>): Promise<T | undefined> {
    // Copied so the stored document never shares objects with the caller's update.
    const modifier = updateOperators(structuredClone(changes));
    const current = this.matches(filter).next();
    if (!current) return undefined;
    const updated = structuredClone(current);
    update(updated as unknown as AnyObject, modifier);
    this.write(updated);
    return structuredClone(updated);
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    const doc = this.matches(filter).next();
    if (!doc) return false;
    this.remove(doc);
    return true;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const doomed = this.matches(filter).all();
    for (const doc of doomed) this.remove(doc);
    return doomed.length;
  }

  async findOne(filter: Filter, options: { sort?: SortSpec } = {}): Promise<T | undefined> {
    const found = this.findAllMatches(filter, { ...options, limit: 1 })[0];
    return found && structuredClone(found);
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Page<T>> {
    const query = pageQuery(filter, options);
    const fetched = this.matches(query.filter).sort(query.sort).limit(query.fetchLimit).all();
    return toPage(
      fetched.map((doc) => structuredClone(doc)),
      query,
    );
  }

  async findAll(filter: Filter, options: { sort?: SortSpec; limit?: number } = {}): Promise<T[]> {
    return this.findAllMatches(filter, options).map((doc) => structuredClone(doc));
  }

  async count(filter: Filter = {}): Promise<number> {
    return this.matches(filter).all().length;
  }

  async ensureIndex(spec: IndexSpec): Promise<void> {
    const name = spec.name ?? defaultIndexName(spec.keys);
    const existing = this.indexes.get(name);
    if (existing) {
      if (indexIdentity(existing) !== indexIdentity(spec)) {
        throw new Error(`Index ${name} on ${this.name} already exists with other keys or options`);
      }
      return;
    }
    if (spec.unique) {
      const index = new UniqueIndex(Object.keys(spec.keys));
      for (const doc of this.docs.values()) {
        const taken = index.conflictWith(doc);
        if (taken !== undefined) throw new DuplicateKeyError(this.name, taken);
        index.add(doc);
      }
      this.uniqueIndexes.push(index);
    }
    this.indexes.set(name, spec);
  }

  private matches(filter: Filter) {
    return find<T>(this.docs.values(), filter);
  }

  private findAllMatches(filter: Filter, { sort, limit }: { sort?: SortSpec; limit?: number }): T[] {
    let cursor = this.matches(filter);
    if (sort) cursor = cursor.sort(stableSort(sort));
    // As in MongoDB, a limit of 0 means no limit.
    if (limit) cursor = cursor.limit(limit);
    return cursor.all();
  }

  /** Stores `doc` in place of the document with its `_id`, once no unique index objects. */
  private write(doc: T): void {
    for (const index of this.uniqueIndexes) {
      const taken = index.conflictWith(doc);
      if (taken !== undefined) throw new DuplicateKeyError(this.name, taken);
    }
    const previous = this.docs.get(doc._id);
    for (const index of this.uniqueIndexes) {
      if (previous) index.remove(previous);
      index.add(doc);
    }
    this.docs.set(doc._id, doc);
  }

  private remove(doc: T): void {
    for (const index of this.uniqueIndexes) index.remove(doc);
    this.docs.delete(doc._id);
  }
}

/** Which document owns each key of a unique index; missing fields count as null, as in MongoDB. */
class UniqueIndex {
  private readonly owners = new Map<string, string>();

  constructor(private readonly paths: string[]) {}

  /** The taken key, as MongoDB describes it (`{"email":"a@b.c"}`), when another document owns it. */
  conflictWith(doc: Doc): string | undefined {
    const key = this.keyOf(doc);
    const owner = this.owners.get(key);
    return owner !== undefined && owner !== doc._id ? key : undefined;
  }

  add(doc: Doc): void {
    this.owners.set(this.keyOf(doc), doc._id);
  }

  remove(doc: Doc): void {
    const key = this.keyOf(doc);
    if (this.owners.get(key) === doc._id) this.owners.delete(key);
  }

  private keyOf(doc: Doc): string {
    return JSON.stringify(
      Object.fromEntries(
        this.paths.map((path) => [path, resolve(doc as unknown as AnyObject, path) ?? null]),
      ),
    );
  }
}

/**
 * MongoDB's updateOne only takes update operators. Without an upsert `$setOnInsert` never applies,
 * and mingo does not know it, so it is dropped here.
 */
function updateOperators(changes: Record<string, unknown>): Modifier<AnyObject> {
  const operators = Object.keys(changes);
  if (operators.length === 0 || operators.some((operator) => !operator.startsWith("$"))) {
    throw new Error("An update takes update operators ($set, $inc, ...), not a replacement document");
  }
  const { $setOnInsert: _ignored, ...modifier } = changes;
  return modifier as Modifier<AnyObject>;
}

function indexIdentity({ keys, unique }: IndexSpec): string {
  return JSON.stringify([Object.entries(keys), unique ?? false]);
}

/** The name MongoDB gives an index by default, e.g. `airport_1_createdAt_-1`. */
function defaultIndexName(keys: IndexSpec["keys"]): string {
  return Object.entries(keys)
    .map(([path, direction]) => `${path}_${direction}`)
    .join("_");
}
