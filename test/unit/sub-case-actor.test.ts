import { describe, expect, it } from "vitest";
import { SubCaseActor, subCaseActorId, subCaseActorIdFor } from "../../actors/SubCaseActor.js";
import type { DomainError } from "../../src/domain/domain-error.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { settle } from "../../src/runtime/clock.js";
import { startActorStage } from "./actor-stage.js";

const tenant = "urn:airline:ZX";
const caseUrn = "urn:case:11111111-2222-3333-4444-555555555555";
const alice = "urn:user:alice";
const bob = "urn:user:bob";
const FIVE_MINUTES = 5 * 60_000;

async function setup() {
  const { clock, runtime: actors, events } = await startActorStage(SubCaseActor, tenant);
  const id = subCaseActorIdFor(caseUrn, "ABC123");
  const call = <M extends "open" | "get" | "lock" | "unlock" | "releaseHeldBy" | "compensate" | "retire">(
    method: M,
    ...arg: Parameters<SubCaseActor[M]>
  ) => (actors.invoke as any)(SubCaseActor, id, method, ...arg) as ReturnType<SubCaseActor[M]>;
  const open = () =>
    call("open", { caseUrn, groupId: "ABC123", tenant, airport: "JFK", correlationUrn: "urn:trace:open" });
  const lock = (by: string) => call("lock", { by, ttlMs: FIVE_MINUTES, correlationUrn: "urn:trace:lock" });
  const types = async () => {
    await settle();
    return events.map((e) => e.type);
  };
  return { clock, actors, id, call, open, lock, events, types };
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!error) throw new Error("expected a refusal");
  return error as DomainError;
}

describe("SubCaseActor: creation", () => {
  it("opens one sub-case per (case, group), idempotently, with the derived URN", async () => {
    const { id, open, types } = await setup();
    const first = await open();
    const again = await open();
    expect(first).toEqual(again);
    expect(first).toMatchObject({
      subCaseUrn: subCaseUrnFor(caseUrn, "ABC123"),
      caseUrn,
      groupId: "ABC123",
      tenant,
      airport: "JFK",
      status: "OPEN",
      version: 1,
      revision: 1,
      lockedBy: null,
      lockExpiresAt: null,
      retiredAt: null,
    });
    expect(subCaseActorId(first.subCaseUrn)).toBe(id);
    expect(await types()).toEqual(["subcase.opened"]);
  });

  it("refuses to open a sub-case under an actor id that is not derived from its case and group", async () => {
    const { actors } = await setup();
    const error = await refusal(
      actors.invoke(SubCaseActor, "not-derived", "open", {
        caseUrn,
        groupId: "ABC123",
        tenant,
        airport: "JFK",
        correlationUrn: "urn:trace:x",
      }),
    );
    expect(error.code).toBe("sub-case-id-mismatch");
  });

  it("accepts the operator-page URN form when deriving the actor id", () => {
    const urn = subCaseUrnFor(caseUrn, "G1");
    const id = urn.slice("urn:sub-case:".length);
    expect(subCaseActorId(`urn:svc:sub-case:${id}`)).toBe(id);
    expect(subCaseActorId("urn:case:x")).toBeUndefined();
  });
});

describe("SubCaseActor: locks", () => {
  it("grants a lock with fencing token 1 and refuses a second operator with lockedBy and expiresInSeconds", async () => {
    const { open, lock, clock } = await setup();
    await open();
    const granted = await lock(alice);
    expect(granted.lock).toEqual({
      lockedBy: alice,
      fencingToken: 1,
      expiresAt: new Date(clock.now() + FIVE_MINUTES).toISOString(),
    });
    expect(granted.view.lockedBy).toBe(alice);
    await clock.advance(61_000);
    const error = await refusal(lock(bob));
    expect(error).toMatchObject({
      kind: "conflict",
      code: "sub-case-locked",
      details: { lockedBy: alice, expiresInSeconds: 239 },
    });
  });

  it("renews the holder's lock, keeping its token and pushing its expiry", async () => {
    const { open, lock, clock, types } = await setup();
    await open();
    const first = await lock(alice);
    await clock.advance(60_000);
    const renewed = await lock(alice);
    expect(renewed.renewed).toBe(true);
    expect(renewed.lock.fencingToken).toBe(first.lock.fencingToken);
    expect(Date.parse(renewed.lock.expiresAt)).toBe(Date.parse(first.lock.expiresAt) + 60_000);
    // The first expiry reminder was replaced: the lock is still there when the first expiry passes.
    await clock.advance(FIVE_MINUTES - 30_000);
    expect(await types()).not.toContain("subcase.lock-expired");
    await clock.advance(30_000);
    expect(await types()).toContain("subcase.lock-expired");
  });

  it("expires a lock by reminder; the next lock gets a higher token and the old token is stale", async () => {
    const { open, lock, call, clock, types } = await setup();
    await open();
    const old = await lock(alice);
    await clock.advance(FIVE_MINUTES);
    expect(await types()).toEqual(["subcase.opened", "subcase.locked", "subcase.lock-expired"]);
    expect((await call("get"))?.lockedBy).toBeNull();

    const next = await lock(bob);
    expect(next.lock.fencingToken).toBe(old.lock.fencingToken + 1);
    const stale = await refusal(
      call("unlock", { by: bob, fencingToken: old.lock.fencingToken, correlationUrn: "urn:trace:u" }),
    );
    expect(stale).toMatchObject({ kind: "conflict", code: "stale-fencing-token" });
  });

  it("lets only the holder unlock, with the live token", async () => {
    const { open, lock, call, types } = await setup();
    await open();
    const granted = await lock(alice);
    const notHolder = await refusal(
      call("unlock", { by: bob, fencingToken: granted.lock.fencingToken, correlationUrn: "urn:trace:u" }),
    );
    expect(notHolder).toMatchObject({ code: "sub-case-locked", details: { lockedBy: alice } });

    const view = await call("unlock", {
      by: alice,
      fencingToken: granted.lock.fencingToken,
      correlationUrn: "urn:trace:u",
    });
    expect(view.lockedBy).toBeNull();
    expect(await types()).toEqual(["subcase.opened", "subcase.locked", "subcase.unlocked"]);
  });

  it("releases a lock for its holder's disconnect without a token, and leaves another's lock alone", async () => {
    const { open, lock, call, events, types } = await setup();
    await open();
    await lock(alice);
    const notHers = await call("releaseHeldBy", {
      by: bob,
      reason: "disconnect",
      correlationUrn: "urn:trace:d",
    });
    expect(notHers.released).toBe(false);
    expect(notHers.view?.lockedBy).toBe(alice);

    const released = await call("releaseHeldBy", {
      by: alice,
      reason: "disconnect",
      correlationUrn: "urn:trace:d",
    });
    expect(released.released).toBe(true);
    expect(released.view?.lockedBy).toBeNull();
    expect(await types()).toEqual(["subcase.opened", "subcase.locked", "subcase.unlocked"]);
    expect(events.at(-1)?.data).toMatchObject({ lockedBy: null, releasedBecause: "disconnect" });
    expect(JSON.stringify(events)).not.toContain("fencingToken");
  });
});

