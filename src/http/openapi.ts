/**
 * OpenAPI 3.1 documents, one per surface (spec 4.6, 9.5), built from the same route declarations
 * the router serves: paths, parameters, bodies and responses come from the declared schemas, and
 * the conventions every route shares (problems, rate-limit and trace headers, Idempotency-Key,
 * security) are added here once.
 */
import type { Access } from "./access.js";
import { IDEMPOTENCY_KEY_HEADER } from "./idempotency.js";
import type { JsonSchema } from "./json-schema.js";
import { PROBLEM_CONTENT_TYPE } from "./problem.js";
import { RATE_LIMIT_REMAINING_HEADER } from "./rate-limit.js";
import type { ResponseSpec, Route, Surface } from "./route.js";
import { fieldErrorSchema, problemSchema } from "./schemas/common.js";

export const SURFACES: readonly Surface[] = ["operator", "partner", "passenger"];

export interface OpenApiOptions {
  /** Version of the deployed build, shown as `info.version`. */
  version: string;
  /** Base address per surface ({base_url}, {passenger_base_url}); paths already start with /v1 or /partner/v1. */
  servers: Record<Surface, string>;
  /** The partner token endpoint, `{auth_url}/oauth/token`. */
  partnerTokenUrl: string;
}

export type OpenApiDocument = Record<string, unknown> & { openapi: "3.1.0"; paths: Record<string, PathItem> };
type PathItem = Record<string, Record<string, unknown>>;

const TITLES: Record<Surface, string> = {
  operator: "Operator API",
  partner: "Partner API",
  passenger: "Passenger API",
};

const DESCRIPTIONS: Record<Surface, string> = {
  operator:
    "Airline ground staff, supervisors, finance auditors and admins. OIDC bearer token (RS256 JWT); " +
    "roles: ADMIN inherits OPS_SUPERVISOR, AIRPORT_OPERATOR and FINANCE_AUDIT; OPS_SUPERVISOR inherits AIRPORT_OPERATOR.",
  partner: "B2B integrators. OAuth 2.0 client credentials; every operation declares the scope it needs.",
  passenger: "Disrupted passengers. Session token from a magic link or PNR login, scoped to one case.",
};

/** Spec 5.3. */
export const PARTNER_SCOPES: Record<string, string> = {
  "cases.read": "Read case state and manifests",
  "cases.events.subscribe": "Receive case lifecycle webhook events",
  "bookings.read": "Read reservations",
  "vouchers.read": "Read vouchers",
  "disruptions.events.subscribe": "Receive disruption events; list disruptions",
  "disruptions.events.publish": "Push disruptions",
  "policies.read": "Read active policies",
  "metrics.read": "Read the certified KPI catalog",
  "passenger.notify": "Send bounded, templated passenger messages",
  "cases.priority.request": "Request bounded priority elevation",
  "wallet.events.subscribe": "Receive wallet events",
};

const SECURITY_SCHEMES = {
  operatorBearer: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Operator access token (OIDC, RS256); the role is in the https://svc/role claim",
  },
  passengerSession: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Passenger session token, scoped to one case",
  },
} as const;

const PROBLEM_REF = { $ref: "#/components/schemas/Problem" };

/** Problem responses every operation may give, by status. */
const STANDARD_PROBLEMS: Record<string, string> = {
  "400": "The request is malformed or fails validation; `errors` lists the fields",
  "401": 'Token missing, invalid, expired or revoked; WWW-Authenticate: Bearer error="..." names the reason',
  "403": "Authenticated, but role, scope, airport or tenant do not allow this operation",
  "404": "Unknown resource",
  "409": "Conflicting state, or a request with the same Idempotency-Key is still in flight",
  "413": "The request body is too large",
  "415": "The request body is not JSON",
  "422": "The request cannot be processed, or its Idempotency-Key was used for another request",
  "429": "Rate limit exceeded; Retry-After gives the seconds to wait",
  "500": "Unexpected failure; quote the problem's instance to support",
  "503":
    "A downstream domain is unavailable (`unavailable/circuit-open`: `failedDomain` names it; do not retry automatically), or the service's data store is (`unavailable/store`); Retry-After gives the seconds to wait",
};

