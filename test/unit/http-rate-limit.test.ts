import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PartnerPrincipal, PassengerPrincipal, Principal } from "../../src/app/principals.js";
import { UnauthorizedError } from "../../src/http/errors.js";
import type { Authenticate } from "../../src/http/request-pipeline.js";
import { RateLimiter } from "../../src/http/rate-limit.js";
import { defineRoute } from "../../src/http/route.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { type ServedRoutes, serve } from "./http-server-fixture.js";

const operator = (tenant = "urn:airline:XY"): Principal => ({
  surface: "operator",
  actorUrn: "urn:user:ann",
  tenant,
  role: "ADMIN",
  amr: ["pwd", "otp"],
  expiresAt: 0,
});
const passenger = (session: string, tenant = "urn:airline:XY"): PassengerPrincipal => ({
  surface: "passenger",
  actorUrn: `urn:passenger-session:${session}`,
  tenant,
  caseUrn: "urn:case:1",
  groupId: "g1",
  expiresAt: 0,
});
const partner = (tier: 1 | 2 | 3, clientId = "client-1"): PartnerPrincipal => ({
  surface: "partner",
  actorUrn: "urn:partner:p1",
  clientId,
  tenant: "urn:airline:XY",
  scopes: new Set(["cases.read"]),
  tier,
  expiresAt: 0,
});

const READ = { operationId: "listCases", method: "GET" };
const WRITE = { operationId: "createCase", method: "POST" };

let clock: ManualClock;
let limiter: RateLimiter;

beforeEach(() => {
  clock = new ManualClock();
  limiter = new RateLimiter(new MemoryCounterStore(clock), clock);
});

/** Takes tokens until the first refusal; returns how many were granted. */
async function drain(principal: Principal, operation: typeof READ, atMost = 5000): Promise<number> {
  for (let granted = 0; granted < atMost; granted++) {
    if (!(await limiter.take(principal, operation)).allowed) return granted;
  }
  throw new Error(`more than ${atMost} requests were allowed`);
}

describe("spec 8.1 buckets", () => {
  it.each([
    ["operator read", operator(), READ, 900, 600],
    ["operator write", operator(), WRITE, 180, 120],
    ["partner Tier-1 read", partner(1), READ, 1200, 1200],
    ["partner Tier-1 write", partner(1), WRITE, 240, 240],
    ["partner Tier-2 read", partner(2), READ, 600, 600],
    ["partner Tier-2 write", partner(2), WRITE, 120, 120],
    ["partner Tier-3 read", partner(3), READ, 60, 60],
    ["partner Tier-3 write", partner(3), WRITE, 10, 10],
  ] as const)(
    "%s: a burst of %i, then %i a minute",
    async (_name, principal, operation, burst, perMinute) => {
      expect(await drain(principal, operation)).toBe(burst);
      await clock.advance(60_000);
      expect(await drain(principal, operation)).toBe(perMinute);
    },
  );

  it("passenger: 30 reads and 10 writes a minute per session", async () => {
    expect(await drain(passenger("s1"), READ)).toBe(30);
    expect(await drain(passenger("s1"), WRITE)).toBe(10);
    expect(await drain(passenger("s2"), WRITE)).toBe(10);
  });

  it("passenger: per tenant per route, 300 reads a minute with bursts of 2x across sessions", async () => {
    let granted = 0;
    for (let i = 0; (await limiter.take(passenger(`s${i}`), READ)).allowed; i++) granted++;
    expect(granted).toBe(600);
    await clock.advance(60_000);
    granted = 0;
    for (let i = 0; (await limiter.take(passenger(`t${i}`), READ)).allowed; i++) granted++;
    expect(granted).toBe(300);
  });

  it("passenger: per tenant per route, 30 writes a minute with bursts of 2x", async () => {
    let granted = 0;
    for (let i = 0; (await limiter.take(passenger(`s${i}`), WRITE)).allowed; i++) granted++;
    expect(granted).toBe(60);
  });

  it("separates tenants, routes and partner registrations", async () => {
    expect(await drain(operator("urn:airline:AA"), WRITE)).toBe(180);
    expect((await limiter.take(operator("urn:airline:BB"), WRITE)).allowed).toBe(true);
    expect(
      (await limiter.take(operator("urn:airline:AA"), { ...WRITE, operationId: "closeCase" })).allowed,
    ).toBe(true);
    expect(await drain(partner(3, "client-1"), WRITE)).toBe(10);
    expect((await limiter.take(partner(3, "client-2"), WRITE)).allowed).toBe(true);
  });
});

