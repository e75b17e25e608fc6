/**
 * The operator API over HTTP: JSON in and out, the in-memory access token as bearer, RFC 7807
 * problems as ApiProblem (spec 7). A 401 gets one refresh and one retry; a refused refresh ends the
 * session visibly (spec 5.1: after a detected reuse, clients must not silently recover).
 */
import { endRefusedSession, refreshAccessToken } from "./identity.js";
import { accessToken } from "./session.js";

/** A non-2xx answer, from its problem-details body (or what stands in for one). */
export class ApiProblem extends Error {
  readonly status: number;
  /** The problem type URI, e.g. `…/conflict/sub-case-locked`. */
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  /** The whole body: extension members such as `lockedBy`, `expiresInSeconds`, `failedDomain`, `errors`. */
  readonly body: Record<string, unknown>;
  /** The answer's headers (`X-Vendor-Error-Code`, `Retry-After`, `ETag`). */
  readonly headers: Headers;

  constructor(status: number, body: Record<string, unknown>, headers: Headers = new Headers()) {
    const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : "");
    const title = text("title") || (status === 0 ? "The service could not be reached" : `HTTP ${status}`);
    super(text("detail") || title);
    this.name = "ApiProblem";
    this.status = status;
    this.type = text("type") || "about:blank";
    this.title = title;
    this.detail = text("detail");
    this.body = body;
    this.headers = headers;
  }

  /** The last segment of the type (`sub-case-locked`), what the console branches on. */
  get code(): string {
    return this.type.split("/").pop() ?? "";
  }
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The raw answer of a 2xx (for its headers: ETag, Location), a problem thrown otherwise. Writes
 * get an Idempotency-Key unless the caller gives one, kept across the retry after a refresh.
 */
export async function apiResponse(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const upper = method.toUpperCase();
  const fixed: Record<string, string> = { Accept: "application/json, application/problem+json", ...headers };
  if (body !== undefined) fixed["Content-Type"] ??= "application/json";
  if (WRITE_METHODS.has(upper) && !Object.keys(fixed).some((h) => h.toLowerCase() === "idempotency-key")) {
    fixed["Idempotency-Key"] = crypto.randomUUID();
  }
  const send = async () => {
    const token = accessToken();
    try {
      return await fetch(path, {
        method: upper,
        headers: token ? { ...fixed, Authorization: `Bearer ${token}` } : fixed,
        ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw new ApiProblem(0, { detail: error instanceof Error ? error.message : String(error) });
    }
  };
  let response = await send();
  if (response.status === 401 && accessToken()) {
    if ((await refreshAccessToken().catch(() => "failed")) !== "refreshed") {
      endRefusedSession();
      throw await problemOf(response);
    }
    response = await send();
  }
  if (!response.ok) throw await problemOf(response);
  return response;
}

/** JSON of a 2xx answer (undefined for 204), an ApiProblem otherwise. */
export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  const response = await apiResponse(method, path, body, headers);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

async function problemOf(response: Response): Promise<ApiProblem> {
  const text = await response.text().catch(() => "");
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    body = text ? { detail: text.slice(0, 500) } : {};
  }
  return new ApiProblem(response.status, body, response.headers);
}

/** A URN (or any value) as one path segment. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