export function buildOpenApiDocument(
  surface: Surface,
  routes: readonly Route[],
  options: OpenApiOptions,
): OpenApiDocument {
  const ours = routes.filter((route) => route.surface === surface);
  const paths: Record<string, PathItem> = {};
  const operationIds = new Set<string>();
  for (const route of ours) {
    if (operationIds.has(route.operationId)) throw new Error(`Duplicate operationId ${route.operationId}`);
    operationIds.add(route.operationId);
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  const tags = [...new Set(ours.flatMap((route) => route.tags))].sort().map((name) => ({ name }));
  return {
    openapi: "3.1.0",
    info: {
      title: `Disruption Re-accommodation Service: ${TITLES[surface]}`,
      version: options.version,
      description: DESCRIPTIONS[surface],
    },
    servers: [{ url: options.servers[surface] }],
    tags,
    paths,
    components: {
      schemas: { Problem: problemSchema, FieldError: fieldErrorSchema },
      headers: {
        RateLimitRemaining: {
          description: "Requests left in the current rate-limit window",
          schema: { type: "integer", minimum: 0 },
        },
        RetryAfter: {
          description: "Seconds to wait before retrying",
          schema: { type: "integer", minimum: 1 },
        },
        Traceparent: {
          description: "W3C trace context of this request; the problem instance is urn:trace:<trace-id>",
          schema: { type: "string" },
        },
      },
      parameters: {
        IdempotencyKey: {
          name: IDEMPOTENCY_KEY_HEADER,
          in: "header",
          required: false,
          description:
            "Makes the write safe to retry: a replay within 24 h returns the first response with " +
            "Idempotent-Replayed: true; the same key with another payload is a 422 (UUID v4 recommended)",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
        Traceparent: {
          name: "traceparent",
          in: "header",
          required: false,
          description: "W3C trace context; minted when absent",
          schema: { type: "string" },
        },
      },
      securitySchemes: securitySchemes(surface, ours, options),
    },
  };
}

/** `/v1/cases/:caseUrn` → `/v1/cases/{caseUrn}`; `\:` → `:`. */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/(?<!\\):([A-Za-z_$][\w$]*)/g, "{$1}").replace(/\\(.)/g, "$1");
}

function securitySchemes(surface: Surface, routes: readonly Route[], options: OpenApiOptions) {
  if (surface === "operator") return { operatorBearer: SECURITY_SCHEMES.operatorBearer };
  if (surface === "passenger") return { passengerSession: SECURITY_SCHEMES.passengerSession };
  const used = routes.flatMap((route) => (route.access.kind === "partner" ? [route.access.scope] : []));
  const scopes = Object.fromEntries(
    [...new Set([...Object.keys(PARTNER_SCOPES), ...used])].map((scope) => [
      scope,
      PARTNER_SCOPES[scope] ?? scope,
    ]),
  );
  return {
    partnerOAuth: {
      type: "oauth2",
      description: "OAuth 2.0 client credentials; tokens last one hour",
      flows: { clientCredentials: { tokenUrl: options.partnerTokenUrl, scopes } },
    },
  };
}

function operation(route: Route): Record<string, unknown> {
  const isPublic = route.access.kind === "public";
  const parameters: unknown[] = [
    ...Object.entries(route.params.properties).map(([name, schema]) => parameter(name, "path", schema, true)),
    ...Object.entries(route.query?.properties ?? {}).map(([name, schema]) =>
      parameter(name, "query", schema, route.query?.required?.includes(name) ?? false),
    ),
    ...(route.idempotent ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
    { $ref: "#/components/parameters/Traceparent" },
  ];
  const problems = ["400", "404", "500", "503"];
  if (!isPublic) problems.push("401", "403", "429");
  if (route.method !== "GET") problems.push("409", "422");
  if (route.body !== undefined || route.upload !== undefined) problems.push("413", "415");
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    responses[status] =
      Number(status) >= 400 ? problemResponse(status, spec.description) : successResponse(route, spec);
  }
  for (const status of problems.sort())
    responses[status] ??= problemResponse(status, STANDARD_PROBLEMS[status]!);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: [route.description, accessDescription(route.access)].filter(Boolean).join("\n\n"),
    tags: [...route.tags],
    parameters,
    ...(route.body === undefined ? {} : { requestBody: requestBody(route.body) }),
    ...(route.upload === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { [route.upload.contentType]: { schema: route.upload.schema } },
          },
        }),
    responses,
    security: security(route),
    ...(route.deprecated ? { deprecated: true } : {}),
    "x-access": route.access,
  };
}

