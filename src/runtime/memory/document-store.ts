import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { copyOf } from "../plain-copy.js";
import { Query } from "mingo";
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
import { EqualityIndex, type IndexLookup, type Stored } from "./equality-index.js";

/**
 * Documents in Maps, queried and updated by mingo so that filters, sorts and update operators mean
 * what they mean in MongoDB. Documents are copied on the way in and out, but for a peek: a stored
 * document is never changed in place (a write stores a new one), so a reader that only looks at it
 * may hold it as it is. Lookups by `_id` (alone,
 * `$eq` or `$in`) read the Map instead of testing every document, and equality on the leading
 * fields of an index declared with `ensureIndex` reads that index, so such queries cost what they
 * match however large a collection grows (the audit trail gains an entry on every partner read,
 * the sub-case index 150 documents per disruption of a full flight).
 */
export class MemoryDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, MemoryDocumentCollection<Doc>>();

  /**
   * `onChange` hears of every document stored or removed, synchronously and in the order the
   * changes happen, with the stored document (undefined once removed), which it must not modify:
   * a store that keeps a durable copy of these documents writes it from there.
   */
  constructor(private readonly onChange?: DocumentChangeListener) {}

  collection<T extends Doc>(name: string): DocumentCollection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MemoryDocumentCollection<Doc>(name, this.onChange);
      this.collections.set(name, collection);
    }
    return collection as unknown as DocumentCollection<T>;
  }

  async close(): Promise<void> {}
}

export type DocumentChangeListener = (collection: string, id: string, stored: Doc | undefined) => void;

/** Matches everything: sorts and limits an array of matches the way MongoDB orders them. */
const EVERYTHING = new Query({});

class MemoryDocumentCollection<T extends Doc> implements DocumentCollection<T> {
  /**
   * In insertion order, which is the natural order MongoDB also returns unsorted matches in;
   * `position` keeps that order for matches found by `_id` rather than by a walk over the map.
   */
  private readonly docs = new Map<string, Stored<T>>();
  private nextPosition = 0;
  private readonly indexes = new Map<string, IndexSpec>();
  private readonly uniqueIndexes: UniqueIndex[] = [];
  private readonly equalityIndexes: EqualityIndex<T>[] = [];

  constructor(
    private readonly name: string,
    private readonly onChange: DocumentChangeListener | undefined,
  ) {}

  async insert(doc: T): Promise<void> {
    if (this.docs.has(doc._id)) throw new DuplicateKeyError(this.name, doc._id);
    this.write(copyOf(doc), undefined);
  }

  async insertIfAbsent(doc: T): Promise<boolean> {
    if (this.docs.has(doc._id)) return false;
    this.write(copyOf(doc), undefined);
    return true;
  }

  async put(doc: T): Promise<void> {
    this.write(copyOf(doc), this.docs.get(doc._id));
  }

  async handOver(doc: T): Promise<void> {
    this.write(doc, this.docs.get(doc._id));
  }

  async get(id: string): Promise<T | undefined> {
    const stored = this.docs.get(id);
    return stored && copyOf(stored.doc);
  }

  async peek(id: string): Promise<DeepReadonly<T> | undefined> {
    return this.docs.get(id)?.doc as DeepReadonly<T> | undefined;
  }

  async updateOne(filter: Filter, changes: Record<string, unknown>): Promise<T | undefined> {
    // Copied so the stored document never shares objects with the caller's update.
    const modifier = updateOperators(copyOf(changes));
    const [current] = this.select(filter, { limit: 1 });
    if (!current) return undefined;
    const updated = copyOf(current);
    const fields = topLevelFieldsSet(modifier);
    // The modifier is this store's own copy, so its values can go in as they are.
    if (fields) Object.assign(updated, fields);
    else update(updated as unknown as AnyObject, modifier);
    this.write(updated, this.docs.get(updated._id));
    return copyOf(updated);
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    const [doc] = this.select(filter, { limit: 1 });
    if (!doc) return false;
    this.remove(doc);
    return true;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const doomed = this.select(filter);
    for (const doc of doomed) this.remove(doc);
    return doomed.length;
  }

