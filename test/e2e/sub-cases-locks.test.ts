import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SubCaseActor } from "../../actors/SubCaseActor.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { type RealtimeFixture, startRealtimeFixture } from "./realtime-fixture.js";
import { standDownSubCaseSagas } from "../support/sagas.js";
import { recordEvents } from "../support/event-recorder.js";

const ERRORS = "https://errors.svc.example/v1";
const path = (urn: string, action: string) => `/v1/subcases/${encodeURIComponent(urn)}/${action}`;

let f: RealtimeFixture;
let tokens: Record<string, string>;
const processing: DomainEvent[] = [];

beforeAll(async () => {
  f = await startRealtimeFixture();
  tokens = f.tokens;
  // The compensations here are watched as requests: the saga each one starts stands down.
  standDownSubCaseSagas(f.t.platform.container);
  recordEvents(
    f.t.platform.runtime.bus,
    { name: "test.processing", topic: topicFor({ tenant: "urn:airline:ZX" }), types: ["subcase.processing"] },
    processing,
  );
});
afterAll(async () => {
  await f?.close();
});

const call = (method: string, url: string, user: string, body?: unknown) =>
  f.t.call(method, url, tokens[user] ?? user, body);
/** A write on the sub-case that carries the lock's fencing token. */
const fenced = (action: string, urn: string, user: string, fencingToken: number) =>
  call("POST", path(urn, action), user, { fencingToken });

describe("POST /v1/subcases/{urn}/lock", () => {
  it("locks for the caller with a fencing token and a five-minute expiry, and indexes the lock", async () => {
    const { subCaseUrns, caseUrn } = await f.openCase({ externalEventId: "lock-1" });
    const response = await call("POST", path(subCaseUrns[0]!, "lock"), "operator@zx.demo");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      subCaseUrn: subCaseUrns[0],
      caseUrn,
      lockedBy: "urn:user:zx-operator",
      fencingToken: 1,
      expiresAt: new Date(f.clock.now() + 300_000).toISOString(),
      expiresInSeconds: 300,
    });
    expect(await f.index.get(subCaseUrns[0]!)).toMatchObject({
      lockedBy: "urn:user:zx-operator",
      lockExpiresAt: body.expiresAt,
      caseUrn,
      groupId: "ABC123",
      tenant: "urn:airline:ZX",
      status: "OPEN",
    });
  });

  it("gives exactly one of 20 concurrent operators the lock; the others get 409 with lockedBy and expiresInSeconds", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "lock-race" });
    const minted = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await call("POST", "/v1/admin/service-tokens", "admin@zx.demo", {
          role: "AIRPORT_OPERATOR",
          ttlSeconds: 3600,
        });
        expect(response.status).toBe(201);
        return (await response.json()) as { token: string; actorUrn: string };
      }),
    );
    const responses = await Promise.all(
      minted.map(({ token }) => f.t.call("POST", path(subCaseUrns[0]!, "lock"), token)),
    );
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const winners = responses.flatMap((r, i) => (r.status === 200 ? [bodies[i]] : []));
    expect(winners).toHaveLength(1);
    expect(minted.map((m) => m.actorUrn)).toContain(winners[0].lockedBy);
    expect(winners[0].fencingToken).toBe(1);
    const losers = responses.flatMap((r, i) => (r.status === 409 ? [bodies[i]] : []));
    expect(losers).toHaveLength(19);
    for (const loser of losers) {
      expect(loser).toMatchObject({
        type: `${ERRORS}/conflict/sub-case-locked`,
        status: 409,
        lockedBy: winners[0].lockedBy,
        expiresInSeconds: 300,
      });
      expect(Number.isInteger(loser.expiresInSeconds)).toBe(true);
    }
  });

  it("renews the holder's lock, keeping the fencing token", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "lock-renew" });
    const first = await (await call("POST", path(subCaseUrns[0]!, "lock"), "operator@zx.demo")).json();
    await f.clock.advance(60_000);
    const renewed = await (await call("POST", path(subCaseUrns[0]!, "lock"), "operator@zx.demo")).json();
    expect(renewed.fencingToken).toBe(first.fencingToken);
    expect(Date.parse(renewed.expiresAt) - Date.parse(first.expiresAt)).toBe(60_000);
    expect(renewed.expiresInSeconds).toBe(300);
  });

  it("lets the lock expire after five minutes; the next lock's token is higher and the old one is stale", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "lock-expiry" });
    const urn = subCaseUrns[0]!;
    const first = await (await call("POST", path(urn, "lock"), "operator@zx.demo")).json();
    await f.clock.advance(299_000);
    const early = await call("POST", path(urn, "lock"), "supervisor@zx.demo");
    expect(early.status).toBe(409);
    expect((await early.json()).expiresInSeconds).toBe(1);

    await f.clock.advance(1_000);
    await expect.poll(async () => (await f.index.get(urn))?.lockedBy).toBeNull();
    const second = await (await call("POST", path(urn, "lock"), "supervisor@zx.demo")).json();
    expect(second.fencingToken).toBe(first.fencingToken + 1);

    const stale = await fenced("compensate", urn, "operator@zx.demo", first.fencingToken);
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({
      type: `${ERRORS}/conflict/stale-fencing-token`,
      lockedBy: "urn:user:zx-supervisor",
      subCase: { subCaseUrn: urn, status: "OPEN", lockedBy: "urn:user:zx-supervisor" },
    });
    const fresh = await fenced("compensate", urn, "supervisor@zx.demo", second.fencingToken);
    expect(fresh.status).toBe(202);
  });
});

