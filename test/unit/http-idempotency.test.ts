import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DomainError } from "../../src/domain/domain-error.js";
import type { Principal } from "../../src/app/principals.js";
import { UnauthorizedError } from "../../src/http/errors.js";
import { type Authenticate, type RouteDeps } from "../../src/http/request-pipeline.js";
import { defineRoute, type Route } from "../../src/http/route.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { type ServedRoutes, serve } from "./http-server-fixture.js";
import { deferred } from "../support/deferred.js";

const operator = (actor: string, tenant = "urn:airline:XY"): Principal => ({
  surface: "operator",
  actorUrn: `urn:user:${actor}`,
  tenant,
  role: "OPS_SUPERVISOR",
  amr: ["pwd", "otp"],
  expiresAt: 0,
});
const principals: Record<string, Principal> = { ann: operator("ann"), bob: operator("bob") };

const authenticate: Authenticate = async (ctx) => {
  const principal = principals[/^Bearer (.+)$/.exec(ctx.get("Authorization"))?.[1] ?? ""];
  if (!principal) throw new UnauthorizedError("invalid_token");
  return principal;
};

/** Counts claims of idempotency keys, so a test knows when every duplicate has arrived. */
class ObservedCounterStore extends MemoryCounterStore {
  claims = 0;
  override async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (key.startsWith("idempotency:")) this.claims++;
    return super.setIfAbsent(key, value, ttlMs);
  }
}

let clock: ManualClock;
let counters: ObservedCounterStore;
let runs: number;
let gate: Promise<void> | undefined;
let failNext: "crash" | "conflict" | undefined;
const processes: ServedRoutes[] = [];

function routes(): Route[] {
  return [
    defineRoute({
      method: "POST",
      path: "/v1/cases/:caseUrn/notes",
      operationId: "addNote",
      summary: "Add a note",
      tags: ["Test"],
      access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] },
      body: { type: "object", required: ["text"], properties: { text: { type: "string" } } },
      responses: {
        201: {
          description: "added",
          schema: { type: "object", properties: { run: { type: "integer" }, text: { type: "string" } } },
        },
      },
      handler: async ({ body }) => {
        runs++;
        const run = runs;
        if (gate) await gate;
        if (failNext === "crash") {
          failNext = undefined;
          throw new Error("database down");
        }
        if (failNext === "conflict") {
          failNext = undefined;
          throw new DomainError("conflict", "sub-case-locked", "Locked", { lockedBy: "urn:user:zed" });
        }
        return { status: 201, body: { run, text: body.text }, headers: { Location: `/v1/notes/${run}` } };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/notes",
      operationId: "listNotes",
      summary: "List notes",
      tags: ["Test"],
      access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] },
      responses: { 200: { description: "notes" } },
      handler: () => {
        runs++;
        return { status: 200, body: { runs } };
      },
    }),
  ];
}

/** One process serving the API; two of them over one store stand for two processes over Redis. */
async function startProcess(): Promise<string> {
  const deps: RouteDeps = { authenticate, counters, clock, idempotency: { waitMs: 1000, pollMs: 100 } };
  const served = await serve(routes(), deps);
  processes.push(served);
  return served.base;
}

let base: string;

beforeEach(async () => {
  clock = new ManualClock();
  counters = new ObservedCounterStore(clock);
  runs = 0;
  gate = undefined;
  failNext = undefined;
  base = await startProcess();
});

afterEach(() => {
  for (const served of processes.splice(0)) served.close();
});

