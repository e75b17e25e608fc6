/**
 * Cursor pagination (spec 2.9, 8.2): `limit` and an opaque `cursor` in, the page envelope
 * `{items, nextCursor, hasMore}` out. Cursors come from the DocumentStore, which encodes a snapshot
 * position so a cursor returns the same page later. Offset and page-number pagination are refused.
 */
import type { FindOptions, Page } from "../runtime/document-store.js";
import { ProblemError } from "./errors.js";
import type { JsonSchema } from "./json-schema.js";

/** Not fixed by the spec; documented in the OpenAPI documents. */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

export const limitParameter = {
  type: "integer",
  minimum: 1,
  maximum: MAX_PAGE_LIMIT,
  default: DEFAULT_PAGE_LIMIT,
  description: `Items per page (default ${DEFAULT_PAGE_LIMIT}, at most ${MAX_PAGE_LIMIT})`,
} as const;

export const cursorParameter = {
  type: "string",
  minLength: 1,
  maxLength: 4096,
  description: "The `nextCursor` of the previous page; omit for the first page",
} as const;

export const pageQueryProperties = { limit: limitParameter, cursor: cursorParameter } as const;

/** The query schema of a paginated list: `limit`, `cursor` and the list's own (optional) filters. */
export function pageQuery<const F extends { readonly [name: string]: JsonSchema } = Record<never, never>>(
  filters?: F,
) {
  return {
    type: "object",
    properties: { ...pageQueryProperties, ...(filters as F) },
  } as const;
}

export interface PageEnvelope<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** The paging part of a validated paginated query. */
export interface PageParameters {
  limit: number;
  cursor?: string | undefined;
}

/** The DocumentStore find options for a validated paginated query: always with a limit. */
export function pageRequest(query: PageParameters): FindOptions & { limit: number } {
  return { limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) };
}

/** A DocumentStore page as the wire envelope, each item shaped by `toWire`. */
export function toPageEnvelope<T, U>(page: Page<T>, toWire: (item: T) => U): PageEnvelope<U> {
  return { items: page.items.map(toWire), nextCursor: page.nextCursor, hasMore: page.hasMore };
}

/**
 * A list route's answer: the page `read` returns for the request's `limit` and `cursor`, in the
 * wire envelope, each item shaped by `toWire` (as read when there is none).
 */
export async function pageAnswer<T>(
  query: PageParameters,
  read: (request: FindOptions & { limit: number }) => Promise<Page<T>>,
): Promise<{ status: 200; body: PageEnvelope<T> }>;
export async function pageAnswer<T, U>(
  query: PageParameters,
  read: (request: FindOptions & { limit: number }) => Promise<Page<T>>,
  toWire: (item: T) => U,
): Promise<{ status: 200; body: PageEnvelope<U> }>;
export async function pageAnswer<T>(
  query: PageParameters,
  read: (request: FindOptions & { limit: number }) => Promise<Page<T>>,
  toWire: (item: T) => unknown = (item) => item,
) {
  return { status: 200 as const, body: toPageEnvelope(await read(pageRequest(query)), toWire) };
}

const REFUSED_PAGINATION_PARAMETERS = ["offset", "page"] as const;

/** Every route refuses `offset` and `page`, whatever its query schema says (spec 8.2). */
export function refuseOffsetPagination(query: Record<string, unknown>): void {
  const refused = REFUSED_PAGINATION_PARAMETERS.filter((name) => name in query);
  if (refused.length === 0) return;
  throw new ProblemError({
    status: 400,
    category: "invalid",
    code: "pagination-not-supported",
    detail:
      "Only cursor pagination is supported: pass `limit` and the previous page's `nextCursor` as `cursor`",
    extensions: {
      errors: refused.map((name) => ({
        in: "query",
        field: `/${name}`,
        message: "offset and page-number pagination are not supported; use cursor",
      })),
    },
  });
}
