import { createHash } from "node:crypto";
import {
  type Doc,
  type Filter,
  type FindOptions,
  InvalidCursorError,
  type Page,
  type SortSpec,
} from "./document-store.js";

/**
 * Keyset pagination shared by the document stores. A cursor holds the sort-key values of the last
 * item it returned, and the next page is "every match strictly after that position" in the sort
 * order. Unlike an offset, that position does not move when documents are inserted before it, so a
 * cursor returns the same page later.
 *
 * Each sort key should hold one scalar type (string, number or boolean) across a collection, with
 * null or missing allowed: MongoDB compares values of different types by type order, which a
 * position filter cannot follow.
 */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

type SortKeyValue = string | number | boolean | null;

/** What a store runs for one page; it asks for one item more than the page to learn `hasMore`. */
export interface PageQuery {
  filter: Filter;
  sort: SortSpec;
  limit: number;
  fetchLimit: number;
}

export function pageQuery(filter: Filter, options: FindOptions = {}): PageQuery {
  const sort = stableSort(options.sort);
  const limit = pageSize(options.limit);
  const position = options.cursor === undefined ? undefined : decodeCursor(options.cursor, sort);
  return {
    filter: position ? both(filter, strictlyAfter(sort, position)) : filter,
    sort,
    limit,
    fetchLimit: limit + 1,
  };
}

/** Cuts what the store fetched for `query` down to a page. */
export function toPage<T extends Doc>(fetched: T[], query: PageQuery): Page<T> {
  const items = fetched.slice(0, query.limit);
  const hasMore = fetched.length > query.limit;
  const last = items[items.length - 1];
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(query.sort, last) : null };
}

/** The sort with `_id` ascending as the last key, so no two documents ever tie. */
export function stableSort(sort: SortSpec = {}): SortSpec {
  const stable: SortSpec = {};
  for (const [path, direction] of Object.entries(sort)) {
    stable[path] = direction;
    // Keys after a unique one never decide the order.
    if (path === "_id") return stable;
  }
  stable["_id"] = 1;
  return stable;
}

export function pageSize(limit: number | undefined): number {
  if (limit === undefined || Number.isNaN(limit)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit)));
}

/**
 * For keys k1..kn: (k1 after v1) or (k1 = v1 and k2 after v2) or ... Null and missing sort before
 * every value, so "after null" ascending is "not null", and nothing comes after null descending.
 */
function strictlyAfter(sort: SortSpec, position: SortKeyValue[]): Filter {
  const keys = Object.entries(sort);
  const branches: Filter[] = [];
  keys.forEach(([path, direction], i) => {
    const value = position[i] ?? null;
    const ties = Object.fromEntries(
      keys.slice(0, i).map(([tiedPath], j) => [tiedPath, { $eq: position[j] }]),
    );
    if (direction === 1) {
      branches.push({ ...ties, [path]: value === null ? { $ne: null } : { $gt: value } });
    } else if (value !== null) {
      branches.push({ ...ties, $or: [{ [path]: { $lt: value } }, { [path]: null }] });
    }
  });
  return { $or: branches };
}

function both(filter: Filter, position: Filter): Filter {
  return Object.keys(filter).length === 0 ? position : { $and: [filter, position] };
}

function encodeCursor(sort: SortSpec, last: Doc): string {
  const position = Object.keys(sort).map((path) => sortKeyValue(last, path));
  return Buffer.from(JSON.stringify([sortFingerprint(sort), position])).toString("base64url");
}

function decodeCursor(cursor: string, sort: SortSpec): SortKeyValue[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new InvalidCursorError();
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw new InvalidCursorError();
  const [fingerprint, position] = decoded as [unknown, unknown];
  if (
    fingerprint !== sortFingerprint(sort) ||
    !Array.isArray(position) ||
    position.length !== Object.keys(sort).length ||
    !position.every(isSortKeyValue) ||
    typeof position[position.length - 1] !== "string"
  ) {
    throw new InvalidCursorError();
  }
  return position;
}

/** Tells sorts apart without spelling field names out in a cursor clients can read. */
function sortFingerprint(sort: SortSpec): string {
  return createHash("sha256")
    .update(JSON.stringify(Object.entries(sort)))
    .digest("base64url")
    .slice(0, 16);
}

function sortKeyValue(doc: Doc, path: string): SortKeyValue {
  let value: unknown = doc;
  for (const segment of path.split(".")) {
    if (value === null || value === undefined) return null;
    if (Array.isArray(value) && !/^\d+$/.test(segment)) {
      throw new Error(`Cannot page by ${path}: it runs through an array`);
    }
    value = (value as Record<string, unknown>)[segment];
  }
  if (value === undefined) return null;
  if (!isSortKeyValue(value)) throw new Error(`Cannot page by ${path}: it holds neither a scalar nor null`);
  return value;
}

function isSortKeyValue(value: unknown): value is SortKeyValue {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}