describe("POST /v1/subcases/{urn}/unlock", () => {
  it("lets only the holder release, and only with the live token", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "unlock-1" });
    const urn = subCaseUrns[0]!;
    const lock = await (await call("POST", path(urn, "lock"), "operator@zx.demo")).json();

    const notHolder = await fenced("unlock", urn, "supervisor@zx.demo", lock.fencingToken);
    expect(notHolder.status).toBe(409);
    expect(await notHolder.json()).toMatchObject({
      type: `${ERRORS}/conflict/sub-case-locked`,
      lockedBy: "urn:user:zx-operator",
    });
    const wrongToken = await fenced("unlock", urn, "operator@zx.demo", lock.fencingToken + 5);
    expect(wrongToken.status).toBe(409);
    expect((await wrongToken.json()).type).toBe(`${ERRORS}/conflict/stale-fencing-token`);

    const released = await fenced("unlock", urn, "operator@zx.demo", lock.fencingToken);
    expect(released.status).toBe(200);
    expect(await released.json()).toMatchObject({ subCaseUrn: urn, lockedBy: null, lockExpiresAt: null });
    expect((await f.index.get(urn))?.lockedBy).toBeNull();

    const next = await (await call("POST", path(urn, "lock"), "supervisor@zx.demo")).json();
    expect(next.fencingToken).toBe(lock.fencingToken + 1);
  });
});

describe("POST /v1/subcases/{urn}/compensate", () => {
  it("answers 202 with a correlation URN, moves the sub-case to PROCESSING and publishes subcase.processing", async () => {
    const { subCaseUrns, caseUrn } = await f.openCase({ externalEventId: "comp-1" });
    const urn = subCaseUrns[0]!;
    const response = await call("POST", path(urn, "compensate"), "operator@zx.demo", { reason: "stranded" });
    expect(response.status).toBe(202);
    const body = await response.json();
    expect(body).toEqual({
      subCaseUrn: urn,
      caseUrn,
      correlationUrn: expect.stringMatching(/^urn:trace:[0-9a-f]{32}$/),
      status: "PROCESSING",
      version: 2,
    });
    expect((await f.index.get(urn))?.status).toBe("PROCESSING");
    await expect
      .poll(() => processing.filter((e) => (e.data as { subCaseUrn: string }).subCaseUrn === urn))
      .toHaveLength(1);
    expect(processing.at(-1)?.correlationUrn).toBe(body.correlationUrn);

    const replay = await call("POST", path(urn, "compensate"), "operator@zx.demo", { reason: "stranded" });
    expect(replay.status).toBe(202);
    expect((await replay.json()).correlationUrn).toBe(body.correlationUrn);

    const other = await call("POST", path(urn, "compensate"), "operator@zx.demo", { reason: "another" });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({
      type: `${ERRORS}/conflict/sub-case-state`,
      subCase: { status: "PROCESSING", version: 2 },
    });
  });

  it("refuses a stale expectedVersion with the current version", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "comp-version" });
    const response = await call("POST", path(subCaseUrns[0]!, "compensate"), "operator@zx.demo", {
      expectedVersion: 3,
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      type: `${ERRORS}/conflict/version-mismatch`,
      currentVersion: 1,
    });
  });

  it("refuses a write without the fencing token while another operator holds the lock", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "comp-locked" });
    const urn = subCaseUrns[0]!;
    await call("POST", path(urn, "lock"), "supervisor@zx.demo");
    const response = await call("POST", path(urn, "compensate"), "operator@zx.demo", {});
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      type: `${ERRORS}/conflict/stale-fencing-token`,
      lockedBy: "urn:user:zx-supervisor",
    });
    const actor = await f.t.platform.runtime.actors.invoke(
      SubCaseActor,
      urn.slice("urn:sub-case:".length),
      "get",
    );
    expect(actor?.status).toBe("OPEN");
  });
});

