/**
 * Wires route declarations into Koa. Every request goes through the same stages, in this order:
 *
 *   unread-body discard → tracing → problem handling (httpConventions, once per app)
 *   → deprecation headers → authentication → rate limit → body parsing → validation
 *   → idempotency → handler → response headers      (per route, mountRoutes)
 *
 * so a route's handler only ever sees an authenticated caller and valid input, and every failure on
 * the way is an RFC 7807 problem carrying the request's trace.
 */
import Router, { type Layer } from "@koa/router";
import type { Context, Middleware } from "koa";
import { type Logger, pino } from "pino";
import type { Clock } from "../runtime/clock.js";
import type { CounterStore } from "../runtime/counter-store.js";
import type { Access } from "./access.js";
import type { Principal } from "../app/principals.js";
import { ProblemError, UnauthorizedError } from "./errors.js";
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  IdempotencyKeys,
  type IdempotencyOptions,
  type IdempotentRun,
  readIdempotencyKey,
  requestFingerprint,
  type StoredResponse,
} from "./idempotency.js";
import { readJsonBody } from "./json-body.js";
import { refuseOffsetPagination } from "./pagination.js";
import {
  asProblemError,
  DEFAULT_ERRORS_URL,
  PROBLEM_CONTENT_TYPE,
  problemBody,
  problemHandling,
} from "./problem.js";
import { RateLimiter, type RateLimitPolicy } from "./rate-limit.js";
import type { Deprecation, HandlerInput, Route } from "./route.js";
import { serialisationOf } from "./serialised-body.js";
import { type TracedState, traceOf, traceRequest } from "./tracing.js";
import { discardUnreadBody } from "./unread-body.js";
import { compileRequestValidator, type RequestValidator } from "./validation.js";

/**
 * Verifies the caller's token for a route's access rule and returns who it is; throws
 * UnauthorizedError (401) or a forbidden refusal (403). Never called for public routes.
 */
export type Authenticate = (ctx: Context, access: Exclude<Access, { kind: "public" }>) => Promise<Principal>;

export interface RouteDeps {
  authenticate: Authenticate;
  /** Rate-limit buckets and idempotency keys. */
  counters: CounterStore;
  clock: Clock;
  logger?: Logger;
  /** Prefix of problem type URIs; DEFAULT_ERRORS_URL unless configured. */
  errorsUrl?: string;
  rateLimits?: RateLimitPolicy;
  idempotency?: Partial<IdempotencyOptions>;
  /** Largest JSON body accepted, in bytes; larger ones get 413. Default 1 MiB. */
  bodyLimit?: number;
  /** Records every authenticated write and every partner read (not idempotent replays). */
  audit?: AuditRecorder;
}

export interface AuditedRequest {
  route: Route;
  principal: Principal;
  input: HandlerInput;
  response: StoredResponse;
}

export type AuditRecorder = (request: AuditedRequest) => Promise<void>;

export interface ConventionsOptions {
  logger?: Logger;
  errorsUrl?: string;
}

/**
 * Tracing and problem handling for everything below, including 404 for unknown routes, and the
 * unread rest of a body discarded once answered. Install first. One function of the three stages
 * (every request passes it): not three middlewares and the closures chaining them.
 */
export function httpConventions(options: ConventionsOptions = {}): Middleware {
  const problems = problemHandling(options);
  return async (ctx, next) => {
    traceRequest(ctx, options.logger);
    try {
      await problems(ctx, next);
    } finally {
      discardUnreadBody(ctx.req);
    }
  };
}

/**
 * A router serving `routes`, answering 405 (with `Allow`) when the path exists under another method;
 * requests for other paths fall through to the next middleware. Needs httpConventions() before it.
 */
export function serveRoutes(
  routes: readonly Route[],
  deps: RouteDeps,
  options: { host?: string | string[] | RegExp } = {},
): Middleware {
  const router = new Router({ exclusive: "specificity", ...options });
  mountRoutes(router, routes, deps);
  rememberMatches(router);
  const dispatch = router.routes() as Middleware;
  const allowedMethods = router.allowedMethods() as Middleware;
  const chosen = options.host === undefined ? chosenRoutes(router) : undefined;
  return (ctx, next) => {
    const route = chosen?.(ctx.method, ctx.path);
    if (route) {
      // What the router leaves for the route it chooses: the path parameters, a copy per request.
      const routed = ctx as RoutedContext;
      routed.params = routed.request.params = { ...route.params };
      return route.handle(ctx, next);
    }
    return dispatch(ctx, async () => {
      await allowedMethods(ctx, next);
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) throw methodProblem(ctx);
    });
  };
}

