/**
 * One declaration per route, read by both the Koa router and the OpenAPI builder, so a route cannot
 * be served without being documented, and its schemas are written once: they validate the request,
 * describe it in the document and type the handler's inputs.
 */
import type { Context } from "koa";
import type { Logger } from "pino";
import type { DeepReadonly } from "../domain/deep-readonly.js";
import type { Access } from "./access.js";
import type {
  OperatorPrincipal,
  PartnerPrincipal,
  PassengerPrincipal,
  Principal,
} from "../app/principals.js";
import { closeObjectSchemas, type Infer, type JsonSchema, type ObjectSchema } from "./json-schema.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type Surface = Principal["surface"];

/** Statuses a handler may return; errors are thrown (DomainError, ProblemError...) and become problems. */
export type SuccessStatus = 200 | 201 | 202 | 204 | 301 | 302 | 303 | 307 | 308;

export interface ResponseSpec {
  description: string;
  /** The body; omit for a response without one (204). Problem responses (>= 400) always use the Problem schema. */
  schema?: JsonSchema;
  /** Media type of the body; `application/json` unless stated (e.g. `text/html` for a voucher). */
  contentType?: string;
  /** Response headers worth documenting, e.g. `Location`. */
  headers?: { readonly [name: string]: { description: string; schema?: JsonSchema } };
}

export type Responses = { readonly [status: number]: ResponseSpec };

/**
 * - `passenger-private`: `Cache-Control: private, max-age=60` and `Vary: Authorization` on
 *   successful responses (spec 4.4, 8.2). The default for passenger GET routes.
 * - `none`: no caching headers. The default for everything else.
 */
export type CachePolicy = "passenger-private" | "none";

/** A deprecated route answers with `Deprecation` and `Sunset` headers (spec 9.3). ISO 8601 dates. */
export interface Deprecation {
  since: string;
  sunset: string;
}

export type PrincipalFor<A extends Access> = A extends { kind: "operator" }
  ? OperatorPrincipal
  : A extends { kind: "partner" }
    ? PartnerPrincipal
    : A extends { kind: "passenger" }
      ? PassengerPrincipal
      : A extends { kind: "any-token" }
        ? Principal
        : undefined;

/** `:name` segments of a koa-router path; `\:` is a literal colon (`/groups\:merge`). */
export type PathParamNames<Path extends string> = Path extends `${infer Before}:${infer Rest}`
  ? Rest extends `${infer Name}/${infer Tail}`
    ? (Before extends `${string}\\` ? never : Name) | PathParamNames<Tail>
    : Before extends `${string}\\`
      ? never
      : Rest
  : never;

/** Path parameters are always present, whatever the schema's `required` says. */
type ParamsOf<P, Path extends string> = P extends ObjectSchema
  ? Required<Infer<P>>
  : { [K in PathParamNames<Path>]: string };
type QueryOf<Q> = Q extends ObjectSchema ? Infer<Q> : Record<string, never>;
type BodyOf<B> = B extends JsonSchema ? Infer<B> : undefined;

export interface HandlerInput<A extends Access = Access, P = unknown, Q = unknown, B = unknown> {
  /** Path parameters, URL-decoded and validated. */
  params: P;
  /** Query parameters, coerced to the declared types, defaults filled in. */
  query: Q;
  /** The validated JSON body; undefined when the route declares none. */
  body: B;
  /** Who is calling; undefined only on public routes. */
  principal: PrincipalFor<A>;
  /** `urn:trace:<trace id>` of this request, to pass on to use cases, events and audit. */
  correlationUrn: string;
  /** The request's Idempotency-Key, when it carries one (writes only). */
  idempotencyKey: string | undefined;
  /** Logger bound to this request's trace. */
  log: Logger;
  /** The Koa context, for what the declaration does not cover (cookies, streaming). */
  ctx: Context;
}