describe("sub-case routes: who may call them", () => {
  const routes = [
    ["lock", undefined],
    ["unlock", { fencingToken: 1 }],
    ["compensate", {}],
  ] as const;

  it("refuses callers without a token (401), with the wrong role (403) or of another tenant (403)", async () => {
    const { subCaseUrns } = await f.openCase({ externalEventId: "authz-1" });
    const urn = subCaseUrns[1]!;
    for (const [action, body] of routes) {
      expect((await f.t.call("POST", path(urn, action), undefined, body)).status).toBe(401);
      const finance = await call("POST", path(urn, action), "finance@zx.demo", body);
      expect(finance.status).toBe(403);
      expect((await finance.json()).type).toBe(`${ERRORS}/forbidden/role-not-allowed`);
      const otherTenant = await call("POST", path(urn, action), "operator@vq.demo", body);
      expect(otherTenant.status).toBe(403);
      expect((await otherTenant.json()).type).toBe(`${ERRORS}/forbidden/tenant-mismatch`);
    }
    expect((await f.index.get(urn))?.status).toBe("OPEN");
  });

  it("limits an airport-scoped operator to its airport's sub-cases", async () => {
    const bos = await f.openCase({ externalEventId: "authz-bos", origin: "BOS" });
    const jfk = await f.openCase({ externalEventId: "authz-jfk", origin: "JFK" });
    for (const [action, body] of routes) {
      const refused = await call("POST", path(bos.subCaseUrns[0]!, action), "operator.jfk@zx.demo", body);
      expect(refused.status).toBe(403);
      expect((await refused.json()).type).toBe(`${ERRORS}/forbidden/airport-mismatch`);
    }
    expect((await call("POST", path(jfk.subCaseUrns[0]!, "lock"), "operator.jfk@zx.demo")).status).toBe(200);
  });

  it("answers 404 for an unknown sub-case and 400 for a malformed URN or body", async () => {
    const unknown = subCaseUrnFor("urn:case:none", "none");
    for (const [action, body] of routes) {
      const missing = await call("POST", path(unknown, action), "operator@zx.demo", body);
      expect(missing.status).toBe(404);
      expect((await missing.json()).type).toBe(`${ERRORS}/not-found/sub-case`);
      const malformed = await call("POST", path("urn:case:abc", action), "operator@zx.demo", body);
      expect(malformed.status).toBe(400);
      expect((await malformed.json()).errors).toEqual([
        expect.objectContaining({ in: "path", field: "/subCaseUrn" }),
      ]);
    }
    const { subCaseUrns } = await f.openCase({ externalEventId: "bad-body" });
    const noToken = await call("POST", path(subCaseUrns[0]!, "unlock"), "operator@zx.demo", {});
    expect(noToken.status).toBe(400);
    expect((await noToken.json()).errors).toEqual([expect.objectContaining({ in: "body" })]);
    const badToken = await call("POST", path(subCaseUrns[0]!, "compensate"), "operator@zx.demo", {
      fencingToken: "one",
    });
    expect(badToken.status).toBe(400);
    expect((await badToken.json()).errors).toEqual([
      expect.objectContaining({ in: "body", field: "/fencingToken" }),
    ]);
  });

  it("accepts the operator-page URN form and audits the lock against the sub-case and its case", async () => {
    const { subCaseUrns, caseUrn } = await f.openCase({ externalEventId: "audit-1" });
    const pageForm = subCaseUrns[0]!.replace("urn:sub-case:", "urn:svc:sub-case:");
    expect((await call("POST", path(pageForm, "lock"), "operator@zx.demo")).status).toBe(200);
    const trail = await call("GET", `/v1/audit/case/${encodeURIComponent(caseUrn)}`, "supervisor@zx.demo");
    const entries = (await trail.json()).items as Array<Record<string, unknown>>;
    expect(entries).toContainEqual(
      expect.objectContaining({ action: "subcase.lock", caseUrn, actorUrn: "urn:user:zx-operator" }),
    );
  });
});