/** Paths whose router match is remembered, and the longest such path. */
const MATCHES_REMEMBERED = 1_000;
const REMEMBERED_PATH_LENGTH = 256;

type RouterMatch = ReturnType<Router["match"]>;

/**
 * koa-router tests every route's pattern (and logs each test through `debug`) to match a request,
 * some hundred patterns for one path with parameters, though the answer depends on the method and
 * path alone and the routes are fixed once mounted. The answers for the most recent paths are kept:
 * a burst on one path (an issuer's webhooks, a case being worked) matches once. The router pushes
 * onto the arrays it gets, so each request gets arrays of its own.
 */
function rememberMatches(router: Router): void {
  const match = router.match.bind(router);
  const known = new Map<string, RouterMatch>();
  router.match = (path: string, method: string): RouterMatch => {
    if (path.length > REMEMBERED_PATH_LENGTH) return match(path, method);
    const key = `${method} ${path}`;
    let found = known.get(key);
    if (!found) {
      found = match(path, method);
      if (known.size >= MATCHES_REMEMBERED) known.delete(known.keys().next().value!);
      known.set(key, found);
    }
    return { path: [...found.path], pathAndMethod: [...found.pathAndMethod], route: found.route };
  };
}

type RoutedContext = Context & {
  params?: Record<string, string>;
  request: { params?: Record<string, string> };
};

/** A route's stage chain and the path parameters of one request path. */
interface ChosenRoute {
  handle: Middleware;
  params: Record<string, string>;
}

/**
 * koa-router dispatches a matched request through a chain it builds and composes anew for every
 * request (and decodes the path parameters again), though for a given method and path the route
 * it chooses and the parameters are always the same. Those are remembered for the most recent
 * paths and the route's stages called directly. The router chooses as it would (the matching
 * route with the fewest parameters, the first of equals); a path no route takes, or one only
 * another method takes (405), is left to the router.
 */
function chosenRoutes(router: Router): (method: string, path: string) => ChosenRoute | undefined {
  const known = new Map<string, ChosenRoute>();
  return (method, path) => {
    if (path.length > REMEMBERED_PATH_LENGTH) return undefined;
    const key = `${method} ${path}`;
    let route = known.get(key);
    if (route === undefined) {
      const match = router.match(path, method);
      if (!match.route) return undefined;
      let layer: Layer | undefined;
      for (const candidate of match.pathAndMethod) {
        if (!layer || candidate.paramNames.length < layer.paramNames.length) layer = candidate;
      }
      if (!layer || layer.stack.length !== 1) return undefined;
      route = { handle: layer.stack[0] as Middleware, params: layer.params(path, layer.captures(path)) };
      if (known.size >= MATCHES_REMEMBERED) known.delete(known.keys().next().value!);
      known.set(key, route);
    }
    return route;
  };
}

function methodProblem(ctx: Context): ProblemError {
  const allow = ctx.response.get("Allow");
  return new ProblemError({
    status: ctx.status,
    category: "invalid",
    code: ctx.status === 405 ? "method-not-allowed" : "method-not-implemented",
    detail: `${ctx.method} is not supported on ${ctx.path}${allow ? `; allowed: ${allow}` : ""}`,
    ...(allow ? { headers: { Allow: allow } } : {}),
  });
}

/** Registers each route on `router` with the full stage chain; compiles every schema now. */
export function mountRoutes(router: Router, routes: readonly Route[], deps: RouteDeps): void {
  const seen = new Set<string>();
  for (const route of routes) {
    if (seen.has(route.operationId)) throw new Error(`Duplicate operationId ${route.operationId}`);
    seen.add(route.operationId);
  }
  const stages = new Stages(deps);
  for (const route of routes) {
    router.register(route.path, [route.method], stages.for(route) as never, { name: route.operationId });
  }
}

const EMPTY_OBJECT = { type: "object", properties: {}, additionalProperties: false } as const;

const METHODS_WITH_BODIES: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"]);

const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Content-Type header texts whose verdict (BodyMedia) is remembered. */
const MEDIA_TYPES_REMEMBERED = 100;

/** What a request body's Content-Type says. */
interface BodyMedia {
  json: boolean;
  /** Lower case; "" when the type names none. */
  charset: string;
}

