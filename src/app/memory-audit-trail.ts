import { Query } from "mingo";
import type { AnyObject } from "mingo/types";
import { pageSize } from "../runtime/document-cursor.js";
import { type Filter, InvalidCursorError, type Page } from "../runtime/document-store.js";
import { copyOf } from "../runtime/plain-copy.js";
import type { AuditQuery } from "./audit-trail.js";
import type { AuditEntry } from "./audit-entry.js";
import type { AuditTrail } from "./audit-trail.js";

/** Positions of entries in the trail, ascending. */
type Positions = number[];

/** For one tenant, the positions of its entries under each key a query can narrow by. */
interface TenantPositions {
  all: Positions;
  byCase: Map<string, Positions>;
  byEntity: Map<string, Positions>;
  byKind: Map<string, Positions>;
  byKindAndAction: Map<string, Map<string, Positions>>;
}

const CHUNK_BITS = 16;
const CHUNK_SIZE = 1 << CHUNK_BITS;

/**
 * The audit trail of the embedded default, in memory. Entries stay in the order they were appended,
 * which is the order they happened in, and each tenant keeps, for every case, entity, entity kind
 * and kind-and-action, the positions of its entries in that same order. A query walks the shortest
 * list that applies from its cursor on and stops at a full page, so it costs what it returns however
 * long the trail grows; an append costs a few pushes onto lists of numbers.
 *
 * The trail gains an entry on every partner read: kept as documents in a collection, each would
 * also take a slot in a hash table of every id and in the buckets of three indexes, which at
 * thousands of reads a second cost a partner read a fifth of its CPU.
 */
export class MemoryAuditTrail implements AuditTrail {
  /** Entries by position, in chunks, so the trail never copies one ever-growing array. */
  private readonly chunks: AuditEntry[][] = [];
  private size = 0;
  private readonly tenants = new Map<string, TenantPositions>();

  async append(entry: AuditEntry): Promise<void> {
    const position = this.size++;
    if ((position & (CHUNK_SIZE - 1)) === 0) this.chunks.push([]);
    this.chunks[this.chunks.length - 1]!.push(entry);
    let lists = this.tenants.get(entry.tenant);
    if (!lists) {
      lists = {
        all: [],
        byCase: new Map(),
        byEntity: new Map(),
        byKind: new Map(),
        byKindAndAction: new Map(),
      };
      this.tenants.set(entry.tenant, lists);
    }
    lists.all.push(position);
    if (entry.caseUrn !== null) listOf(lists.byCase, entry.caseUrn).push(position);
    if (entry.entityUrn !== null) listOf(lists.byEntity, entry.entityUrn).push(position);
    if (entry.entityKind !== null) {
      listOf(lists.byKind, entry.entityKind).push(position);
      let byAction = lists.byKindAndAction.get(entry.entityKind);
      if (!byAction) {
        byAction = new Map();
        lists.byKindAndAction.set(entry.entityKind, byAction);
      }
      listOf(byAction, entry.action).push(position);
    }
  }

  async query(query: AuditQuery): Promise<Page<AuditEntry>> {
    const limit = pageSize(query.limit);
    const after = query.cursor === undefined ? -1 : this.positionIn(query.cursor);
    const lists = this.tenants.get(query.tenant);
    const candidates = lists ? candidatesFor(query, lists) : [];
    const items: AuditEntry[] = [];
    let last = -1;
    for (let i = firstAfter(candidates, after); i < candidates.length; i++) {
      const position = candidates[i]!;
      const entry = this.at(position);
      if (!matches(entry, query)) continue;
      if (items.length === limit) return { items, hasMore: true, nextCursor: cursorAt(last) };
      items.push(copyOf(entry));
      last = position;
    }
    return { items, hasMore: false, nextCursor: null };
  }

  async findOne(filter: Filter & { tenant: string }): Promise<AuditEntry | undefined> {
    const lists = this.tenants.get(filter.tenant);
    if (!lists) return undefined;
    const candidates =
      typeof filter.entityUrn === "string" ? (lists.byEntity.get(filter.entityUrn) ?? []) : lists.all;
    const test = new Query(filter);
    for (const position of candidates) {
      const entry = this.at(position);
      if (test.test(entry as unknown as AnyObject)) return copyOf(entry);
    }
    return undefined;
  }

  private at(position: number): AuditEntry {
    return this.chunks[position >>> CHUNK_BITS]![position & (CHUNK_SIZE - 1)]!;
  }

  /** The position a cursor of this trail names; any other string is an invalid cursor. */
  private positionIn(cursor: string): number {
    const match = /^audit:(0|[1-9]\d{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
    const position = match ? Number(match[1]) : Number.NaN;
    if (!(position < this.size) || cursorAt(position) !== cursor) throw new InvalidCursorError();
    return position;
  }
}

/** The cursor after the entry at `position`: the same entries follow it for as long as the trail lives. */
function cursorAt(position: number): string {
  return Buffer.from(`audit:${position}`, "latin1").toString("base64url");
}

function listOf<K>(lists: Map<K, Positions>, key: K): Positions {
  let list = lists.get(key);
  if (!list) {
    list = [];
    lists.set(key, list);
  }
  return list;
}

/** The narrowest list the query's conditions allow; `matches` then tests the rest of them. */
function candidatesFor(query: AuditQuery, lists: TenantPositions): Positions {
  if (query.entityUrn) return lists.byEntity.get(query.entityUrn) ?? [];
  if (query.caseUrn) {
    // The case's own entries and those of its entities: both lists, merged in order.
    return union(lists.byEntity.get(query.caseUrn) ?? [], lists.byCase.get(query.caseUrn) ?? []);
  }
  if (query.entityKind && query.action) {
    return lists.byKindAndAction.get(query.entityKind)?.get(query.action) ?? [];
  }
  if (query.entityKind) return lists.byKind.get(query.entityKind) ?? [];
  return lists.all;
}

function matches(entry: AuditEntry, query: AuditQuery): boolean {
  if (query.caseUrn && entry.caseUrn !== query.caseUrn && entry.entityUrn !== query.caseUrn) return false;
  if (query.entityUrn && entry.entityUrn !== query.entityUrn) return false;
  if (query.entityKind && entry.entityKind !== query.entityKind) return false;
  return !query.action || entry.action === query.action;
}

/** Two ascending lists as one, each position once. */
function union(a: Positions, b: Positions): Positions {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const merged: Positions = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (merged[merged.length - 1] !== next) merged.push(next);
  }
  return merged;
}

/** The index of the first position in `list` past `position`. */
function firstAfter(list: Positions, position: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! <= position) low = middle + 1;
    else high = middle;
  }
  return low;
}
