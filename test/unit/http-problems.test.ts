import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError, type DomainErrorKind } from "../../src/domain/domain-error.js";
import type { Principal } from "../../src/app/principals.js";
import { UnauthorizedError } from "../../src/http/errors.js";
import { CircuitOpenError } from "../../src/vendors/circuit-open-error.js";
import { StoreUnavailableError } from "../../src/runtime/store-unavailable-error.js";
import type { Authenticate } from "../../src/http/request-pipeline.js";
import { pageQuery } from "../../src/http/pagination.js";
import { defineRoute } from "../../src/http/route.js";
import { urnOf } from "../../src/http/schemas/common.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { type ServedRoutes, serve } from "./http-server-fixture.js";

const TENANT = "urn:airline:XY";
const principals: Record<string, Principal> = {
  supervisor: {
    surface: "operator",
    actorUrn: "urn:user:sup",
    tenant: TENANT,
    role: "OPS_SUPERVISOR",
    amr: ["pwd", "otp"],
    expiresAt: 0,
  },
  passenger: {
    surface: "passenger",
    actorUrn: "urn:passenger-session:p1",
    tenant: TENANT,
    caseUrn: "urn:case:1",
    groupId: "g1",
    expiresAt: 0,
  },
};

/** Stands in for the identity helper's authenticator: the bearer token is a principal's name. */
const authenticate: Authenticate = async (ctx, access) => {
  const token = /^Bearer (.+)$/.exec(ctx.get("Authorization"))?.[1];
  if (token === "expired") throw new UnauthorizedError("expired_token");
  const principal = token ? principals[token] : undefined;
  if (!principal) throw new UnauthorizedError("invalid_token");
  if (access.kind === "operator" && principal.surface === "operator" && principal.role !== "OPS_SUPERVISOR") {
    throw new DomainError("forbidden", "role-not-allowed", "no");
  }
  return principal;
};

const logLines: Record<string, unknown>[] = [];
const logger = pino(
  {},
  new Writable({
    write(chunk, _encoding, done) {
      logLines.push(JSON.parse(String(chunk)));
      done();
    },
  }),
);

const operator = { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] } as const;

