/**
 * RFC 7807 Problem Details for every error the HTTP layer answers (spec 2.9 and part 7):
 * `type` = `{errors_url}/<category>/<code>`, `instance` = the request's correlation URN,
 * extension members for what the client needs to act (lockedBy, failedDomain, errors...).
 * Nothing unexpected leaks: an error that is not a known kind becomes a bare 500.
 */
import { STATUS_CODES } from "node:http";
import type { Context, Middleware, Next } from "koa";
import type { Logger } from "pino";
import { DomainError, type DomainErrorKind } from "../domain/domain-error.js";
import { InvalidCursorError } from "../runtime/document-store.js";
import { StoreUnavailableError } from "../runtime/store-unavailable-error.js";
import { ProblemError } from "./errors.js";
import { CircuitOpenError } from "../vendors/circuit-open-error.js";
import { traceOf } from "./tracing.js";

/** Prefix of problem type URIs ({errors_url} in the spec); override with `errorsUrl`. */
export const DEFAULT_ERRORS_URL = "https://errors.svc.example/v1";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Correlation URN of the request (`urn:trace:<trace id>`). */
  instance: string;
  [extension: string]: unknown;
}

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  "not-found": 404,
  conflict: 409,
  forbidden: 403,
  unprocessable: 422,
  unavailable: 503,
};

/** Seconds a client should wait after a 503 from an open circuit (spec part 7). */
const CIRCUIT_OPEN_RETRY_AFTER_SECONDS = 30;

/** Seconds a client should wait after a 503 for a store outage: Redis reconnects every 2 s at most. */
const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

const RESERVED_MEMBERS = new Set(["type", "title", "status", "detail", "instance"]);

/** Any thrown value as the ProblemError that describes it; unknown errors become a bare 500. */
export function asProblemError(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof DomainError || DomainError.isShape(error)) {
    const domain = error instanceof DomainError ? error.toShape() : error;
    const vendorErrorCode = domain.details?.vendorErrorCode;
    return new ProblemError({
      status: STATUS_OF_KIND[domain.kind] ?? 500,
      category: domain.kind,
      code: domain.code,
      detail: domain.message,
      ...(domain.details ? { extensions: domain.details } : {}),
      // Spec part 7: permanent vendor failures carry the vendor's own code in a header as well.
      ...(typeof vendorErrorCode === "string" ? { headers: { "X-Vendor-Error-Code": vendorErrorCode } } : {}),
    });
  }
  if (CircuitOpenError.is(error)) {
    return new ProblemError({
      status: 503,
      category: "unavailable",
      code: "circuit-open",
      detail: error.message,
      extensions: { failedDomain: error.failedDomain },
      headers: { "Retry-After": String(CIRCUIT_OPEN_RETRY_AFTER_SECONDS) },
    });
  }
  if (error instanceof StoreUnavailableError) {
    // The driver's message (hosts, ports) stays in the log.
    return new ProblemError({
      status: 503,
      category: "unavailable",
      code: "store",
      detail: `The service's data store is unavailable; retry after ${STORE_UNAVAILABLE_RETRY_AFTER_SECONDS} s`,
      headers: { "Retry-After": String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
    });
  }
  if (error instanceof InvalidCursorError) {
    return new ProblemError({ status: 400, category: "invalid", code: "cursor", detail: error.message });
  }
  return fromClientError(error) ?? unexpected();
}

/** Client errors raised through Koa's ctx.throw carry a safe message; anything else is a 500. */
function fromClientError(error: unknown): ProblemError | undefined {
  const e = error as { status?: unknown; expose?: unknown } | null;
  if (typeof e !== "object" || e === null || typeof e.status !== "number") return undefined;
  if (e.expose === true && e.status >= 400 && e.status < 500) {
    return invalid(e.status, "request", (error as Error).message);
  }
  return undefined;
}

function invalid(status: number, code: string, detail: string): ProblemError {
  return new ProblemError({ status, category: "invalid", code, detail });
}

function unexpected(): ProblemError {
  return new ProblemError({
    status: 500,
    category: "internal",
    code: "unexpected",
    detail: "An unexpected error occurred; quote the instance when reporting it",
  });
}

export function problemBody(problem: ProblemError, errorsUrl: string, instance: string): Problem {
  const body: Problem = {
    type: `${errorsUrl}/${problem.category}/${problem.code}`,
    title: STATUS_CODES[problem.status] ?? "Error",
    status: problem.status,
    detail: problem.message,
    instance,
  };
  for (const [name, value] of Object.entries(problem.extensions)) {
    if (!RESERVED_MEMBERS.has(name)) body[name] = value;
  }
  return body;
}

/** Writes `problem` as the response, keeping headers already set (traceparent, rate-limit counters). */
export function writeProblem(ctx: Context, problem: ProblemError, errorsUrl: string): void {
  ctx.status = problem.status;
  for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
  ctx.type = PROBLEM_CONTENT_TYPE;
  ctx.body = problemBody(problem, errorsUrl, traceOf(ctx).correlationUrn);
}

export interface ProblemHandlingOptions {
  errorsUrl?: string;
  logger?: Logger;
}

/**
 * Catches everything below it and answers with a problem; also answers 404 when nothing below
 * produced a response (unknown route). Installed by httpConventions, once the trace has started.
 */
export function problemHandling(options: ProblemHandlingOptions = {}): Middleware {
  const errorsUrl = options.errorsUrl ?? DEFAULT_ERRORS_URL;
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) {
        throw new ProblemError({
          status: 404,
          category: "not-found",
          code: "route",
          detail: `No operation is published at ${ctx.method} ${ctx.path}`,
        });
      }
    } catch (error) {
      const problem = asProblemError(error);
      const log = (ctx.state as { log?: Logger }).log ?? options.logger;
      if (problem.status >= 500 || ctx.headerSent) {
        log?.error({ err: error, status: problem.status }, "request failed");
      }
      // A streamed response (server-sent events) has already sent its status: only the log is left.
      if (ctx.headerSent) return;
      writeProblem(ctx, problem, errorsUrl);
    }
  };
}