describe("SubCaseActor: compensation", () => {
  const compensate = (
    call: Awaited<ReturnType<typeof setup>>["call"],
    overrides: {
      payloadHash?: string;
      fencingToken?: number;
      expectedVersion?: number;
      correlationUrn?: string;
    } = {},
  ) =>
    call("compensate", {
      by: alice,
      payloadHash: "sha256:one",
      correlationUrn: "urn:trace:first",
      ...overrides,
    });

  it("needs the live token while locked, then moves to PROCESSING and publishes subcase.processing", async () => {
    const { open, lock, call, types } = await setup();
    await open();
    const granted = await lock(alice);
    expect((await refusal(compensate(call))).code).toBe("stale-fencing-token");
    expect((await refusal(compensate(call, { fencingToken: 99 }))).code).toBe("stale-fencing-token");

    const accepted = await compensate(call, { fencingToken: granted.lock.fencingToken });
    expect(accepted).toMatchObject({
      replayed: false,
      correlationUrn: "urn:trace:first",
      view: { status: "PROCESSING", version: 2 },
    });
    expect(await types()).toEqual(["subcase.opened", "subcase.locked", "subcase.processing"]);
  });

  it("answers a replay of the same payload with the first correlation URN and publishes nothing", async () => {
    const { open, call, types } = await setup();
    await open();
    await compensate(call);
    const replay = await compensate(call, { correlationUrn: "urn:trace:second" });
    expect(replay).toMatchObject({ replayed: true, correlationUrn: "urn:trace:first" });
    expect(await types()).toEqual(["subcase.opened", "subcase.processing"]);

    const other = await refusal(compensate(call, { payloadHash: "sha256:two" }));
    expect(other).toMatchObject({ code: "sub-case-state", details: { status: "PROCESSING" } });
  });

  it("refuses a stale expectedVersion with the current version", async () => {
    const { open, call } = await setup();
    await open();
    const error = await refusal(compensate(call, { expectedVersion: 7 }));
    expect(error).toMatchObject({ code: "version-mismatch", details: { currentVersion: 1 } });
    expect((await compensate(call, { expectedVersion: 1 })).view.version).toBe(2);
  });

  it("refuses work on an unknown sub-case", async () => {
    const { call } = await setup();
    expect((await refusal(compensate(call))).kind).toBe("not-found");
  });
});

describe("SubCaseActor: retirement", () => {
  it("retires a sub-case whose group left the case, dropping its lock, and takes it back when the group returns", async () => {
    const { open, lock, call, types } = await setup();
    await open();
    await lock(alice);
    const retired = await call("retire", { correlationUrn: "urn:trace:r" });
    expect(retired).toMatchObject({ lockedBy: null, retiredAt: expect.any(String) });
    expect((await refusal(lock(bob))).code).toBe("sub-case-retired");
    expect((await call("retire", { correlationUrn: "urn:trace:r" }))?.revision).toBe(retired?.revision);

    const back = await open();
    expect(back.retiredAt).toBeNull();
    expect((await lock(bob)).lock.fencingToken).toBe(2);
    expect(await types()).toEqual([
      "subcase.opened",
      "subcase.locked",
      "subcase.retired",
      "subcase.opened",
      "subcase.locked",
    ]);
  });
});
