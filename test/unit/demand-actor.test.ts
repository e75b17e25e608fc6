import { describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import { DemandActor, type DemandPolicy } from "../../actors/DemandActor.js";
import { PolicyContextActor } from "../../actors/PolicyContextActor.js";
import { AuditLog } from "../../src/app/audit-log.js";
import { DocumentAuditTrail } from "../../src/app/document-audit-trail.js";
import { DemandAdministration } from "../../src/app/demand/demand-administration.js";
import { DEMANDS_COLLECTION, DemandIndex } from "../../src/app/demand/demand-index.js";
import { AIRPORT_FREEZES_COLLECTION, AirportFreezes } from "../../src/app/demand/airport-freezes.js";
import type { AirportFreeze } from "../../src/domain/airport-freeze.js";
import type { Doc } from "../../src/runtime/document-store.js";
import { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import { caseIdFor, type PassengerGroup } from "../../src/domain/case.js";
import type { Demand, DemandType } from "../../src/domain/demand.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import type { PolicyInput } from "../../src/domain/policy/policy.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import { ManualClock, settle } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { operatorPrincipal } from "../support/principals.js";

const ZX = "urn:airline:ZX";
const POLICY = "urn:policy:0123456789abcdef01234567.1";

const operator = operatorPrincipal("AIRPORT_OPERATOR");
const supervisor = operatorPrincipal("OPS_SUPERVISOR");
const admin = operatorPrincipal("ADMIN");

async function setup() {
  const clock = new ManualClock("2026-11-21T20:00:00Z");
  const bus = new EmbeddedEventBus({ clock });
  const actors = new EmbeddedActorRuntime({ store: new MemoryStateStore(), bus, clock });
  for (const actor of [CaseActor, DemandActor, PolicyContextActor]) actors.register(actor);
  const events: DomainEvent[] = [];
  bus.subscribe({
    name: "demand-events",
    topic: topicFor({ tenant: ZX }),
    handler: async (event) => {
      if (event.type.startsWith("demand.")) events.push(event);
      return "SUCCESS";
    },
  });
  await actors.start();
  const documents = new MemoryDocumentStore();
  const audit = new AuditLog(new DocumentAuditTrail(documents), clock);
  const policyIndex = new PolicyIndex(documents);
  const demandIndex = new DemandIndex(documents);
  const freezes = new AirportFreezes(documents, clock, actors, demandIndex, audit);
  const demand = new DemandAdministration(actors, policyIndex, demandIndex, audit, freezes);
  const policies = new PolicyAdministration(actors, policyIndex, audit);
  const request = (who: OperatorPrincipal) => ({ principal: who, correlationUrn: "urn:trace:unit" });

  let opened = 0;
  const openCase = async (groups: PassengerGroup[] = [economyGroup("G1", 2)], origin = "JFK") => {
    const externalEventId = `evt-${++opened}`;
    await actors.invoke(CaseActor, caseIdFor(ZX, externalEventId), "open", {
      tenant: ZX,
      externalEventId,
      flight: { number: "ZX100", origin, destination: "LHR", scheduledDeparture: "2026-11-21T22:00:00Z" },
      passengerGroups: groups,
      openedBy: supervisor.actorUrn,
      correlationUrn: "urn:trace:open",
      intake: { source: "operator" },
    });
    return `urn:case:${caseIdFor(ZX, externalEventId)}`;
  };
  const activePolicy = async (input: Partial<PolicyInput>) => {
    const created = await policies.create(request(supervisor), {
      name: "policy",
      context: { airport: "JFK", airline: "ZX" },
      ...input,
    });
    return policies.activate(request(admin), created.urn);
  };
  return {
    clock,
    actors,
    documents,
    events,
    demand,
    demandIndex,
    freezes,
    audit,
    request,
    openCase,
    activePolicy,
  };
}

function economyGroup(id: string, size: number, tier = "ECONOMY"): PassengerGroup {
  return {
    id,
    passengers: Array.from({ length: size }, (_, i) => ({
      id: `${id}-p${i}`,
      lastName: "Rivera",
      tier,
      ...(i === 0 ? { contact: { email: "lead@example.com" } } : {}),
    })),
  };
}

/** Drives one DemandActor directly, with the policy the row names. */
async function actorFor(s: Awaited<ReturnType<typeof setup>>, caseId = "case-1") {
  const call = <M extends "request" | "approve" | "reject" | "recordBookingOutcome">(
    method: M,
    arg: unknown,
  ) => s.actors.invoke(DemandActor, caseId, method, arg as never);
  const request = async (type: DemandType, roomsRequested: number, policy?: DemandPolicy) =>
    (
      await call("request", {
        tenant: ZX,
        caseUrn: `urn:case:${caseId}`,
        airport: "JFK",
        type,
        roomsRequested,
        requestedBy: operator.actorUrn,
        correlationUrn: "urn:trace:unit",
        ...(policy ? { policy } : {}),
      })
    ).after;
  return { call, request };
}

function policy(rules: Partial<DemandPolicy>): DemandPolicy {
  return {
    urn: POLICY,
    version: 3,
    autoApproveDemand: true,
    maxAutomaticRoomsPerWave: 10,
    incrementalRequiresApproval: false,
    ...rules,
  };
}

const BASELINE = policy({ autoApproveDemand: true, maxAutomaticRoomsPerWave: 100 });

/** Spec 3.1, rows 1 and 2: what creation does under each policy. */
const CREATION_ROWS: [string, DemandType, number, DemandPolicy | undefined, "APPROVED" | "REQUESTED"][] = [
  ["auto-approval on, rooms under the limit", "INITIAL", 4, policy({}), "APPROVED"],
  ["auto-approval on, rooms at the limit", "INITIAL", 10, policy({}), "APPROVED"],
  ["auto-approval on, rooms over the limit", "INITIAL", 11, policy({}), "REQUESTED"],
  ["auto-approval off", "INITIAL", 1, policy({ autoApproveDemand: false }), "REQUESTED"],
  ["no policy matches", "INITIAL", 1, undefined, "REQUESTED"],
  ["incremental, approval not forced", "INCREMENTAL", 5, policy({}), "APPROVED"],
  [
    "incremental, approval forced",
    "INCREMENTAL",
    5,
    policy({ incrementalRequiresApproval: true }),
    "REQUESTED",
  ],
  ["incremental over the limit", "INCREMENTAL", 11, policy({}), "REQUESTED"],
  ["incremental, auto-approval off", "INCREMENTAL", 1, policy({ autoApproveDemand: false }), "REQUESTED"],
];

describe("demand states and transitions (spec 3.1)", () => {
  it.each(CREATION_ROWS)("(none) --create (%s)--> %s", async (_, type, rooms, rules, expected) => {
    const s = await setup();
    const demand = await actorFor(s);
    if (type === "INCREMENTAL") await demand.request("INITIAL", 1, BASELINE);
    await settle();
    s.events.length = 0;

    const created = await demand.request(type, rooms, rules);
    expect(created.state).toBe(expected);
    await settle();
    if (expected === "APPROVED") {
      // "allocation job enqueued": the approval event allocation consumes.
      expect(s.events.map((e) => e.type)).toEqual(["demand.approved"]);
      expect(s.events[0]).toMatchObject({
        caseUrn: "urn:case:case-1",
        data: {
          demandUrn: created.urn,
          caseUrn: "urn:case:case-1",
          roomsRequested: rooms,
          policyUrn: POLICY,
          policyVersion: 3,
        },
      });
      expect(created.decisions).toEqual([
        expect.objectContaining({ action: "auto-approve", by: POLICY, policyVersion: 3 }),
      ]);
    } else {
      // "waits for a supervisor".
      expect(s.events.map((e) => e.type)).toEqual(["demand.requested"]);
      expect(created.decisions).toEqual([]);
    }
  });

  it("REQUESTED --approve (reason)--> APPROVED: allocation enqueued, logged with who, when, why, policy version", async () => {
    const s = await setup();
    const demand = await actorFor(s);
    const created = await demand.request("INITIAL", 40, policy({}));
    await s.clock.advance(5 * 60_000);
    await settle();
    s.events.length = 0;
    const { after } = await demand.call("approve", {
      urn: created.urn,
      by: supervisor.actorUrn,
      reason: "two flights merged",
      correlationUrn: "urn:trace:approve",
    });
    expect(after.state).toBe("APPROVED");
    expect(after.decisions).toEqual([
      {
        action: "approve",
        by: supervisor.actorUrn,
        at: "2026-11-21T20:05:00.000Z",
        reason: "two flights merged",
        policyVersion: 3,
      },
    ]);
    await settle();
    expect(s.events).toEqual([
      expect.objectContaining({
        type: "demand.approved",
        correlationUrn: "urn:trace:approve",
        data: {
          demandUrn: created.urn,
          caseUrn: "urn:case:case-1",
          type: "INITIAL",
          roomsRequested: 40,
          policyUrn: POLICY,
          policyVersion: 3,
        },
      }),
    ]);
  });

  it.each([
    ["a supervisor", supervisor.actorUrn, "hotel contract frozen"],
    ["a system rule (airport freeze)", "urn:system:airport-freeze", "JFK frozen by the airport authority"],
  ])("REQUESTED --reject by %s (reason)--> REJECTED, logged", async (_, by, reason) => {
    const s = await setup();
    const demand = await actorFor(s);
    const created = await demand.request("INITIAL", 40, policy({}));
    const { after } = await demand.call("reject", {
      urn: created.urn,
      by,
      reason,
      correlationUrn: "urn:trace:x",
    });
    expect(after).toMatchObject({
      state: "REJECTED",
      decisions: [{ action: "reject", by, reason, policyVersion: 3 }],
    });
    await settle();
    expect(s.events.map((e) => e.type)).toEqual(["demand.requested", "demand.rejected"]);
  });

  it("refuses a decision without a reason, and a second decision", async () => {
    const s = await setup();
    const demand = await actorFor(s);
    const created = await demand.request("INITIAL", 40, policy({}));
    await expect(
      demand.call("approve", {
        urn: created.urn,
        by: supervisor.actorUrn,
        reason: "  ",
        correlationUrn: "x",
      }),
    ).rejects.toMatchObject({ kind: "invalid", code: "reason-required" });
    await demand.call("reject", {
      urn: created.urn,
      by: supervisor.actorUrn,
      reason: "no",
      correlationUrn: "x",
    });
    await expect(
      demand.call("approve", {
        urn: created.urn,
        by: supervisor.actorUrn,
        reason: "yes",
        correlationUrn: "x",
      }),
    ).rejects.toMatchObject({ kind: "conflict", code: "demand-state" });
  });

  it.each([
    ["every requested room has a confirmed reservation", 6, undefined, "FULFILLED"],
    ["some rooms booked, others failed", 4, "urn:review-item:r1", "PARTIAL"],
  ] as const)(
    "APPROVED --allocation and booking complete (%s)--> %s",
    async (_, roomsBooked, reviewItemUrn, state) => {
      const s = await setup();
      const demand = await actorFor(s);
      const created = await demand.request("INITIAL", 6, policy({}));
      const { after } = await demand.call("recordBookingOutcome", {
        urn: created.urn,
        by: "urn:system:booking",
        roomsBooked,
        correlationUrn: "urn:trace:booking",
        ...(reviewItemUrn ? { reviewItemUrn } : {}),
      });
      expect(after.state).toBe(state);
      if (state === "PARTIAL") expect(after.reviewItemUrn).toBe(reviewItemUrn);
      await settle();
      expect(s.events.at(-1)?.type).toBe(`demand.${state.toLowerCase()}`);
    },
  );

  it("refuses a PARTIAL outcome without the review item that explains it", async () => {
    const s = await setup();
    const demand = await actorFor(s);
    const created = await demand.request("INITIAL", 6, policy({}));
    await expect(
      demand.call("recordBookingOutcome", { urn: created.urn, by: "x", roomsBooked: 2, correlationUrn: "x" }),
    ).rejects.toMatchObject({ code: "review-item-required" });
  });

  it("keeps one INITIAL demand per case and puts INCREMENTAL on an approved baseline", async () => {
    const s = await setup();
    const demand = await actorFor(s);
    await expect(demand.request("INCREMENTAL", 1, policy({}))).rejects.toMatchObject({
      code: "no-approved-baseline",
    });
    const initial = await demand.request("INITIAL", 40, policy({}));
    await expect(demand.request("INCREMENTAL", 1, policy({}))).rejects.toMatchObject({
      code: "no-approved-baseline",
    });
    await expect(demand.request("INITIAL", 2, policy({}))).rejects.toMatchObject({
      code: "initial-demand-exists",
    });
    await demand.call("reject", {
      urn: initial.urn,
      by: supervisor.actorUrn,
      reason: "too many",
      correlationUrn: "x",
    });
    const second = await demand.request("INITIAL", 8, policy({}));
    expect(second).toMatchObject({ urn: "urn:demand:case-1.2", state: "APPROVED" });
    const incremental = await demand.request("INCREMENTAL", 3, policy({}));
    expect(incremental).toMatchObject({ urn: "urn:demand:case-1.3", state: "APPROVED" });
  });

  it("serializes concurrent requests and decisions on one case", async () => {
    const s = await setup();
    const demand = await actorFor(s);
    const initial = await Promise.allSettled(
      Array.from({ length: 10 }, () => demand.request("INITIAL", 40, policy({}))),
    );
    expect(initial.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const created = (initial.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<Demand>).value;
    const decisions = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        demand.call(i % 2 === 0 ? "approve" : "reject", {
          urn: created.urn,
          by: supervisor.actorUrn,
          reason: `decision ${i}`,
          correlationUrn: "x",
        }),
      ),
    );
    expect(decisions.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    await settle();
    expect(s.events.filter((e) => e.type === "demand.approved" || e.type === "demand.rejected")).toHaveLength(
      1,
    );
  });
});

describe("demand under the case's policy", () => {
  it("uses the policy for the case's airport and, for a one-tier case, that tier", async () => {
    const s = await setup();
    const everyTier = await s.activePolicy({ autoApproveDemand: false });
    const economy = await s.activePolicy({
      tiers: ["ECONOMY"],
      autoApproveDemand: true,
      maxAutomaticRoomsPerWave: 5,
    });
    const caseUrn = await s.openCase([economyGroup("G1", 3), economyGroup("G2", 2)]);
    const demand = await s.demand.request(s.request(operator), caseUrn, {
      type: "INITIAL",
      roomsRequested: 5,
    });
    expect(demand).toMatchObject({ state: "APPROVED", policyUrn: economy.urn, policyVersion: 1 });

    // A case spanning tiers is governed by the policy for every tier.
    const mixed = await s.openCase([economyGroup("G1", 1), economyGroup("G2", 1, "BUSINESS")]);
    const mixedDemand = await s.demand.request(s.request(operator), mixed, {
      type: "INITIAL",
      roomsRequested: 1,
    });
    expect(mixedDemand).toMatchObject({ state: "REQUESTED", policyUrn: everyTier.urn });
  });

  it("indexes demand for the approval queue and audits each change", async () => {
    const s = await setup();
    await s.activePolicy({ autoApproveDemand: true, maxAutomaticRoomsPerWave: 2 });
    const caseUrn = await s.openCase();
    const queued = await s.demand.request(s.request(operator), caseUrn, {
      type: "INITIAL",
      roomsRequested: 3,
    });
    const pending = await s.demandIndex.pendingPage(ZX, undefined, { limit: 10 });
    expect(pending.items).toEqual([queued]);
    expect((await s.demandIndex.pendingPage(ZX, "BOS", { limit: 10 })).items).toEqual([]);

    await s.clock.advance(1000);
    const approved = await s.demand.approve(s.request(supervisor), queued.urn, "crew rest rules");
    expect((await s.demandIndex.pendingPage(ZX, undefined, { limit: 10 })).items).toEqual([]);
    expect(await s.documents.collection(DEMANDS_COLLECTION).get(queued.urn)).toMatchObject({
      state: "APPROVED",
      tenant: ZX,
      airport: "JFK",
    });
    const audit = new AuditLog(new DocumentAuditTrail(s.documents), s.clock);
    const trail = (await audit.query({ tenant: ZX, entityUrn: queued.urn, limit: 10 })).items;
    expect(trail.map((e) => e.action)).toEqual(["demand.request", "demand.approve"]);
    expect(trail[1]).toMatchObject({
      actorUrn: supervisor.actorUrn,
      caseUrn,
      reason: "crew rest rules",
      before: { state: "REQUESTED" },
      after: approved,
    });
  });

  it("refuses demand for unknown, foreign, other-airport and closed cases", async () => {
    const s = await setup();
    const caseUrn = await s.openCase();
    const body = { type: "INITIAL" as const, roomsRequested: 1 };
    await expect(s.demand.request(s.request(operator), "urn:case:nope", body)).rejects.toMatchObject({
      kind: "not-found",
    });
    await expect(
      s.demand.request(
        s.request(operatorPrincipal("AIRPORT_OPERATOR", { tenant: "urn:airline:VQ" })),
        caseUrn,
        body,
      ),
    ).rejects.toMatchObject({ kind: "forbidden", code: "tenant-mismatch" });
    await expect(
      s.demand.request(s.request(operatorPrincipal("AIRPORT_OPERATOR", { airport: "BOS" })), caseUrn, body),
    ).rejects.toMatchObject({ kind: "forbidden", code: "airport-mismatch" });
    await expect(s.demand.approve(s.request(supervisor), "urn:demand:nope.1", "x")).rejects.toMatchObject({
      kind: "not-found",
      code: "demand",
    });

    await s.actors.invoke(CaseActor, caseUrn.slice("urn:case:".length), "close", {
      by: operator.actorUrn,
      correlationUrn: "x",
      reason: "all rebooked",
      role: "AIRPORT_OPERATOR",
    });
    await expect(s.demand.request(s.request(operator), caseUrn, body)).rejects.toMatchObject({
      kind: "conflict",
      code: "case-closed",
    });
  });

  it("an airport freeze rejects waiting demand, rejects new demand as it is requested and refuses approval (system policy, logged)", async () => {
    const s = await setup();
    await s.activePolicy({ autoApproveDemand: false });
    const waiting = await s.demand.request(s.request(operator), await s.openCase(), {
      type: "INITIAL",
      roomsRequested: 2,
    });
    const elsewhere = await s.demand.request(s.request(operator), await s.openCase(undefined, "BOS"), {
      type: "INITIAL",
      roomsRequested: 2,
    });
    const raced = await s.demand.request(s.request(operator), await s.openCase(), {
      type: "INITIAL",
      roomsRequested: 1,
    });
    expect([waiting.state, elsewhere.state, raced.state]).toEqual(["REQUESTED", "REQUESTED", "REQUESTED"]);

    const { freeze, rejected } = await s.freezes.freeze(
      s.request(admin),
      "JFK",
      "runway closed by the authority",
    );
    expect(freeze).toMatchObject({ tenant: ZX, airport: "JFK", frozenBy: admin.actorUrn });
    const decision = {
      action: "reject",
      by: "urn:system:airport-freeze",
      reason: "Airport JFK is frozen: runway closed by the authority",
    };
    expect(rejected.map((d) => d.urn)).toEqual([waiting.urn, raced.urn]);
    expect(rejected[0]).toMatchObject({ state: "REJECTED", decisions: [decision] });
    expect((await s.demandIndex.pendingPage(ZX, undefined, {})).items.map((d) => d.urn)).toEqual([
      elsewhere.urn,
    ]);

    const refused = await s.demand.request(s.request(operator), await s.openCase(), {
      type: "INITIAL",
      roomsRequested: 3,
    });
    expect(refused).toMatchObject({ state: "REJECTED", decisions: [decision] });
    expect(
      await s.audit.has({ tenant: ZX, entityUrn: waiting.urn, actorUrn: "urn:system:airport-freeze" }),
    ).toBe(true);

    // Other airports are not frozen.
    await expect(s.demand.approve(s.request(supervisor), elsewhere.urn, "ok")).resolves.toMatchObject({
      state: "APPROVED",
    });
    const late = await s.demand.request(s.request(operator), await s.openCase(), {
      type: "INITIAL",
      roomsRequested: 1,
    });
    await s.freezes.lift(s.request(admin), "JFK", "reopened");
    const pending = await s.demand.request(s.request(operator), await s.openCase(), {
      type: "INITIAL",
      roomsRequested: 1,
    });
    expect(late.state).toBe("REJECTED");
    expect(pending.state).toBe("REQUESTED");
    await s.freezes.freeze(s.request(admin), "BOS", "snow");
    await s.freezes.freeze(s.request(admin), "JFK", "again");
    expect((await s.freezes.list(ZX)).map((f) => f.airport)).toEqual(["BOS", "JFK"]);
  });

  it("refuses approval at a frozen airport", async () => {
    const s = await setup();
    await s.activePolicy({ autoApproveDemand: false });
    const caseUrn = await s.openCase();
    const waiting = await s.demand.request(s.request(operator), caseUrn, {
      type: "INITIAL",
      roomsRequested: 2,
    });
    // The freeze document alone, as if set by another replica after the sweep ran.
    await s.documents.collection<Doc & AirportFreeze>(AIRPORT_FREEZES_COLLECTION).put({
      _id: `${ZX}|JFK`,
      tenant: ZX,
      airport: "JFK",
      reason: "strike",
      frozenBy: admin.actorUrn,
      frozenAt: "2026-11-21T20:00:00.000Z",
    });
    await expect(s.demand.approve(s.request(supervisor), waiting.urn, "ok")).rejects.toMatchObject({
      kind: "conflict",
      code: "airport-frozen",
    });
    await expect(s.demand.reject(s.request(supervisor), waiting.urn, "no")).resolves.toMatchObject({
      state: "REJECTED",
    });
  });
});