async function post(options: { key?: string; text?: string; as?: string; path?: string; url?: string } = {}) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.as ?? "ann"}`,
    "content-type": "application/json",
  };
  if (options.key) headers["idempotency-key"] = options.key;
  const response = await fetch((options.url ?? base) + (options.path ?? "/v1/cases/urn%3Acase%3A1/notes"), {
    method: "POST",
    headers,
    body: JSON.stringify({ text: options.text ?? "hello" }),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

describe("Idempotency-Key", () => {
  it("runs the handler once for 50 concurrent identical writes and gives all 50 the same response", async () => {
    const first = deferred();
    gate = first.promise;
    const key = "0d9f4c1e-8f5a-4e0b-9a57-1d4c0a8e2b11";
    const pending = Array.from({ length: 50 }, () => post({ key }));
    await vi.waitFor(() => expect(counters.claims).toBe(50));
    first.resolve();
    const responses = await Promise.all(pending);
    expect(runs).toBe(1);
    for (const response of responses) {
      expect(response.status).toBe(201);
      expect(response.json).toEqual({ run: 1, text: "hello" });
      expect(response.headers.get("location")).toBe("/v1/notes/1");
    }
    expect(responses.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(49);
  });

  it("replays a completed write with its status, body and headers without running it again", async () => {
    const original = await post({ key: "k1" });
    const replay = await post({ key: "k1" });
    expect(runs).toBe(1);
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual(original.json);
    expect(replay.headers.get("location")).toBe(original.headers.get("location"));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(original.headers.get("idempotent-replayed")).toBeNull();
  });

  it("answers the same key with another payload with a 422 problem", async () => {
    await post({ key: "k2", text: "first" });
    for (const other of [{ text: "second" }, { path: "/v1/cases/urn%3Acase%3A2/notes" }]) {
      const response = await post({ key: "k2", ...other });
      expect(response.status).toBe(422);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(response.json.type).toBe("https://errors.svc.example/v1/unprocessable/idempotency-key-reused");
    }
    expect(runs).toBe(1);
  });

  it("scopes keys per principal", async () => {
    const ann = await post({ key: "shared", as: "ann" });
    const bob = await post({ key: "shared", as: "bob" });
    expect(runs).toBe(2);
    expect(ann.json.run).toBe(1);
    expect(bob.json.run).toBe(2);
  });

  it("runs every write without a key", async () => {
    await post();
    await post();
    expect(runs).toBe(2);
  });

  it("does not keep a 5xx, so a retry with the same key runs again and succeeds", async () => {
    failNext = "crash";
    const failed = await post({ key: "k3" });
    expect(failed.status).toBe(500);
    const retried = await post({ key: "k3" });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(runs).toBe(2);
  });

  it("keeps a 4xx domain refusal and replays it", async () => {
    failNext = "conflict";
    const refused = await post({ key: "k4" });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({
      type: expect.stringContaining("/conflict/sub-case-locked"),
      lockedBy: "urn:user:zed",
    });
    const replay = await post({ key: "k4" });
    expect(replay.status).toBe(409);
    expect(replay.json).toEqual(refused.json);
    expect(replay.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(runs).toBe(1);
  });

  it("forgets a key after 24 hours", async () => {
    await post({ key: "k5" });
    await clock.advance(24 * 60 * 60 * 1000 - 1);
    expect((await post({ key: "k5" })).headers.get("idempotent-replayed")).toBe("true");
    await clock.advance(1);
    const later = await post({ key: "k5" });
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(runs).toBe(2);
  });

  it("refuses a malformed key with 400", async () => {
    const response = await post({ key: "x".repeat(256) });
    expect(response.status).toBe(400);
    expect(response.json.type).toBe("https://errors.svc.example/v1/invalid/idempotency-key");
    expect(runs).toBe(0);
  });

  it("ignores the header on reads", async () => {
    for (let i = 0; i < 2; i++) {
      await fetch(`${base}/v1/notes`, { headers: { authorization: "Bearer ann", "idempotency-key": "r1" } });
    }
    expect(runs).toBe(2);
  });

  describe("a duplicate served by another process while the first is in flight", () => {
    it("polls the store and replays the first response once it is kept", async () => {
      const other = await startProcess();
      const first = deferred();
      gate = first.promise;
      const original = post({ key: "k6" });
      await vi.waitFor(() => expect(runs).toBe(1));
      const duplicate = post({ key: "k6", url: other });
      await vi.waitFor(() => expect(clock.pendingTimers()).toBeGreaterThan(0));
      first.resolve();
      const originalResponse = await original;
      await clock.advance(100);
      const duplicateResponse = await duplicate;
      expect(duplicateResponse.status).toBe(201);
      expect(duplicateResponse.json).toEqual(originalResponse.json);
      expect(duplicateResponse.headers.get("idempotent-replayed")).toBe("true");
      expect(runs).toBe(1);
    });

    it("answers 409 with Retry-After when the first is still running after the wait bound", async () => {
      const other = await startProcess();
      const first = deferred();
      gate = first.promise;
      const original = post({ key: "k7" });
      await vi.waitFor(() => expect(runs).toBe(1));
      const duplicate = post({ key: "k7", url: other });
      await vi.waitFor(() => expect(clock.pendingTimers()).toBeGreaterThan(0));
      await clock.advance(1000);
      const response = await duplicate;
      expect(response.status).toBe(409);
      expect(response.json.type).toBe("https://errors.svc.example/v1/conflict/idempotency-key-in-flight");
      expect(response.headers.get("retry-after")).toBe("1");
      first.resolve();
      expect((await original).status).toBe(201);
      expect(runs).toBe(1);
    });
  });
});