const routes = [
  defineRoute({
    method: "POST",
    path: "/v1/flights",
    operationId: "createFlight",
    summary: "Create a flight",
    tags: ["Test"],
    access: operator,
    body: {
      type: "object",
      required: ["flight"],
      properties: {
        flight: {
          type: "object",
          required: ["number"],
          properties: {
            number: { type: "string", pattern: "^[A-Z0-9]{2}[0-9]{1,4}$" },
            date: { type: "string" },
          },
        },
        notes: { type: "object", description: "free-form" },
      },
    },
    responses: {
      201: { description: "created", schema: { type: "object", properties: { number: { type: "string" } } } },
    },
    handler: ({ body, log }) => {
      log.info({ flight: body.flight.number }, "flight created");
      return { status: 201, body: { number: body.flight.number } };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/cases",
    operationId: "listCases",
    summary: "List cases",
    tags: ["Test"],
    access: operator,
    query: pageQuery({ status: { type: "string", enum: ["OPEN", "CLOSED"] } }),
    responses: { 200: { description: "page" } },
    handler: ({ query }) => ({ status: 200, body: query }),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/cases/:caseUrn",
    operationId: "getCase",
    summary: "Get a case",
    tags: ["Test"],
    access: operator,
    params: { type: "object", properties: { caseUrn: urnOf("case") } },
    responses: { 200: { description: "case" } },
    handler: ({ params }) => ({ status: 200, body: { urn: params.caseUrn } }),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/fail/:kind",
    operationId: "failWithDomainError",
    summary: "Fail",
    tags: ["Test"],
    access: operator,
    responses: { 200: { description: "never" } },
    handler: ({ params }) => {
      throw new DomainError(params.kind as DomainErrorKind, "sub-case-locked", "Refused by the domain", {
        lockedBy: "urn:user:other",
        expiresInSeconds: 42,
        status: 999,
      });
    },
  }),
  defineRoute({
    method: "POST",
    path: "/v1/vendor-refusal",
    operationId: "vendorRefusal",
    summary: "Fail like a vendor",
    tags: ["Test"],
    access: operator,
    responses: { 200: { description: "never" } },
    handler: () => {
      throw new DomainError("unprocessable", "rate-not-available", "Offer is stale", {
        vendorErrorCode: "RATE_NOT_AVAILABLE",
      });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/boom",
    operationId: "boom",
    summary: "Crash",
    tags: ["Test"],
    access: operator,
    responses: { 200: { description: "never" } },
    handler: () => {
      throw new Error("secret database password in /srv/app.js:12");
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/circuit",
    operationId: "circuitOpen",
    summary: "Downstream down",
    tags: ["Test"],
    access: operator,
    responses: { 200: { description: "never" } },
    handler: () => {
      throw new CircuitOpenError("booking");
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/store-down",
    operationId: "storeDown",
    summary: "Store down",
    tags: ["Test"],
    access: operator,
    responses: { 200: { description: "never" } },
    handler: () => {
      throw new StoreUnavailableError({ cause: new Error("connect ECONNREFUSED 10.0.0.7:6379 (secret)") });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/v1/me/offer",
    operationId: "getOffer",
    summary: "Offer",
    tags: ["Test"],
    access: { kind: "passenger" },
    responses: { 200: { description: "offer" } },
    handler: () => ({ status: 200, body: { hotel: "H" } }),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/me/check-in",
    operationId: "checkIn",
    summary: "Check in",
    tags: ["Test"],
    access: { kind: "passenger" },
    responses: { 204: { description: "done" } },
    handler: () => ({ status: 204 }),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/old",
    operationId: "oldThing",
    summary: "Deprecated",
    tags: ["Test"],
    access: operator,
    deprecated: { since: "2026-01-01T00:00:00Z", sunset: "2027-01-01T00:00:00Z" },
    responses: { 200: { description: "old" } },
    handler: () => ({ status: 200, body: {} }),
  }),
];

let served: ServedRoutes;
let base: string;

beforeAll(async () => {
  const clock = new ManualClock();
  served = await serve(
    routes,
    {
      authenticate,
      counters: new MemoryCounterStore(clock),
      clock,
      logger,
      bodyLimit: 256,
    },
    { logger },
  );
  base = served.base;
});

afterAll(async () => {
  served.close();
});

async function call(
  method: string,
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { authorization: "Bearer supervisor", ...init.headers };
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  const response = await fetch(base + path, { method, headers, body: init.body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: text ? JSON.parse(text) : undefined,
  };
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** Every problem: RFC 7807 members, problem+json, instance = the correlation URN of the traceparent. */
function expectProblem(response: Awaited<ReturnType<typeof call>>, status: number, typeSuffix: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const traceId = TRACEPARENT.exec(response.headers.get("traceparent") ?? "")?.[1];
  expect(traceId).toBeDefined();
  expect(response.json).toMatchObject({
    type: `https://errors.svc.example/v1/${typeSuffix}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: `urn:trace:${traceId}`,
  });
  return response.json as Record<string, unknown>;
}

describe("problem responses", () => {
  it("answers an unknown route with a 404 problem", async () => {
    expectProblem(await call("GET", "/v1/nowhere"), 404, "not-found/route");
  });

  it("answers a known path with the wrong method with a 405 problem and Allow", async () => {
    const response = await call("DELETE", "/v1/cases");
    expectProblem(response, 405, "invalid/method-not-allowed");
    expect(response.headers.get("allow")).toContain("GET");
  });

  it("answers malformed JSON with a 400 problem", async () => {
    expectProblem(await call("POST", "/v1/flights", { body: '{"flight": ' }), 400, "invalid/malformed-json");
  });

  it("answers a body over the limit with a 413 problem", async () => {
    const body = JSON.stringify({ flight: { number: "XY1" }, notes: { text: "x".repeat(400) } });
    expectProblem(await call("POST", "/v1/flights", { body }), 413, "invalid/body-too-large");
  });

  it("answers a body that is not JSON with a 415 problem", async () => {
    const response = await call("POST", "/v1/flights", {
      body: "number=1",
      headers: { "content-type": "text/plain" },
    });
    expectProblem(response, 415, "invalid/unsupported-media-type");
  });

  it("lists field-level errors as JSON pointers", async () => {
    const problem = expectProblem(
      await call("POST", "/v1/flights", {
        body: JSON.stringify({ flight: { number: "bad number", date: 3 } }),
      }),
      400,
      "invalid/validation-failed",
    );
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { in: "body", field: "/flight/number", message: expect.stringContaining("pattern") },
        { in: "body", field: "/flight/date", message: "must be string" },
      ]),
    );
  });

  it("names a missing required field by its own pointer", async () => {
    const problem = expectProblem(
      await call("POST", "/v1/flights", { body: "{}" }),
      400,
      "invalid/validation-failed",
    );
    expect(problem.errors).toEqual([{ in: "body", field: "/flight", message: "is required" }]);
  });

  it("refuses unknown fields at every depth, but not inside a free-form object", async () => {
    const body = JSON.stringify({
      flight: { number: "XY12", gate: "B4" },
      extra: 1,
      notes: { anything: true },
    });
    const problem = expectProblem(
      await call("POST", "/v1/flights", { body }),
      400,
      "invalid/validation-failed",
    );
    expect(problem.errors).toEqual([
      { in: "body", field: "/extra", message: "is not an accepted field" },
      { in: "body", field: "/flight/gate", message: "is not an accepted field" },
    ]);
  });

  it("refuses unknown query parameters and coerces declared ones", async () => {
    const unknown = expectProblem(await call("GET", "/v1/cases?sort=asc"), 400, "invalid/validation-failed");
    expect(unknown.errors).toEqual([{ in: "query", field: "/sort", message: "is not an accepted field" }]);
    const ok = await call("GET", "/v1/cases?limit=7&status=OPEN");
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ limit: 7, status: "OPEN" });
    expect((await call("GET", "/v1/cases")).json).toEqual({ limit: 50 });
    const tooMany = expectProblem(await call("GET", "/v1/cases?limit=201"), 400, "invalid/validation-failed");
    expect(tooMany.errors).toEqual([{ in: "query", field: "/limit", message: "must be <= 200" }]);
  });

  it.each(["offset", "page"])("refuses %s pagination on every route", async (name) => {
    for (const path of [`/v1/cases?${name}=2`, `/v1/cases/urn%3Acase%3A1?${name}=2`]) {
      const problem = expectProblem(await call("GET", path), 400, "invalid/pagination-not-supported");
      expect(problem.errors).toEqual([{ in: "query", field: `/${name}`, message: expect.any(String) }]);
    }
  });

  it("validates URL-decoded path parameters", async () => {
    expect((await call("GET", "/v1/cases/urn%3Acase%3A77")).json).toEqual({ urn: "urn:case:77" });
    const problem = expectProblem(
      await call("GET", "/v1/cases/urn%3Ahotel%3A77"),
      400,
      "invalid/validation-failed",
    );
    expect(problem.errors).toEqual([
      { in: "path", field: "/caseUrn", message: expect.stringContaining("pattern") },
    ]);
  });

  it("lists the invalid fields of path, query and body together", async () => {
    const problem = expectProblem(
      await call("GET", "/v1/cases/urn%3Ahotel%3A77?x=1"),
      400,
      "invalid/validation-failed",
    );
    expect(problem.errors).toEqual([
      { in: "path", field: "/caseUrn", message: expect.stringContaining("pattern") },
      { in: "query", field: "/x", message: "is not an accepted field" },
    ]);
  });

  it.each([
    ["invalid", 400],
    ["not-found", 404],
    ["conflict", 409],
    ["forbidden", 403],
    ["unprocessable", 422],
    ["unavailable", 503],
  ] as const)("maps a DomainError of kind %s to %i with its details as members", async (kind, status) => {
    const problem = expectProblem(await call("POST", `/v1/fail/${kind}`), status, `${kind}/sub-case-locked`);
    expect(problem.detail).toBe("Refused by the domain");
    expect(problem).toMatchObject({ lockedBy: "urn:user:other", expiresInSeconds: 42 });
    expect(problem.status).toBe(status);
  });

  it("carries a vendor's error code in X-Vendor-Error-Code", async () => {
    const response = await call("POST", "/v1/vendor-refusal");
    expectProblem(response, 422, "unprocessable/rate-not-available");
    expect(response.headers.get("x-vendor-error-code")).toBe("RATE_NOT_AVAILABLE");
  });

  it("answers an unexpected error with a bare 500 that leaks nothing, and logs it", async () => {
    const response = await call("GET", "/v1/boom");
    const problem = expectProblem(response, 500, "internal/unexpected");
    expect(Object.keys(problem).sort()).toEqual(["detail", "instance", "status", "title", "type"]);
    expect(response.text).not.toMatch(/secret|app\.js|at /);
    const traceId = TRACEPARENT.exec(response.headers.get("traceparent")!)![1];
    const logged = logLines.find((line) => line.msg === "request failed" && line.traceId === traceId);
    expect(logged?.err).toMatchObject({ message: expect.stringContaining("secret") });
  });

  it("answers an open circuit with 503, failedDomain and Retry-After: 30", async () => {
    const response = await call("GET", "/v1/circuit");
    const problem = expectProblem(response, 503, "unavailable/circuit-open");
    expect(problem.failedDomain).toBe("booking");
    expect(response.headers.get("retry-after")).toBe("30");
  });

  it("answers a store outage with 503 unavailable/store and Retry-After, without the driver's message, and logs it", async () => {
    const response = await call("GET", "/v1/store-down");
    const problem = expectProblem(response, 503, "unavailable/store");
    expect(Object.keys(problem).sort()).toEqual(["detail", "instance", "status", "title", "type"]);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.text).not.toMatch(/secret|ECONNREFUSED|6379/);
    const traceId = TRACEPARENT.exec(response.headers.get("traceparent")!)![1];
    const logged = logLines.find((line) => line.msg === "request failed" && line.traceId === traceId);
    expect(logged?.err).toMatchObject({ message: expect.stringContaining("ECONNREFUSED") });
  });

  it("answers a missing or expired token with 401 and the reason in WWW-Authenticate", async () => {
    const missing = await call("GET", "/v1/cases", { headers: { authorization: "" } });
    expectProblem(missing, 401, "unauthorized/invalid-token");
    expect(missing.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    const expired = await call("GET", "/v1/cases", { headers: { authorization: "Bearer expired" } });
    expectProblem(expired, 401, "unauthorized/expired-token");
    expect(expired.headers.get("www-authenticate")).toBe('Bearer error="expired_token"');
  });

  it("refuses a token of another surface with 401", async () => {
    const response = await call("GET", "/v1/cases", { headers: { authorization: "Bearer passenger" } });
    expectProblem(response, 401, "unauthorized/invalid-token");
  });
});

describe("tracing", () => {
  it("continues a valid traceparent with a new span and uses its trace id as the instance", async () => {
    const incoming = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const response = await call("GET", "/v1/nowhere", { headers: { traceparent: incoming } });
    const [, traceId, spanId] = TRACEPARENT.exec(response.headers.get("traceparent")!)!;
    expect(traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(spanId).not.toBe("00f067aa0ba902b7");
    expect(response.json.instance).toBe("urn:trace:4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it.each([
    ["absent", undefined],
    ["malformed", "garbage"],
    ["all-zero trace id", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"],
    ["forbidden version", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"],
  ])("mints a new trace when the header is %s", async (_case, header) => {
    const response = await call("GET", "/v1/cases", { headers: header ? { traceparent: header } : {} });
    expect(response.status).toBe(200);
    const traceId = TRACEPARENT.exec(response.headers.get("traceparent")!)?.[1];
    expect(traceId).toMatch(/^(?!0+$)[0-9a-f]{32}$/);
    expect(traceId).not.toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it("mints a different trace per request", async () => {
    const a = (await call("GET", "/v1/cases")).headers.get("traceparent");
    const b = (await call("GET", "/v1/cases")).headers.get("traceparent");
    expect(a).not.toBe(b);
  });

  it("puts the trace id on log lines written while serving the request", async () => {
    const response = await call("POST", "/v1/flights", {
      body: JSON.stringify({ flight: { number: "XY12" } }),
    });
    expect(response.status).toBe(201);
    const [, traceId, spanId] = TRACEPARENT.exec(response.headers.get("traceparent")!)!;
    const line = logLines.find((l) => l.msg === "flight created" && l.flight === "XY12");
    expect(line).toMatchObject({ traceId, spanId });
  });
});

describe("cache and deprecation headers", () => {
  it("marks passenger reads private for 60 s, varying by Authorization", async () => {
    const response = await call("GET", "/v1/me/offer", { headers: { authorization: "Bearer passenger" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
    expect(response.headers.get("vary")).toBe("Authorization");
  });

  it("does not mark passenger writes, operator reads or failures cacheable", async () => {
    const write = await call("POST", "/v1/me/check-in", { headers: { authorization: "Bearer passenger" } });
    expect(write.status).toBe(204);
    expect(write.headers.get("cache-control")).toBeNull();
    expect((await call("GET", "/v1/cases")).headers.get("cache-control")).toBeNull();
    const refused = await call("GET", "/v1/me/offer", { headers: { authorization: "Bearer nobody" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("cache-control")).toBeNull();
  });

  it("adds Deprecation and Sunset to every response of a deprecated route, errors included", async () => {
    for (const authorization of ["Bearer supervisor", "Bearer nobody"]) {
      const response = await call("GET", "/v1/old", { headers: { authorization } });
      expect(response.headers.get("deprecation")).toBe(`@${Date.parse("2026-01-01T00:00:00Z") / 1000}`);
      expect(response.headers.get("sunset")).toBe("Fri, 01 Jan 2027 00:00:00 GMT");
    }
    expect((await call("GET", "/v1/cases")).headers.get("deprecation")).toBeNull();
  });
});
