import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DemandActor } from "../../actors/DemandActor.js";
import { DEMO_SEED_ACTOR, seedDemoPolicies } from "../../services/hotels/demo-policies.js";
import { simulatorsOf } from "../support/container.js";
import { AuditLog } from "../../src/app/audit-log.js";
import { DocumentAuditTrail } from "../../src/app/document-audit-trail.js";
import { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import { PolicyIndex } from "../../src/app/policies/policy-index.js";
import { createDemoDirectory } from "../../src/demo/demo-directory.js";
import { verdictsAbout } from "../../src/domain/allocation/ranking.js";
import { roomsNeededFor } from "../../src/domain/demand.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { allocationPlatform, enc } from "./allocation-fixture.js";
import { json } from "../support/responses.js";

let p: Awaited<ReturnType<typeof allocationPlatform>>;

beforeAll(async () => {
  p = await allocationPlatform();
});
afterAll(async () => {
  await p?.t.close();
});

const GATE_REASONS =
  /^(provider-not-allowed|no-exchange-rate:[A-Z]{3}|no-rooms|unrated|below-min-stars|too-far|over-max-rate|missing-amenity:[A-Z0-9_]+|excluded-chain|payment-not-accepted|duplicate-of:.+)$/;
const PAIR_REASONS = ["assigned", "better-score-elsewhere", "hotel-full", "not-enough-rooms"];

describe("demo policies seeded at start", () => {
  it("gives every demo airport one active, audited ON_DEMAND policy that approves up to 300 rooms, once", async () => {
    const active = await json(
      await p.t.call("GET", "/v1/policies/active?limit=200", await p.token("operator@zx.demo")),
      200,
    );
    const seeded = active.items.filter((policy: any) => policy.name.startsWith("Demo:"));
    expect(seeded.map((policy: any) => policy.context.airport).sort()).toEqual(["BOS", "JFK", "ORD"]);
    for (const policy of seeded) {
      expect(policy).toMatchObject({
        status: "ACTIVE",
        mode: "ON_DEMAND",
        autoApproveDemand: true,
        maxAutomaticRoomsPerWave: 300,
        constraints: { minStars: 3, maxDistanceKm: 25 },
      });
    }
    const trail = await json(
      await p.t.call("GET", `/v1/audit/entity/${enc(seeded[0].urn)}`, await p.token("supervisor@zx.demo")),
      200,
    );
    expect(trail.items.map((e: any) => [e.action, e.actorUrn])).toEqual([
      ["policy.create", DEMO_SEED_ACTOR],
      ["policy.activate", DEMO_SEED_ACTOR],
    ]);

    const { runtime } = p.t.platform;
    const index = new PolicyIndex(runtime.documents);
    const again = await seedDemoPolicies(
      createDemoDirectory(runtime.clock),
      index,
      new PolicyAdministration(
        runtime.actors,
        index,
        new AuditLog(new DocumentAuditTrail(runtime.documents), runtime.clock),
      ),
      "urn:trace:0123456789abcdef0123456789abcdef",
    );
    expect(again).toEqual([]);
  });
});

describe("intake to wave, with nobody acting (auto-approving ON_DEMAND policy)", () => {
  it("turns a new case into INITIAL demand for every group's rooms, then a completed wave", async () => {
    const tiers = [["ECONOMY", "ECONOMY", "ECONOMY"], ["CREW", "CREW"], ["BUSINESS"]];
    const { urn, groupIds } = await p.openCase("JFK", tiers);

    const approved = await p.eventOf("demand.approved", urn);
    const rooms = tiers.map((group) =>
      roomsNeededFor({ passengers: group.map((tier) => ({ id: "x", lastName: "x", tier })) }),
    );
    expect(approved.data).toMatchObject({
      caseUrn: urn,
      type: "INITIAL",
      roomsRequested: rooms.reduce((a, b) => a + b),
    });

    const completed = await p.eventOf("allocation.wave-completed", urn);
    expect(completed.data).toMatchObject({
      caseUrn: urn,
      demandUrn: approved.data.demandUrn,
      autoBook: true,
    });
    expect(completed.data.allocations.map((a: any) => a.groupId).sort()).toEqual([...groupIds].sort());

    // The wave's own steps: the sub-case sagas the booking starts report theirs with their subCaseUrn.
    const steps = p.events.filter(
      (e) => e.type.startsWith("graph.step.") && e.caseUrn === urn && !(e.data as any).subCaseUrn,
    );
    expect(steps[0]).toMatchObject({
      type: "graph.step.started",
      data: { caseUrn: urn, name: "allocation-wave" },
    });
    const stepUrn = steps[0]!.data.stepUrn;
    expect(steps.filter((s) => s.type === "graph.step.progress").map((s) => s.data.progress)).toEqual([
      0.1, 0.2, 0.5, 0.8,
    ]);
    expect(steps.every((s) => s.data.stepUrn === stepUrn)).toBe(true);
    const done = await p.eventOf("graph.step.completed", urn, (e) => e.data.stepUrn === stepUrn);
    expect(done.data).toMatchObject({
      caseUrn: urn,
      stepUrn,
      result: { outcome: "WAVE_COMPLETED", waveUrn: completed.data.waveUrn, allocated: 3, unallocated: 0 },
    });
  });

  it("creates the case's INITIAL demand once, however often case.opened is delivered", async () => {
    const { urn } = await p.openCase("JFK", [["ECONOMY"]]);
    const opened = await p.eventOf("case.opened", urn);
    await p.eventOf("allocation.wave-completed", urn);
    await p.t.platform.runtime.bus.publish(topicFor(opened), opened);
    const ledger = await p.t.platform.runtime.actors.invoke(
      DemandActor,
      urn.slice("urn:case:".length),
      "get",
    );
    expect(ledger?.demands.map((d) => [d.type, d.requestedBy])).toEqual([["INITIAL", "urn:system:intake"]]);
    const again = await p.t.call("POST", `/v1/demand/case/${enc(urn)}`, await p.token("operator@zx.demo"), {
      type: "INITIAL",
      roomsRequested: 1,
    });
    expect(again.status).toBe(409);
  });
});

describe("the wave record (GET /allocation/wave/{urn})", () => {
  let wave: any;
  let caseUrn: string;
  let excludedChain: string;

  beforeAll(async () => {
    const boston = simulatorsOf(p.t.platform).catalog.atAirport("BOS");
    excludedChain = boston.find((h) => h.chain && (h.stars ?? 0) >= 4 && h.distanceKm <= 12)!.chain!.chainId;
    await p.activePolicy("ZX", "BOS", {
      constraints: {
        minStars: 4,
        maxDistanceKm: 12,
        requiredAmenities: ["24H_RECEPTION"],
        excludedChains: [excludedChain],
      },
      mode: "ON_DEMAND",
      autoApproveDemand: true,
      maxAutomaticRoomsPerWave: 300,
    });
    ({ urn: caseUrn } = await p.openCase("BOS", [["ECONOMY", "ECONOMY"], ["ECONOMY"], ["BUSINESS"]]));
    const completed = await p.eventOf("allocation.wave-completed", caseUrn);
    wave = await p.waveRecord(completed.data.waveUrn, "operator@zx.demo");
  });

  it("keeps the case, demand, policy, allocations, total cost and savings", async () => {
    expect(wave).toMatchObject({
      caseUrn,
      airport: "BOS",
      sequence: 1,
      status: "COMPLETED",
      autoBook: true,
      currency: "USD",
      trigger: { kind: "demand-approved" },
    });
    expect(wave.urn).toMatch(/^urn:wave:.+\.1$/);
    expect(wave.demandUrn).toMatch(/^urn:demand:/);
    expect(wave.policyUrn).toMatch(/^urn:policy:/);
    expect(wave.allocations).toHaveLength(3);
    for (const allocation of wave.allocations) {
      expect(allocation).toMatchObject({ nights: 1, checkIn: "2026-11-21", checkOut: "2026-11-22" });
      expect(allocation.cost.amountMinor).toBe(allocation.nightlyRate.amountMinor * allocation.rooms);
      expect(wave.hotels.some((h: any) => h.hotelUrn === allocation.hotelUrn)).toBe(true);
    }
    const total = wave.allocations.reduce((sum: number, a: any) => sum + a.cost.amountMinor, 0);
    expect(wave.totalCost).toEqual({ amountMinor: total, currency: "USD" });
    expect(wave.savingsVsMarket).toEqual({ amountMinor: 0, currency: "USD" });

    const v1 = await json(
      await p.t.call("GET", `/v1/allocation/wave/${enc(wave.urn)}`, await p.token("finance@zx.demo")),
      200,
    );
    expect(v1).toEqual(wave);
  });

  it("reports every gate that discarded an offer, and houses groups only where every gate passed", async () => {
    const offerLevel = wave.rankingInputs.filter((r: any) => r.classId === null);
    for (const entry of offerLevel) {
      expect(entry.outcome).toBe("discarded");
      expect(entry.weightedScore).toBeNull();
      for (const reason of entry.reasons) expect(reason).toMatch(GATE_REASONS);
      const hotel = wave.hotels.find((h: any) => h.hotelUrn === entry.hotelUrn);
      expect(entry.reasons.includes("too-far")).toBe(entry.raw.distanceKm > 12);
      if (entry.reasons.includes("below-min-stars")) expect(hotel.stars).toBeLessThan(4);
      if (entry.reasons.includes("excluded-chain")) expect(hotel.chainId).toBe(excludedChain);
    }
    const seen = new Set(offerLevel.flatMap((r: any) => r.reasons));
    for (const reason of ["too-far", "below-min-stars", "excluded-chain", "missing-amenity:24H_RECEPTION"]) {
      expect(seen, reason).toContain(reason);
    }

    const rows = wave.rankingInputs.filter((r: any) => r.classId !== null);
    for (const row of rows) {
      for (const reason of row.reasons) expect(PAIR_REASONS).toContain(reason);
      expect(row.weightedScore).toBeGreaterThanOrEqual(0);
      expect(row.weightedScore).toBeLessThanOrEqual(1);
      expect(row.raw.distanceKm).toBeLessThanOrEqual(12);
      const hotel = wave.hotels.find((h: any) => h.hotelUrn === row.hotelUrn);
      expect(hotel.stars).toBeGreaterThanOrEqual(4);
      expect(hotel.chainId).not.toBe(excludedChain);
    }
    // Each group is in one class, and every hotel taking part has a verdict on each group.
    const groupIds = wave.groups.map((g: any) => g.groupId).sort();
    expect(wave.rankingClasses.flatMap((c: any) => c.groupIds).sort()).toEqual(groupIds);
    for (const hotelUrn of new Set<string>(rows.map((r: any) => r.hotelUrn))) {
      for (const groupId of groupIds) {
        const about = verdictsAbout(rows, wave.rankingClasses, [groupId]).filter(
          (r: any) => r.hotelUrn === hotelUrn,
        );
        expect(about, `${groupId} at ${hotelUrn}`).toHaveLength(1);
      }
    }
    for (const allocation of wave.allocations) {
      const selected = rows.filter(
        (r: any) => r.outcome === "selected" && r.groupIds.includes(allocation.groupId),
      );
      expect(selected).toHaveLength(1);
      expect(selected[0]).toMatchObject({ hotelUrn: allocation.hotelUrn, reasons: ["assigned"] });
    }
  });

  it("lists the latest wave's hotels for the case, and the rooms it allocated in the demand summary", async () => {
    const operator = await p.token("operator@zx.demo");
    const hotels = await json(await p.t.call("GET", `/v1/hotels/cases/${enc(caseUrn)}`, operator), 200);
    expect(hotels.waveUrn).toBe(wave.urn);
    const housed = hotels.hotels.flatMap((h: any) => h.groups.map((g: any) => [g.groupId, h.hotelUrn]));
    expect(housed.sort()).toEqual(wave.allocations.map((a: any) => [a.groupId, a.hotelUrn]).sort());

    const summary = await json(
      await p.t.call("GET", `/v1/demand/case/${enc(caseUrn)}/summary`, operator),
      200,
    );
    expect(summary.totalAllocated).toBe(wave.allocations.reduce((sum: number, a: any) => sum + a.rooms, 0));
  });

  it("is read by the airline's operators of that airport only", async () => {
    await json(
      await p.t.call("GET", `/allocation/wave/${enc(wave.urn)}`, await p.token("operator@vq.demo")),
      403,
    );
    await json(
      await p.t.call("GET", `/allocation/wave/${enc(wave.urn)}`, await p.token("operator.jfk@zx.demo")),
      403,
    );
    const unknown = wave.urn.replace(/\.1$/, ".99");
    await json(
      await p.t.call("GET", `/allocation/wave/${enc(unknown)}`, await p.token("operator@zx.demo")),
      404,
    );
    await json(
      await p.t.call("GET", `/allocation/wave/${enc("urn:wave:nope")}`, await p.token("operator@zx.demo")),
      404,
    );
    await json(
      await p.t.call("GET", `/allocation/wave/${enc("not-a-urn")}`, await p.token("operator@zx.demo")),
      400,
    );
  });

  it("answers GET /v1/hotels/cases/{urn} for known cases of the caller's airline only", async () => {
    await json(
      await p.t.call("GET", `/v1/hotels/cases/${enc(caseUrn)}`, await p.token("operator@vq.demo")),
      403,
    );
    await json(
      await p.t.call("GET", `/v1/hotels/cases/${enc(caseUrn)}`, await p.token("finance@zx.demo")),
      403,
    );
    await json(
      await p.t.call(
        "GET",
        `/v1/hotels/cases/${enc("urn:case:00000000-0000-0000-0000-000000000000")}`,
        await p.token("operator@zx.demo"),
      ),
      404,
    );
    await json(
      await p.t.call("GET", `/v1/hotels/cases/${enc("urn:wave:x.1")}`, await p.token("operator@zx.demo")),
      400,
    );
  });
});

describe("currencies", () => {
  it("states a wave's amounts in the currency of its airport's country, vendor rates converted", async () => {
    const { urn } = await p.openCase("GRU", [["ECONOMY"]], "supervisor@vq.demo");
    const completed = await p.eventOf("allocation.wave-completed", urn);
    const wave = await p.waveRecord(completed.data.waveUrn, "operator@vq.demo");
    expect(wave.currency).toBe("BRL");
    expect(wave.allocations).toHaveLength(1);
    const [allocation] = wave.allocations;
    expect(allocation.cost.currency).toBe("BRL");
    const offer = wave.hotels
      .find((h: any) => h.hotelUrn === allocation.hotelUrn)
      .offers.find((o: any) => o.providerOfferId === allocation.providerOfferId);
    expect(offer.nightlyRate.currency).not.toBe("BRL");
    expect(offer.convertedNightlyRate).toEqual(allocation.nightlyRate);
  });
});

describe("no compliant hotel (ALLOCATION_FAILED)", () => {
  it("keeps the wave, leaves the groups unallocated and asks for an ALLOCATION_FAILED review item", async () => {
    await p.activePolicy("VQ", "LHR", {
      constraints: { minStars: 5, maxDistanceKm: 0.5 },
      mode: "ON_DEMAND",
      autoApproveDemand: true,
      maxAutomaticRoomsPerWave: 300,
    });
    const { urn, groupIds } = await p.openCase(
      "LHR",
      [["ECONOMY"], ["ECONOMY", "ECONOMY"]],
      "supervisor@vq.demo",
    );
    const completed = await p.eventOf("allocation.wave-completed", urn);
    expect(completed.data.allocations).toEqual([]);
    const requested = await p.eventOf("review-item.requested", urn);
    expect(requested.data).toMatchObject({
      caseUrn: urn,
      category: "ALLOCATION_FAILED",
      demandUrn: completed.data.demandUrn,
      waveUrn: completed.data.waveUrn,
    });
    expect(requested.data.affectedGroups.sort()).toEqual([...groupIds].sort());
    expect(requested.data.attemptedHotels.length).toBeGreaterThan(0);
    for (const attempted of requested.data.attemptedHotels) expect(attempted.reason).toMatch(GATE_REASONS);

    const wave = await p.waveRecord(completed.data.waveUrn, "operator.lhr@vq.demo");
    expect(wave.currency).toBe("GBP");
    expect(wave.unallocated.map((u: any) => u.reason)).toEqual([
      "no-policy-compliant-hotel",
      "no-policy-compliant-hotel",
    ]);
    expect(wave.totalCost).toEqual({ amountMinor: 0, currency: "GBP" });
  });

  it("settles the booking of a wave that allocated no group: nothing booked, the groups in the ALLOCATION_FAILED item", async () => {
    await p.activePolicy("VQ", "LHR", {
      constraints: { minStars: 5, maxDistanceKm: 0.5 },
      mode: "ON_DEMAND",
      autoApproveDemand: true,
      maxAutomaticRoomsPerWave: 300,
    });
    const { urn, groupIds } = await p.openCase("LHR", [["ECONOMY"], ["ECONOMY"]], "supervisor@vq.demo");
    const completed = await p.eventOf("allocation.wave-completed", urn);
    expect(completed.data).toMatchObject({ autoBook: true, allocations: [] });

    const settled = await p.eventOf("booking.wave-settled", urn);
    expect(settled.data).toEqual({
      waveUrn: completed.data.waveUrn,
      caseUrn: urn,
      demandUrn: completed.data.demandUrn,
      outcome: "FAILED",
      roomsBooked: 0,
      allGroupsBooked: false,
      reviewItemUrn: null,
    });
    // The wave's own item names every group; booking, which tried none, asks for nothing more.
    const requested = p.events.filter((e) => e.type === "review-item.requested" && e.caseUrn === urn);
    expect(requested.map((e) => [e.data.category, [...e.data.affectedGroups].sort()])).toEqual([
      ["ALLOCATION_FAILED", [...groupIds].sort()],
    ]);
    const ledger = await p.t.platform.runtime.actors.invoke(
      DemandActor,
      urn.slice("urn:case:".length),
      "get",
    );
    expect(ledger?.demands.map((d) => [d.urn, d.state])).toEqual([[completed.data.demandUrn, "APPROVED"]]);
  });
});

describe("no matching policy (POLICY_VIOLATION)", () => {
  it("sends the case to manual review with a POLICY_VIOLATION item, and writes no wave", async () => {
    const vqAdmin = await p.token("admin@vq.demo");
    const active = await json(
      await p.t.call("GET", "/v1/policies/active?limit=200", await p.token("operator@vq.demo")),
      200,
    );
    for (const policy of active.items.filter((a: any) => a.context.airport === "MAD")) {
      await json(
        await p.t.call("POST", `/v1/policies/${enc(policy.urn)}/deactivate`, vqAdmin, {
          reason: "test: no policy at MAD",
        }),
        200,
      );
    }
    const { urn } = await p.openCase("MAD", [["ECONOMY"]], "supervisor@vq.demo");
    const requested = await p.eventOf("demand.requested", urn);
    const supervisor = await p.token("supervisor@vq.demo");

    // Demand waits for a supervisor without a policy; allocation needs it approved.
    const early = await json(await p.t.call("POST", `/v1/cases/${enc(urn)}/allocate`, supervisor), 409);
    expect(early.type).toMatch(/no-approved-demand$/);

    await json(
      await p.t.call("POST", `/v1/demand/${enc(requested.data.demandUrn)}/approve`, supervisor, {
        reason: "stranded",
      }),
      200,
    );
    const done = await p.eventOf("graph.step.completed", urn);
    expect(done.data.result).toMatchObject({ outcome: "MANUAL_REVIEW" });

    const detail = await json(await p.t.call("GET", `/v1/cases/${enc(urn)}`, supervisor), 200);
    expect(detail.status).toBe("MANUAL_REVIEW");
    expect(detail.manualReviewItems.map((i: any) => [i.category, i.priority])).toEqual([
      ["POLICY_VIOLATION", "LOW"],
    ]);
    const hotels = await json(await p.t.call("GET", `/v1/hotels/cases/${enc(urn)}`, supervisor), 200);
    expect(hotels).toEqual({ caseUrn: urn, waveUrn: null, hotels: [] });
    expect(p.events.some((e) => e.type === "allocation.wave-completed" && e.caseUrn === urn)).toBe(false);

    const explicit = await json(
      await p.t.call("POST", "/v1/allocation/allocate", supervisor, { caseUrn: urn }),
      200,
    );
    expect(explicit).toMatchObject({ outcome: "MANUAL_REVIEW", caseUrn: urn, waveUrn: null });
  });
});