/** The request with its JSON body, and the raw text a signed callback's signature covers. */
type ParsedRequest = Context["request"] & { body?: unknown; rawBody?: string };

/** The shared machinery of the per-route chain, built once per mountRoutes call. */
class Stages {
  private readonly rateLimiter: RateLimiter;
  private readonly idempotency: IdempotencyKeys;
  private readonly bodyLimit: number;
  private readonly errorsUrl: string;
  private readonly fallbackLog: Logger;
  private readonly media = new Map<string, BodyMedia>();

  constructor(private readonly deps: RouteDeps) {
    this.rateLimiter = new RateLimiter(deps.counters, deps.clock, deps.rateLimits);
    this.idempotency = new IdempotencyKeys(deps.counters, deps.clock, deps.idempotency);
    this.bodyLimit = deps.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES;
    this.errorsUrl = deps.errorsUrl ?? DEFAULT_ERRORS_URL;
    this.fallbackLog = deps.logger ?? pino({ enabled: false });
  }

  for(route: Route): Middleware {
    const validate = compileRequestValidator({
      params: route.params,
      query: route.query ?? EMPTY_OBJECT,
      body: route.body ?? EMPTY_OBJECT,
    });
    return async (ctx: Context) => {
      if (route.deprecated) setDeprecationHeaders(ctx, route.deprecated);
      const principal = await this.authenticate(ctx, route);
      const idempotencyKey = route.idempotent
        ? readIdempotencyKey(ctx.get(IDEMPOTENCY_KEY_HEADER) || undefined)
        : undefined;
      const storeKey =
        principal && idempotencyKey ? this.idempotency.storeKey(principal, idempotencyKey) : undefined;
      if (principal && !(storeKey && (await this.idempotency.hasResponse(storeKey)))) {
        await this.rateLimiter.enforce(ctx, principal, route);
      }
      const input = await this.validInput(ctx, route, validate, principal, idempotencyKey);
      const run: IdempotentRun =
        storeKey && principal
          ? await this.idempotency.run(
              storeKey,
              requestFingerprint({
                method: ctx.method,
                path: ctx.path,
                query: input.query,
                body: input.body,
                principal,
              }),
              () => this.execute(route, input),
            )
          : { response: await this.execute(route, input), replayed: false };
      if (principal && !run.replayed && (route.method !== "GET" || principal.surface === "partner")) {
        await this.deps.audit?.({ route, principal, input, response: run.response });
      }
      writeResponse(ctx, route, run);
    };
  }

  private async authenticate(ctx: Context, route: Route): Promise<Principal | undefined> {
    const access = route.access;
    if (access.kind === "public") return undefined;
    const principal = await this.deps.authenticate(ctx, access);
    // The handler's principal type depends on the surface: a token of another surface never gets through.
    if (access.kind !== "any-token" && principal.surface !== access.kind)
      throw new UnauthorizedError("invalid_token");
    return principal;
  }

  private async validInput(
    ctx: Context,
    route: Route,
    validate: RequestValidator,
    principal: Principal | undefined,
    idempotencyKey: string | undefined,
  ): Promise<HandlerInput> {
    if (!(route.upload && ctx.is(route.upload.contentType))) await this.parseBody(ctx);
    // Copies: validation coerces and fills defaults in place.
    const parts = {
      params: { ...(ctx as { params?: Record<string, string> }).params },
      // Without a query string there is nothing for Koa to parse (it would, on every request).
      query: ctx.querystring === "" ? {} : { ...ctx.query },
      body: (ctx.request as ParsedRequest).body ?? {},
    };
    refuseOffsetPagination(parts.query);
    validate(parts);
    return new RouteInput(
      parts.params,
      parts.query,
      route.body === undefined ? undefined : parts.body,
      principal,
      traceOf(ctx).correlationUrn,
      idempotencyKey,
      ctx,
      this.fallbackLog,
    );
  }

