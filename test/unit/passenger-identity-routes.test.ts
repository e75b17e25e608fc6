import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import { Validator } from "@seriousme/openapi-schema-validator";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { generateKeyPair, SignJWT } from "jose";
import Koa from "koa";
import { afterEach, describe, expect, it } from "vitest";
import { createAuthenticator } from "../../src/http/auth/authenticator.js";
import { EmergencyRevocationList } from "../../src/http/auth/emergency-revocations.js";
import { httpConventions, serveRoutes } from "../../src/http/request-pipeline.js";
import { buildOpenApiDocument } from "../../src/http/openapi.js";
import { defineRoute } from "../../src/http/route.js";
import { CounterStoreRevokedGrants } from "../../src/http/auth/revoked-grants.js";
import { DocumentPassengerDirectory } from "../../src/passenger-identity/document-passenger-directory.js";
import { sessionCookie } from "../../src/passenger-identity/session-cookie.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { CASE, passengerIdentity, riveraLogin, ZX } from "./passenger-identity-fixture.js";

const servers: { close(): void }[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A port nothing listens on: the operator identity provider is down. */
async function closedPort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * The passenger API as the lead wires it: the auth routes plus one passenger-only route, behind the
 * shared authenticator whose operator and partner issuers point at a dead identity provider.
 */
async function passengerApi() {
  const clock = new ManualClock("2026-03-01T10:00:00Z");
  const counters = new MemoryCounterStore(clock);
  const documents = new MemoryDocumentStore();
  const identity = await passengerIdentity({ counters, documents, clock });
  await new DocumentPassengerDirectory(documents).upsert(riveraLogin());
  const deadIdp = `http://127.0.0.1:${await closedPort()}/auth`;
  const authenticator = createAuthenticator({
    operator: { issuer: deadIdp, audience: "http://localhost:8080/v1", jwksUri: `${deadIdp}/jwks` },
    partner: { issuer: deadIdp, audience: "http://localhost:8080/partner/v1", jwksUri: `${deadIdp}/jwks` },
    passenger: { issuer: identity.issuer, audience: identity.audience, jwks: identity.jwks },
    partnerRegistrations: async () => undefined,
    revocations: new EmergencyRevocationList(documents, clock),
    revokedGrants: new CounterStoreRevokedGrants(counters),
    clock,
  });
  const me = defineRoute({
    method: "GET",
    path: "/v1/me",
    operationId: "testPassengerMe",
    summary: "The caller",
    tags: ["Test"],
    access: { kind: "passenger" },
    responses: { 200: { description: "caller", schema: { type: "object" } } },
    handler: ({ principal }) => ({
      status: 200,
      body: { caseUrn: principal.caseUrn, groupId: principal.groupId },
    }),
  });
  const operatorOnly = defineRoute({
    method: "GET",
    path: "/v1/cases",
    operationId: "testOperatorCases",
    summary: "Operator route",
    tags: ["Test"],
    access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] },
    responses: { 200: { description: "cases", schema: { type: "object" } } },
    handler: () => ({ status: 200, body: {} }),
  });
  const app = new Koa();
  app.use(httpConventions());
  app.use(
    serveRoutes(
      [...identity.routes((ctx) => (ctx.hostname === "127.0.0.1" ? ZX : undefined)), me, operatorOnly],
      {
        authenticate: (ctx, access) => authenticator.authenticate(ctx, access),
        counters,
        clock,
      },
    ),
  );
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return { base, post, identity, clock };
}

