import type { DeepReadonly } from "../domain/deep-readonly.js";

/**
 * Queryable documents (case index, audit, event log, policies, catalog) in the MongoDB query
 * language, so the in-memory store and MongoDB answer the same queries the same way.
 */
export type Filter = Record<string, unknown>;
export type SortSpec = Record<string, 1 | -1>;

export interface Doc {
  _id: string;
}

export interface Page<T> {
  items: T[];
  /** Opaque; present when `hasMore`. Passing it back returns the page after the last item, even later. */
  nextCursor: string | null;
  hasMore: boolean;
}

export interface FindOptions {
  sort?: SortSpec;
  limit?: number;
  /** A `nextCursor` from an earlier page of the same filter and sort. */
  cursor?: string;
}

export interface IndexSpec {
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  name?: string;
}

export interface DocumentCollection<T extends Doc> {
  /** Inserts a new document; throws DuplicateKeyError when `_id` or a unique index collides. */
  insert(doc: T): Promise<void>;
  /**
   * Inserts unless a document with the same `_id` exists; true when it inserted. For writers that
   * race to create the same document, where losing is normal and not worth an exception. A unique
   * index other than `_id` still throws DuplicateKeyError.
   */
  insertIfAbsent(doc: T): Promise<boolean>;
  /** Inserts or replaces the document with the same `_id`. */
  put(doc: T): Promise<void>;
  /**
   * As put, for a writer that hands the document over (a log entry built for the store alone): the
   * store may keep it as it is, not a copy, so the writer must change no part of it afterwards.
   */
  handOver(doc: T): Promise<void>;
  get(id: string): Promise<T | undefined>;
  /**
   * As get, for a reader that only looks at the document (booking reading a wave): a peek, which
   * may be the stored document, not a copy, so it is read-only.
   */
  peek(id: string): Promise<DeepReadonly<T> | undefined>;
  /** Applies a MongoDB update document (`$set`, `$inc`, `$push`, ...) to the first match; returns the updated document. */
  updateOne(filter: Filter, update: Record<string, unknown>): Promise<T | undefined>;
  deleteOne(filter: Filter): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
  findOne(filter: Filter, options?: { sort?: SortSpec }): Promise<T | undefined>;
  /**
   * As findOne, with only `fields` (top-level) and `_id` of the match: a reader of a few small parts
   * of a large document (a wave's allocations, not its ranking inputs) is handed no more. A peek:
   * the parts may be the stored ones, not copies, so they are read-only.
   */
  peekOneFields<K extends keyof T & string>(
    filter: Filter,
    fields: readonly K[],
    options?: { sort?: SortSpec },
  ): Promise<DeepReadonly<Pick<T, K | "_id">> | undefined>;
  /** One page; the sort always ends with `_id` so that cursors are stable. */
  find(filter: Filter, options?: FindOptions): Promise<Page<T>>;
  /** Every match, for small result sets (internal use). */
  findAll(filter: Filter, options?: { sort?: SortSpec; limit?: number }): Promise<T[]>;
  /**
   * As findAll, for a reader that only looks at the matches (a case read showing its sub-cases): a
   * peek, whose documents may be the stored ones, not copies, so they are read-only. A store
   * replaces a document it changes rather than changing it: a document handed out again as the
   * same object is unchanged.
   */
  peekAll(filter: Filter, options?: { sort?: SortSpec; limit?: number }): Promise<readonly DeepReadonly<T>[]>;
  count(filter?: Filter): Promise<number>;
  ensureIndex(spec: IndexSpec): Promise<void>;
}

export interface DocumentStore {
  collection<T extends Doc>(name: string): DocumentCollection<T>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    readonly key: string,
  ) {
    super(`Duplicate key in ${collection}: ${key}`);
    this.name = "DuplicateKeyError";
  }
}

export class InvalidCursorError extends Error {
  constructor() {
    super("The cursor is not valid for this query");
    this.name = "InvalidCursorError";
  }
}