  async findOne(filter: Filter, { sort }: { sort?: SortSpec } = {}): Promise<T | undefined> {
    const [found] = this.select(filter, { sort, limit: 1 });
    return found && copyOf(found);
  }

  async peekOneFields<K extends keyof T & string>(
    filter: Filter,
    fields: readonly K[],
    { sort }: { sort?: SortSpec } = {},
  ): Promise<DeepReadonly<Pick<T, K | "_id">> | undefined> {
    const [found] = this.select(filter, { sort, limit: 1 });
    if (!found) return undefined;
    const part = { _id: found._id } as Pick<T, K | "_id">;
    for (const field of fields) if (found[field] !== undefined) part[field] = found[field];
    return part as DeepReadonly<Pick<T, K | "_id">>;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<Page<T>> {
    const query = pageQuery(filter, options);
    const fetched = this.select(query.filter, { sort: query.sort, limit: query.fetchLimit });
    return toPage(
      fetched.map((doc) => copyOf(doc)),
      query,
    );
  }

  async findAll(filter: Filter, options: { sort?: SortSpec; limit?: number } = {}): Promise<T[]> {
    return this.select(filter, options).map((doc) => copyOf(doc));
  }

  async peekAll(
    filter: Filter,
    options: { sort?: SortSpec; limit?: number } = {},
  ): Promise<readonly DeepReadonly<T>[]> {
    return this.select(filter, options) as DeepReadonly<T>[];
  }

  async count(filter: Filter = {}): Promise<number> {
    return Object.keys(filter).length === 0 ? this.docs.size : this.select(filter).length;
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
      for (const { doc } of this.docs.values()) {
        const taken = index.conflictWith(doc);
        if (taken !== undefined) throw new DuplicateKeyError(this.name, taken);
        index.add(doc);
      }
      this.uniqueIndexes.push(index);
    }
    const paths = Object.keys(spec.keys);
    // `_id` has its own way in; another index starting with it would never be asked.
    if (paths[0] !== "_id") {
      const index = new EqualityIndex<T>(paths);
      for (const stored of this.docs.values()) index.add(stored);
      this.equalityIndexes.push(index);
    }
    this.indexes.set(name, spec);
  }

  /**
   * The stored documents matching `filter`, sorted when asked (`_id` last, so no two tie), else in
   * natural order; as in MongoDB, a limit of 0 means no limit. A filter naming `_id` reads only
   * the documents it names instead of testing every one.
   */
  private select(filter: Filter, { sort, limit }: { sort?: SortSpec; limit?: number } = {}): T[] {
    const { candidates, rest } = this.candidates(filter);
    const testsAll = Object.keys(rest).length === 0;
    let matches: ((doc: AnyObject) => boolean) | undefined;
    const matched: T[] = [];
    for (const { doc } of candidates) {
      if (!testsAll) {
        // Compiled at the first candidate: a filter nothing can match costs no compilation.
        matches ??= matcherFor(rest);
        if (!matches(doc as unknown as AnyObject)) continue;
      }
      matched.push(doc);
      // Unsorted, the first matches in natural order are the answer.
      if (!sort && limit && matched.length === limit) return matched;
    }
    if (!sort || matched.length < 2) return matched.slice(0, limit || undefined);
    const sorted = EVERYTHING.find<T>(matched as unknown as AnyObject[]).sort(stableSort(sort));
    return (limit ? sorted.limit(limit) : sorted).all();
  }

