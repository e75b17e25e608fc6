/**
 * One HTTP exchange with a vendor, independent of how it travels. The HTTP transport sends it over
 * the network; the in-process transport hands it straight to a simulator. Vendor adapters build and
 * read these, so the same mapping code runs on both runtimes.
 */
export type WireMethod = "GET" | "POST" | "DELETE";

export interface WireRequest {
  method: WireMethod;
  /** Path and query string, e.g. `/v1/bookings/R123?expand=rates`. */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body?: string;
}

export interface WireResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** Something that answers wire requests: a simulator, or a vendor behind the HTTP transport. */
export interface WireEndpoint {
  handle(request: WireRequest): Promise<WireResponse>;
}

export function jsonRequest(method: WireMethod, path: string, body?: unknown): WireRequest {
  return body === undefined
    ? { method, path, headers: { accept: "application/json" } }
    : {
        method,
        path,
        headers: { accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify(body),
      };
}

/** The header a vendor reads an operation's idempotency key from (lower case, as wire headers are). */
export const IDEMPOTENCY_KEY = "idempotency-key";

/** The request with its idempotency key: the vendor answers a repeat with the first answer. */
export function idempotent(request: WireRequest, key: string): WireRequest {
  return { ...request, headers: { ...request.headers, [IDEMPOTENCY_KEY]: key } };
}

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): WireResponse {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** The JSON body of a response, or undefined when it is empty or not JSON. */
export function readJson(response: { body: string }): unknown {
  if (!response.body) return undefined;
  try {
    return JSON.parse(response.body);
  } catch {
    return undefined;
  }
}

export function withQuery(path: string, query: Record<string, string | number>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) search.set(name, String(value));
  return `${path}?${search.toString()}`;
}