async function solvedCaptcha(base: string): Promise<string> {
  const response = await fetch(`${base}/v1/auth/captcha`);
  expect(response.status).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const challenge = await response.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

describe("passenger authentication routes", () => {
  it("log in with PNR, last name and a solved captcha, and the token opens passenger routes", async () => {
    const { base, post, identity } = await passengerApi();
    const response = await post("/v1/auth/pnr-login", {
      pnr: "abc123",
      lastName: "RIVERA",
      captcha: await solvedCaptcha(base),
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["caseUrn", "expiresAt", "sessionToken"]);
    expect(body.caseUrn).toBe(CASE);
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${body.sessionToken}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ caseUrn: CASE, groupId: "g-1" });
    // A browser gets the same session as the magic-link exchange gives it: an HttpOnly cookie.
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^passenger_session=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Strict; Secure$/);
    await expect(identity.sessions.verify(/^passenger_session=([^;]+)/.exec(cookie)![1]!)).resolves.toMatchObject({
      caseUrn: CASE,
    });
  });

  it("keep passenger login and token checks working while the operator identity provider is down", async () => {
    const { base, post, identity } = await passengerApi();
    // The operator side really is down: its tokens cannot be checked.
    const rsa = await generateKeyPair("RS256");
    const operatorToken = await new SignJWT({})
      .setProtectedHeader({ alg: "RS256", kid: "k1", typ: "at+jwt" })
      .sign(rsa.privateKey);
    const operator = await fetch(`${base}/v1/cases`, {
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    expect(operator.status).toBe(503);
    expect((await operator.json()).failedDomain).toBe("identity");

    const login = await post("/v1/auth/pnr-login", {
      pnr: "ABC123",
      lastName: "Rivera",
      captcha: await solvedCaptcha(base),
    });
    expect(login.status).toBe(200);
    const { sessionToken } = await login.json();
    await expect(identity.sessions.verify(sessionToken)).resolves.toMatchObject({ caseUrn: CASE });
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${sessionToken}` } });
    expect(me.status).toBe(200);
  });

  it("answer login failures as problems: 400 for the captcha, 401 generic, 429 with Retry-After", async () => {
    const { base, post } = await passengerApi();
    const garbage = await post("/v1/auth/pnr-login", {
      pnr: "ABC123",
      lastName: "Rivera",
      captcha: "garbage",
    });
    expect(garbage.status).toBe(400);
    expect((await garbage.json()).type).toMatch(/\/invalid\/captcha-invalid$/);
    const wrong = await post("/v1/auth/pnr-login", {
      pnr: "ABC123",
      lastName: "Nope",
      captcha: await solvedCaptcha(base),
    });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).type).toMatch(/\/unauthorized\/pnr-login-failed$/);
    const missingField = await post("/v1/auth/pnr-login", { pnr: "ABC123", lastName: "Rivera" });
    expect(missingField.status).toBe(400);
    for (let i = 0; i < 3; i++)
      await post("/v1/auth/pnr-login", { pnr: "ABC123", lastName: "x", captcha: "" });
    const limited = await post("/v1/auth/pnr-login", { pnr: "ABC123", lastName: "Rivera", captcha: "" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe(String(15 * 60));
  });

  it("exchange a magic link for an HttpOnly, Secure, SameSite=Strict session cookie, once", async () => {
    const { post, identity } = await passengerApi();
    const link = await identity.magicLinks.issueMagicLink({ tenant: ZX, caseUrn: CASE, groupId: "g-1" });
    const response = await post("/v1/auth/magic-link/exchange", { token: link.token });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.caseUrn).toBe(CASE);
    const cookie = response.headers.get("set-cookie") ?? "";
    const match =
      /^passenger_session=([^;]+); Path=\/; Expires=([^;]+); HttpOnly; SameSite=Strict; Secure$/.exec(cookie);
    expect(match).not.toBeNull();
    expect(new Date(match![2]!).toISOString()).toBe(body.expiresAt);
    await expect(identity.sessions.verify(match![1]!)).resolves.toMatchObject({ caseUrn: CASE });
    const again = await post("/v1/auth/magic-link/exchange", { token: link.token });
    expect(again.status).toBe(401);
    expect(again.headers.get("set-cookie")).toBeNull();
  });
});

describe("passenger authentication in the OpenAPI document", () => {
  it("lists the three routes as public passenger operations in a valid document", async () => {
    const { identity } = await passengerApi();
    const document = buildOpenApiDocument(
      "passenger",
      identity.routes(() => ZX),
      {
        version: "test",
        servers: {
          operator: "http://localhost:8080",
          partner: "http://localhost:8080",
          passenger: identity.issuer,
        },
        partnerTokenUrl: "http://localhost:8080/auth/oauth/token",
      },
    );
    expect(Object.keys(document.paths).sort()).toEqual([
      "/v1/auth/captcha",
      "/v1/auth/magic-link/exchange",
      "/v1/auth/pnr-login",
    ]);
    expect(document.paths["/v1/auth/pnr-login"]!.post!.security).toEqual([]);
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });
});

describe("session cookie", () => {
  it("leaves Secure off only for a plain-HTTP passenger host", () => {
    const cookie = sessionCookie("t", "2026-03-08T10:00:00.000Z", false);
    expect(cookie).toBe(
      "passenger_session=t; Path=/; Expires=Sun, 08 Mar 2026 10:00:00 GMT; HttpOnly; SameSite=Strict",
    );
  });
});