  /**
   * The documents `filter` can match, in natural order, and what of the filter is left to test on
   * them: those whose `_id` it names by value, `$eq` or `$in`; else those the narrowest index
   * offers for it, when that is fewer than all (and nothing left to test when the index answers
   * the whole filter); else all of them and all of it.
   */
  private candidates(filter: Filter): { candidates: Iterable<Stored<T>>; rest: Filter } {
    const ids = idsNamedBy(filter._id);
    if (!ids) {
      const lookup = this.narrowestLookup(filter);
      if (!lookup || lookup.size >= this.docs.size) return { candidates: this.docs.values(), rest: filter };
      const { keyed, unkeyed } = lookup.gather();
      if (lookup.covers && unkeyed.length === 0) return { candidates: inNaturalOrder(keyed), rest: {} };
      return { candidates: inNaturalOrder([...keyed, ...unkeyed]), rest: filter };
    }
    // A rest pattern copies member by member, slowly; most such filters name nothing but `_id`.
    let rest: Filter = {};
    if (Object.keys(filter).length > 1) {
      const { _id: _named, ...others } = filter;
      rest = others;
    }
    const found: Stored<T>[] = [];
    for (const id of ids) {
      const stored = this.docs.get(id);
      if (stored) found.push(stored);
    }
    return { candidates: inNaturalOrder(found), rest };
  }

  private narrowestLookup(filter: Filter): IndexLookup<T> | undefined {
    let narrowest: IndexLookup<T> | undefined;
    for (const index of this.equalityIndexes) {
      const lookup = index.lookup(filter);
      if (lookup && (!narrowest || lookup.size < narrowest.size)) narrowest = lookup;
    }
    return narrowest;
  }

  /**
   * Stores `doc` in place of `previous`, the stored document with its `_id` (undefined for a new
   * one: the caller has looked already), once no unique index objects.
   */
  private write(doc: T, previous: Stored<T> | undefined): void {
    for (const index of this.uniqueIndexes) {
      const taken = index.conflictWith(doc);
      if (taken !== undefined) throw new DuplicateKeyError(this.name, taken);
    }
    for (const index of this.uniqueIndexes) {
      if (previous) index.remove(previous.doc);
      index.add(doc);
    }
    // A replaced document keeps its place in natural order, as a Map keeps a replaced key's.
    const stored = { doc, position: previous?.position ?? this.nextPosition++ };
    for (const index of this.equalityIndexes) {
      if (previous) index.remove(previous);
      index.add(stored);
    }
    this.docs.set(doc._id, stored);
    this.onChange?.(this.name, doc._id, doc);
  }

  private remove(doc: T): void {
    for (const index of this.uniqueIndexes) index.remove(doc);
    const stored = this.docs.get(doc._id);
    if (stored) for (const index of this.equalityIndexes) index.remove(stored);
    this.docs.delete(doc._id);
    this.onChange?.(this.name, doc._id, undefined);
  }
}

/**
 * Filters compiled lately, by their JSON text. mingo copies its whole operator table into every
 * Query it builds (tens of microseconds), and the same few filter shapes come back all the time:
 * a revisioned copy's `{revision: {$lt: n}}`, a queue's state, a lock holder. A filter whose value
 * JSON would not tell apart from another (a RegExp, a Date, undefined), that reads the clock or
 * runs code (`$expr`, `$where`...) or whose pattern may keep state between tests (`$regex`) is
 * compiled afresh every time.
 */
const COMPILED_FILTERS = new Map<string, Query>();
const COMPILED_FILTERS_KEPT = 256;
const UNCACHEABLE_OPERATORS = new Set([
  "$expr",
  "$where",
  "$function",
  "$accumulator",
  "$jsonSchema",
  "$text",
  "$regex",
]);

function compiled(filter: Filter): Query {
  const key = isPlainJson(filter) ? JSON.stringify(filter) : undefined;
  if (key === undefined) return new Query(filter);
  let query = COMPILED_FILTERS.get(key);
  if (query) {
    // Most recently used last, so the oldest is the first key.
    COMPILED_FILTERS.delete(key);
  } else {
    query = new Query(filter);
    if (COMPILED_FILTERS.size >= COMPILED_FILTERS_KEPT) {
      COMPILED_FILTERS.delete(COMPILED_FILTERS.keys().next().value!);
    }
  }
  COMPILED_FILTERS.set(key, query);
  return query;
}