/** A body is only written out, so a handler may answer with values it may only look at (a peek). */
type BodyFor<Spec> = Spec extends { readonly schema: infer S }
  ? { body: DeepReadonly<Infer<S, object>> }
  : { body?: unknown };

/** One of the declared success responses, with a body of its declared schema. */
export type HandlerResult<R extends Responses> = {
  [S in keyof R & SuccessStatus]: { status: S; headers?: Record<string, string> } & BodyFor<R[S]>;
}[keyof R & SuccessStatus];

export interface RouteDeclaration<
  A extends Access,
  Path extends string,
  R extends Responses,
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends JsonSchema | undefined,
> {
  method: HttpMethod;
  /** koa-router syntax, e.g. `/v1/cases/:caseUrn`; a literal colon is written `\\:` in the string. */
  path: Path;
  /** Unique across all surfaces; also keys the per-route rate limits. */
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  /** Which OpenAPI document lists the route; derived from `access` unless it is public or any-token. */
  surface?: Surface;
  access: A;
  /** Path parameters; by default every `:name` is a non-empty string. */
  params?: P;
  /** Query parameters; without a schema the route accepts none. */
  query?: Q;
  /** JSON body; without a schema the route accepts none (or `{}`). */
  body?: B;
  /** A non-JSON body (a file upload) the handler reads from `ctx.req` itself; see `UploadSpec`. */
  upload?: UploadSpec;
  responses: R;
  /** Whether Idempotency-Key is honoured: true for writes unless turned off, never for reads. */
  idempotent?: boolean;
  cache?: CachePolicy;
  deprecated?: Deprecation;
  /** What the audit entry names; by default the first URN path parameter, else the response's `urn`. */
  audit?: AuditSubject;
  handler: (
    input: HandlerInput<A, ParamsOf<P, Path>, QueryOf<Q>, BodyOf<B>>,
  ) => Promise<HandlerResult<R>> | HandlerResult<R>;
}

/**
 * A request body the HTTP layer leaves unread: requests of `contentType` skip JSON parsing and
 * reach the handler with the stream in `ctx.req` (other media types are still refused with 415).
 * The handler parses and bounds the body itself; `schema` documents its parts in OpenAPI. The
 * Idempotency-Key fingerprint does not cover such a body.
 */
export interface UploadSpec {
  contentType: "multipart/form-data";
  schema: JsonSchema;
}

/**
 * How a route's audit entry is labelled (spec 5.5, 8: every authenticated write and every partner
 * read is audited). `action` defaults to the operationId.
 */
export interface AuditSubject {
  action?: string;
  subject?: (
    input: HandlerInput<any, any, any, any>,
    response: { status: number; body?: unknown },
  ) => {
    entityUrn?: string | null;
    caseUrn?: string | null;
  };
}

/** The raw answer of a handler, before headers are added. */
export interface HandlerOutput {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A declared route with defaults resolved and request schemas closed against unknown members. */
export interface Route {
  readonly method: HttpMethod;
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string | undefined;
  readonly tags: readonly string[];
  readonly surface: Surface;
  readonly access: Access;
  /** Covers every path parameter. */
  readonly params: ObjectSchema;
  readonly query: ObjectSchema | undefined;
  readonly body: JsonSchema | undefined;
  readonly upload: UploadSpec | undefined;
  readonly responses: Responses;
  readonly idempotent: boolean;
  readonly cache: CachePolicy;
  readonly deprecated: Deprecation | undefined;
  readonly audit: AuditSubject | undefined;
  readonly handler: (input: HandlerInput<any, any, any, any>) => Promise<HandlerOutput> | HandlerOutput;
}

const PATH_PARAM = /(?<!\\):([A-Za-z_$][\w$]*)/g;

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(PATH_PARAM)].map((m) => m[1]!);
}

/** Declares a route. Throws at once when the declaration contradicts itself. */
export function defineRoute<
  const A extends Access,
  const Path extends string,
  const R extends Responses,
  const P extends ObjectSchema | undefined = undefined,
  const Q extends ObjectSchema | undefined = undefined,
  const B extends JsonSchema | undefined = undefined,