describe("over HTTP", () => {
  const principals: Record<string, Principal> = { ann: operator(), s1: passenger("s1") };
  const authenticate: Authenticate = async (ctx) => {
    const principal = principals[/^Bearer (.+)$/.exec(ctx.get("Authorization"))?.[1] ?? ""];
    if (!principal) throw new UnauthorizedError("invalid_token");
    return principal;
  };
  let served: ServedRoutes;
  let base: string;
  let runs: number;

  beforeEach(async () => {
    runs = 0;
    const routes = [
      defineRoute({
        method: "POST",
        path: "/v1/me/problem",
        operationId: "reportProblem",
        summary: "Report a problem",
        tags: ["Test"],
        access: { kind: "passenger" },
        responses: { 202: { description: "reported" } },
        handler: () => ({ status: 202, body: { run: ++runs } }),
      }),
      defineRoute({
        method: "GET",
        path: "/v1/cases",
        operationId: "listCases",
        summary: "List",
        tags: ["Test"],
        access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] },
        responses: { 200: { description: "cases" } },
        handler: () => ({ status: 200, body: [] }),
      }),
      defineRoute({
        method: "GET",
        path: "/version",
        operationId: "getVersion",
        summary: "Version",
        tags: ["Test"],
        surface: "operator",
        access: { kind: "public" },
        responses: { 200: { description: "version" } },
        handler: () => ({ status: 200, body: { build: "x" } }),
      }),
    ];
    served = await serve(routes, { authenticate, counters: new MemoryCounterStore(clock), clock });
    base = served.base;
  });

  afterEach(() => {
    served.close();
  });

  async function report(key?: string) {
    const headers: Record<string, string> = { authorization: "Bearer s1" };
    if (key) headers["idempotency-key"] = key;
    const response = await fetch(`${base}/v1/me/problem`, { method: "POST", headers });
    return { status: response.status, headers: response.headers, json: await response.json() };
  }

  it("counts X-RateLimit-Remaining down exactly, then answers 429 with Retry-After, then refills", async () => {
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await report();
      expect(response.status).toBe(202);
      remaining.push(response.headers.get("x-ratelimit-remaining"));
    }
    expect(remaining).toEqual(["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);

    const refused = await report();
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({
      type: "https://errors.svc.example/v1/rate-limited/too-many-requests",
      status: 429,
      instance: expect.stringMatching(/^urn:trace:[0-9a-f]{32}$/),
    });
    // 10 writes a minute: one token every 6 s.
    expect(refused.headers.get("retry-after")).toBe("6");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(runs).toBe(10);

    await clock.advance(5_999);
    expect((await report()).status).toBe(429);
    await clock.advance(1);
    const refilled = await report();
    expect(refilled.status).toBe(202);
    expect(refilled.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("rounds Retry-After up to whole seconds, at least 1", async () => {
    const ann = { headers: { authorization: "Bearer ann" } };
    for (let i = 0; i < 900; i++) expect((await fetch(`${base}/v1/cases`, ann)).status).toBe(200);
    const refused = await fetch(`${base}/v1/cases`, ann);
    expect(refused.status).toBe(429);
    // 600 reads a minute: a token is back in 100 ms, announced as 1 s.
    expect(refused.headers.get("retry-after")).toBe("1");
    await clock.advance(100);
    expect((await fetch(`${base}/v1/cases`, ann)).status).toBe(200);
  });

  it("exempts replays of a kept Idempotency-Key", async () => {
    const first = await report("k1");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("9");
    for (let i = 0; i < 20; i++) {
      const replay = await report("k1");
      expect(replay.status).toBe(202);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
    }
    const next = await report();
    expect(next.headers.get("x-ratelimit-remaining")).toBe("8");
    expect(runs).toBe(2);
  });

  it("does not limit public routes", async () => {
    const response = await fetch(`${base}/version`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-ratelimit-remaining")).toBeNull();
  });
});