function parameter(name: string, location: "path" | "query", schema: JsonSchema, required: boolean) {
  const description = typeof schema === "object" ? schema.description : undefined;
  return { name, in: location, required, ...(description ? { description } : {}), schema };
}

function requestBody(schema: JsonSchema) {
  const required =
    typeof schema !== "object" || (schema.required?.length ?? 0) > 0 || schema.type !== "object";
  return { required, content: { "application/json": { schema } } };
}

function successResponse(route: Route, spec: ResponseSpec) {
  const headers: Record<string, unknown> = {
    traceparent: { $ref: "#/components/headers/Traceparent" },
    ...(route.access.kind === "public"
      ? {}
      : { [RATE_LIMIT_REMAINING_HEADER]: { $ref: "#/components/headers/RateLimitRemaining" } }),
  };
  if (route.idempotent) {
    headers["Idempotent-Replayed"] = {
      description:
        "true when this is the stored response of an earlier request with the same Idempotency-Key",
      schema: { type: "string", enum: ["true"] },
    };
  }
  if (route.cache === "passenger-private") {
    headers["Cache-Control"] = { description: "private, max-age=60", schema: { type: "string" } };
    headers.Vary = { description: "Authorization", schema: { type: "string" } };
  }
  if (route.deprecated) {
    headers.Deprecation = {
      description: `Deprecated since ${route.deprecated.since}`,
      schema: { type: "string" },
    };
    headers.Sunset = { description: `Removed after ${route.deprecated.sunset}`, schema: { type: "string" } };
  }
  for (const [name, header] of Object.entries(spec.headers ?? {})) {
    headers[name] = { description: header.description, schema: header.schema ?? { type: "string" } };
  }
  return {
    description: spec.description,
    headers,
    ...(spec.schema === undefined
      ? // A body without one schema (an event stream) still names its media type.
        spec.contentType
        ? { content: { [spec.contentType]: {} } }
        : {}
      : { content: { [spec.contentType ?? "application/json"]: { schema: spec.schema } } }),
  };
}

const PROBLEM_HEADERS: Record<string, Record<string, unknown>> = {
  "401": {
    "WWW-Authenticate": {
      description: 'Bearer error="invalid_token", "expired_token" or "insufficient_scope"',
      schema: { type: "string" },
    },
  },
  "429": { "Retry-After": { $ref: "#/components/headers/RetryAfter" } },
  "503": { "Retry-After": { $ref: "#/components/headers/RetryAfter" } },
};

function problemResponse(status: string, description: string) {
  return {
    description,
    ...(PROBLEM_HEADERS[status] ? { headers: PROBLEM_HEADERS[status] } : {}),
    content: { [PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF } },
  };
}

function security(route: Route): Record<string, string[]>[] {
  switch (route.access.kind) {
    case "public":
      return [];
    case "partner":
      return [{ partnerOAuth: [route.access.scope] }];
    default:
      return route.surface === "operator"
        ? [{ operatorBearer: [] }]
        : route.surface === "passenger"
          ? [{ passengerSession: [] }]
          : [{ partnerOAuth: [] }];
  }
}

function accessDescription(access: Access): string {
  switch (access.kind) {
    case "public":
      return "Access: no token.";
    case "any-token":
      return "Access: any valid token.";
    case "operator":
      return `Access: role ${access.anyOf.join(" or ")} (or one inheriting it)${access.airportScoped ? ", within the operator's airport" : ""}.`;
    case "partner":
      return `Access: scope ${access.scope}.`;
    case "passenger":
      return "Access: passenger session of the case.";
  }
}