  private async parseBody(ctx: Context): Promise<void> {
    // The JSON parser reads bodies of these methods only; others reach the handler without one.
    if (!METHODS_WITH_BODIES.has(ctx.method)) return;
    const declaresBody = Number(ctx.get("Content-Length") || 0) > 0 || ctx.get("Transfer-Encoding") !== "";
    const media = declaresBody ? this.mediaOf(ctx) : undefined;
    if (media && !media.json) {
      throw new ProblemError({
        status: 415,
        category: "invalid",
        code: "unsupported-media-type",
        detail: "Request bodies must be application/json",
      });
    }
    // RFC 8259: JSON exchanged between systems is UTF-8; another declared charset is not guessed at.
    const charset = media?.charset ?? "";
    if (charset !== "" && charset !== "utf-8" && charset !== "utf8") {
      throw new ProblemError({
        status: 415,
        category: "invalid",
        code: "unsupported-encoding",
        detail: "Request bodies must be UTF-8 JSON",
      });
    }
    // A request that declares no body has none to read (nor a JSON media type to read it as).
    if (!declaresBody) {
      (ctx.request as ParsedRequest).body = {};
      return;
    }
    const { parsed, raw } = await readJsonBody(ctx.req, this.bodyLimit);
    (ctx.request as ParsedRequest).body = parsed;
    (ctx.request as ParsedRequest).rawBody = raw;
  }

  /**
   * What the Content-Type of a request with a body says: JSON or not, and its charset in lower case.
   * Both follow from the header's text alone, and clients send the same few texts again and again:
   * the answers for the most recent ones are kept instead of parsing the header twice per request.
   */
  private mediaOf(ctx: Context): BodyMedia {
    const header = ctx.get("Content-Type");
    let media = this.media.get(header);
    if (media === undefined) {
      media = { json: Boolean(ctx.is("json")), charset: ctx.request.charset.toLowerCase() };
      if (this.media.size >= MEDIA_TYPES_REMEMBERED) this.media.delete(this.media.keys().next().value!);
      this.media.set(header, media);
    }
    return media;
  }

  /** Runs the handler; a refusal below 500 becomes the response itself, so idempotency can keep it. */
  private async execute(route: Route, input: HandlerInput): Promise<StoredResponse> {
    try {
      const output = await route.handler(input);
      const contentType = route.responses[output.status]?.contentType ?? "application/json";
      return {
        status: output.status,
        body: output.body,
        headers: { "Content-Type": contentType, ...output.headers },
      };
    } catch (error) {
      const problem = asProblemError(error);
      if (problem.status >= 500) throw error;
      return {
        status: problem.status,
        body: problemBody(problem, this.errorsUrl, input.correlationUrn),
        headers: { "Content-Type": PROBLEM_CONTENT_TYPE, ...problem.headers },
      };
    }
  }
}

/** A handler's input; its logger is the request's (TracedState.log), made when first asked for. */
class RouteInput implements HandlerInput {
  constructor(
    readonly params: unknown,
    readonly query: unknown,
    readonly body: unknown,
    readonly principal: Principal | undefined,
    readonly correlationUrn: string,
    readonly idempotencyKey: string | undefined,
    readonly ctx: Context,
    private readonly fallbackLog: Logger,
  ) {}

  get log(): Logger {
    return (this.ctx.state as Partial<TracedState>).log ?? this.fallbackLog;
  }
}

function setDeprecationHeaders(ctx: Context, deprecated: Deprecation): void {
  // RFC 9745: Deprecation is a structured-field date; RFC 8594: Sunset is an HTTP date.
  ctx.set("Deprecation", `@${Math.floor(Date.parse(deprecated.since) / 1000)}`);
  ctx.set("Sunset", new Date(deprecated.sunset).toUTCString());
}

/** The type Koa gives a JSON body it writes itself. */
const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

function writeResponse(ctx: Context, route: Route, { response, replayed }: IdempotentRun): void {
  ctx.status = response.status;
  const headers = response.headers;
  for (const name in headers) ctx.set(name, headers[name]!);
  if (replayed) ctx.set(IDEMPOTENT_REPLAYED_HEADER, "true");
  if (route.cache === "passenger-private" && response.status < 300) {
    ctx.set("Cache-Control", "private, max-age=60");
    // ctx.vary merges into a Vary already set; with none there is nothing to merge (nor parse).
    if (ctx.response.get("Vary")) ctx.vary("Authorization");
    else ctx.set("Vary", "Authorization");
  }
  const json = serialisationOf(response.body);
  if (json) {
    // As Koa would write the body itself: the same type, the same bytes (the type set as text,
    // without looking "json" up again on every response).
    ctx.set("Content-Type", JSON_CONTENT_TYPE);
    ctx.body = json;
  } else if (response.body !== undefined) ctx.body = response.body;
  else if (response.status !== 204 && response.status !== 304) ctx.body = "";
}