>(declaration: RouteDeclaration<A, Path, R, P, Q, B>): Route {
  const where = `${declaration.method} ${declaration.path} (${declaration.operationId})`;
  const isRead = declaration.method === "GET";
  if (isRead && declaration.idempotent) throw new Error(`${where}: Idempotency-Key applies to writes only`);
  if (isRead && (declaration.body || declaration.upload))
    throw new Error(`${where}: a GET route takes no body`);
  if (declaration.body && declaration.upload) throw new Error(`${where}: declare a JSON body or an upload`);
  if (!Object.keys(declaration.responses).some((status) => Number(status) < 400)) {
    throw new Error(`${where}: declare at least one success response`);
  }
  if (declaration.deprecated) checkDeprecation(where, declaration.deprecated);
  return {
    method: declaration.method,
    path: declaration.path,
    operationId: declaration.operationId,
    summary: declaration.summary,
    description: declaration.description,
    tags: declaration.tags,
    surface: surfaceOf(where, declaration.access, declaration.surface),
    access: declaration.access,
    params: closeObjectSchemas(paramsSchema(where, declaration.path, declaration.params)),
    query: declaration.query && closeObjectSchemas(declaration.query),
    body: declaration.body === undefined ? undefined : closeObjectSchemas(declaration.body),
    upload: declaration.upload,
    responses: declaration.responses,
    idempotent: !isRead && declaration.idempotent !== false,
    cache:
      declaration.cache ?? (isRead && declaration.access.kind === "passenger" ? "passenger-private" : "none"),
    deprecated: declaration.deprecated,
    audit: declaration.audit,
    handler: declaration.handler as Route["handler"],
  };
}

/** Where the field manual (spec 4.2) places a route without the /v1 prefix, and how it names it. */
export interface FieldManualForm {
  path: string;
  operationId: string;
  /** The route's own summary unless given. */
  summary?: string;
  description?: string;
}

/**
 * The route and its field-manual form: the same access, schemas, audit and handler at the manual's
 * path, which must name the same path parameters.
 */
export function withFieldManualForm(route: Route, form: FieldManualForm): [Route, Route] {
  if (pathParamNames(form.path).join() !== pathParamNames(route.path).join()) {
    throw new Error(
      `${form.path} (${form.operationId}): the field-manual form must keep ${route.path}'s parameters`,
    );
  }
  return [route, { ...route, ...form }];
}

function surfaceOf(where: string, access: Access, declared: Surface | undefined): Surface {
  const implied = access.kind === "public" || access.kind === "any-token" ? undefined : access.kind;
  if (declared && implied && declared !== implied) {
    throw new Error(`${where}: surface ${declared} contradicts ${access.kind} access`);
  }
  const surface = declared ?? implied;
  if (!surface) throw new Error(`${where}: a ${access.kind} route must name its surface`);
  return surface;
}

function paramsSchema(where: string, path: string, declared: ObjectSchema | undefined): ObjectSchema {
  const names = pathParamNames(path);
  if (!declared) {
    return {
      type: "object",
      properties: Object.fromEntries(names.map((name) => [name, { type: "string", minLength: 1 }])),
      required: names,
    };
  }
  const declaredNames = Object.keys(declared.properties);
  const missing = names.filter((name) => !declaredNames.includes(name));
  const extra = declaredNames.filter((name) => !names.includes(name));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`${where}: params schema must describe exactly the path parameters ${names.join(", ")}`);
  }
  return { ...declared, required: names };
}

function checkDeprecation(where: string, deprecated: Deprecation): void {
  const since = Date.parse(deprecated.since);
  const sunset = Date.parse(deprecated.sunset);
  if (Number.isNaN(since) || Number.isNaN(sunset) || sunset <= since) {
    throw new Error(`${where}: deprecation needs ISO dates with sunset after since`);
  }
}