/**
 * The test of a document against `filter`: its compiled query, except that a single top-level
 * field compared with a number (`{occurredAtMs: {$lt: cutoff}}`, a replay log's prune; `{revision:
 * {$lt: n}}`) compares a number it finds in the document at once and leaves anything else
 * (missing, NaN, an array, a date) to the query. Those filters test every document of a
 * collection, in one turn of the event loop: through mingo, pruning the passengers' replay log
 * took 40 ms of CPU at 25,000 entries while sagas ran (CPU profile of bench:passenger-journey).
 */
function matcherFor(filter: Filter): (doc: AnyObject) => boolean {
  const comparison = numberComparisonOf(filter);
  if (!comparison) {
    const query = compiled(filter);
    return (doc) => query.test(doc);
  }
  // Compiled only for a document the comparison cannot answer: a prune's cutoff is new each time.
  let query: Query | undefined;
  const { field, holds } = comparison;
  return (doc) => {
    const value = doc[field];
    if (typeof value === "number" && !Number.isNaN(value)) return holds(value);
    query ??= compiled(filter);
    return query.test(doc);
  };
}

function numberComparisonOf(
  filter: Filter,
): { field: string; holds: (value: number) => boolean } | undefined {
  const fields = Object.keys(filter);
  const field = fields[0];
  if (fields.length !== 1 || field === undefined || field.startsWith("$") || field.includes(".")) {
    return undefined;
  }
  const condition: unknown = filter[field];
  if (typeof condition !== "object" || condition === null) return undefined;
  if (Object.getPrototypeOf(condition) !== Object.prototype) return undefined;
  const operators = Object.entries(condition);
  if (operators.length !== 1) return undefined;
  const [operator, bound] = operators[0]!;
  if (typeof bound !== "number" || Number.isNaN(bound)) return undefined;
  switch (operator) {
    case "$lt":
      return { field, holds: (value) => value < bound };
    case "$lte":
      return { field, holds: (value) => value <= bound };
    case "$gt":
      return { field, holds: (value) => value > bound };
    case "$gte":
      return { field, holds: (value) => value >= bound };
    default:
      return undefined;
  }
}

function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object") return false;
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const [key, member] of Object.entries(value)) {
    if (UNCACHEABLE_OPERATORS.has(key) || !isPlainJson(member)) return false;
  }
  return true;
}

function inNaturalOrder<T>(found: Stored<T>[]): Stored<T>[] {
  if (found.length > 1) found.sort((a, b) => a.position - b.position);
  return found;
}

/**
 * The `_id`s an `_id` condition names outright (`"x"`, `{ $eq: "x" }`, `{ $in: ["x", "y"] }`), or
 * undefined when it names none or matches otherwise (other operators, regular expressions).
 */
function idsNamedBy(condition: unknown): ReadonlySet<string> | undefined {
  if (typeof condition === "string") return new Set([condition]);
  if (typeof condition !== "object" || condition === null || Array.isArray(condition)) return undefined;
  const operators = Object.keys(condition);
  if (operators.length !== 1) return undefined;
  const { $eq, $in } = condition as { $eq?: unknown; $in?: unknown };
  if (typeof $eq === "string") return new Set([$eq]);
  if (Array.isArray($in) && $in.every((id): id is string => typeof id === "string")) return new Set($in);
  return undefined;
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

/**
 * The fields of an update that only `$set`s top-level fields to defined values, which is what
 * mingo's updater would do by assignment; undefined for anything else (dotted paths, `_id`, other
 * operators), which mingo applies.
 */
function topLevelFieldsSet(modifier: Modifier<AnyObject>): Record<string, unknown> | undefined {
  const operators = Object.keys(modifier);
  if (operators.length !== 1 || operators[0] !== "$set") return undefined;
  const fields = modifier.$set as Record<string, unknown>;
  for (const [path, value] of Object.entries(fields)) {
    if (
      path === "_id" ||
      path === "__proto__" ||
      path.includes(".") ||
      path.startsWith("$") ||
      value === undefined
    ) {
      return undefined;
    }
  }
  return fields;
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
