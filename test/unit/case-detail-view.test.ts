import { describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import { latestWavePartOf, WAVES_COLLECTION } from "../../src/app/allocation/wave-documents.js";
import type { AuditLog } from "../../src/app/audit-log.js";
import { CaseChanges } from "../../src/app/cases/case-changes.js";
import { COLLECTIONS } from "../../src/app/cases/case-documents.js";
import type { CaseEntitlements, CaseEntitlementsView } from "../../src/app/cases/case-entitlements.js";
import type { CaseProjection } from "../../src/app/cases/case-projection.js";
import { CaseReads } from "../../src/app/cases/case-reads.js";
import { caseIdFor, caseUrnFor } from "../../src/domain/case.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { ManualClock } from "../../src/runtime/clock.js";
import type { Doc } from "../../src/runtime/document-store.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { operatorPrincipal } from "../support/principals.js";
import { opening } from "./case-fixture.js";

const tenant = "urn:airline:ZX";
const caseUrn = caseUrnFor(tenant, "evt-1");
const correlationUrn = "urn:trace:detail";
/** The documents as the areas that own them write them, with only the fields the detail reads or leaves out. */
type LooseDoc = Doc & Record<string, unknown>;
const usd = (amountMinor: number) => ({ amountMinor, currency: "USD" });

/** What the entitlements evaluation answers; the view shows it as it is. */
const entitlements = {
  groups: [{ groupId: "ABC123", amount: usd(3000) }],
} as unknown as CaseEntitlementsView;

/**
 * A case with everything the detail joins: reservations and a stay plan in the actor, review items
 * (with the storage fields the view leaves out), a live and a retired sub-case, and a wave whose
 * allocations carry the alternatives the view leaves out.
 */
async function fullCase() {
  const clock = new ManualClock("2026-11-21T23:00:00Z");
  const actors = new EmbeddedActorRuntime({
    store: new MemoryStateStore(),
    bus: new EmbeddedEventBus({ clock }),
    clock,
  });
  actors.register(CaseActor);
  await actors.start();
  const id = caseIdFor(tenant, "evt-1");
  await actors.invoke(CaseActor, id, "open", opening({ tenant }));
  await actors.invoke(CaseActor, id, "recordReservationStatus", {
    reservationUrn: "urn:reservation:r1",
    groupId: "ABC123",
    status: "CONFIRMED",
    checkIn: "2026-11-21",
    checkOut: "2026-11-22",
    correlationUrn,
  });
  await actors.invoke(CaseActor, id, "reaccommodate", {
    nextFlight: { number: "ZX104", scheduledDeparture: "2026-11-23T18:00:00Z" },
    utcOffsetMinutes: 0,
    buffers: { earlyCheckInMinutes: 0, lateCheckoutMinutes: 0 },
    by: "urn:user:supervisor-1",
    correlationUrn,
  });

  const documents = new MemoryDocumentStore();
  const item = (urn: string, createdAt: string, category: string) => ({
    _id: urn,
    urn,
    caseUrn,
    tenant,
    airport: "JFK",
    category,
    priority: "LOW",
    attemptedHotels: [{ hotelUrn: "urn:hotel:h1", reason: "full" }],
    affectedGroups: ["XYZ789"],
    recommendations: [],
    state: "OPEN",
    assignedTo: null,
    reason: `${category} for XYZ789`,
    createdAt,
    priorityRank: 3,
    revision: 2,
  });
  const items = documents.collection<LooseDoc>(COLLECTIONS.reviewItems);
  await items.insert(item("urn:review-item:2", "2026-11-21T23:20:00.000Z", "BOOKING_FAILED"));
  await items.insert(item("urn:review-item:1", "2026-11-21T23:10:00.000Z", "MIXED_TIER_GROUP"));
  const subCases = documents.collection<LooseDoc>(COLLECTIONS.subCases);
  await subCases.insert({
    _id: subCaseUrnFor(caseUrn, "ABC123"),
    tenant,
    caseUrn,
    groupId: "ABC123",
    status: "OFFER_READY",
    lockedBy: null,
    retiredAt: null,
    offer: { hotelUrn: "urn:hotel:h1" },
  });
  await subCases.insert({
    _id: "urn:sub-case:retired",
    tenant,
    caseUrn,
    groupId: "XYZ789",
    status: "CANCELLED",
    lockedBy: null,
    retiredAt: "2026-11-21T23:05:00.000Z",
  });
  const allocation = (groupId: string) => ({
    groupId,
    hotelUrn: "urn:hotel:h1",
    vendor: "vendor-a",
    providerOfferId: `offer-${groupId}`,
    rooms: 1,
    nights: 1,
    cost: usd(12000),
    alternatives: [{ hotelUrn: "urn:hotel:h2" }],
  });
  await documents.collection<LooseDoc>(WAVES_COLLECTION).insert({
    _id: "urn:wave:w1",
    urn: "urn:wave:w1",
    tenant,
    caseUrn,
    sequence: 1,
    allocations: [allocation("ABC123"), allocation("XYZ789")],
    rankingInputs: [{ hotelUrn: "urn:hotel:h2", outcome: "rejected" }],
    totalCost: usd(24000),
    savingsVsMarket: usd(1000),
  });

  const reads = new CaseReads(
    // Reading a case uses neither the projection nor the audit log.
    new CaseChanges(actors, {} as CaseProjection, {} as AuditLog),
    documents,
    (waveTenant, waveCase) =>
      latestWavePartOf(documents, waveTenant, waveCase, ["allocations", "totalCost", "savingsVsMarket"]),
    { of: async () => entitlements } as unknown as CaseEntitlements,
  );
  return { actors, reads, documents, id };
}

describe("the case detail (GET /v1/cases/{urn})", () => {
  it("answers a full case with these fields in this order, passengers' contacts only when asked", async () => {
    const { actors, reads } = await fullCase();
    const caller = operatorPrincipal("AIRPORT_OPERATOR", { airport: "JFK" });
    const passenger = (id: string, lastName: string, tier: string, groupId: string, contact?: object) => ({
      urn: `urn:passenger:${id}`,
      id,
      lastName,
      tier,
      ...(contact ? { contact } : {}),
      groupId,
      pnr: groupId,
      localResident: false,
    });
    const reviewItem = (urn: string, category: string, createdAt: string) => ({
      urn,
      caseUrn,
      category,
      priority: "LOW",
      attemptedHotels: [{ hotelUrn: "urn:hotel:h1", reason: "full" }],
      affectedGroups: ["XYZ789"],
      recommendations: [],
      state: "OPEN",
      assignedTo: null,
      reason: `${category} for XYZ789`,
      createdAt,
    });
    const allocation = (groupId: string) => ({
      groupId,
      hotelUrn: "urn:hotel:h1",
      vendor: "vendor-a",
      providerOfferId: `offer-${groupId}`,
      rooms: 1,
      nights: 1,
      cost: usd(12000),
    });
    const expected = (withContacts: boolean) => ({
      urn: caseUrn,
      tenant,
      externalEventId: "evt-1",
      status: "OPEN",
      flight: {
        number: "ZX100",
        origin: "JFK",
        destination: "LHR",
        scheduledDeparture: "2026-11-21T22:00:00Z",
        status: "CANCELLED",
      },
      nextFlight: { number: "ZX104", scheduledDeparture: "2026-11-23T18:00:00Z" },
      openedAt: "2026-11-21T23:00:00.000Z",
      updatedAt: "2026-11-21T23:00:00.000Z",
      version: 3,
      statusChange: null,
      priority: "NORMAL",
      priorityRequest: null,
      drill: false,
      passengerGroups: [
        {
          id: "ABC123",
          pnr: "ABC123",
          subCaseUrn: subCaseUrnFor(caseUrn, "ABC123"),
          operationalStatus: "OFFER_READY",
          origin: null,
          passengers: [
            passenger(
              "p1",
              "Rivera",
              "ECONOMY",
              "ABC123",
              withContacts ? { email: "a@example.com" } : undefined,
            ),
            passenger("p2", "Rivera", "ECONOMY", "ABC123"),
          ],
        },
        {
          id: "XYZ789",
          pnr: "XYZ789",
          subCaseUrn: subCaseUrnFor(caseUrn, "XYZ789"),
          operationalStatus: "OPEN",
          origin: null,
          passengers: [
            passenger(
              "p3",
              "Okafor",
              "BUSINESS",
              "XYZ789",
              withContacts ? { phone: "+14155550100" } : undefined,
            ),
          ],
        },
      ],
      wave: {
        urn: "urn:wave:w1",
        allocations: [allocation("ABC123"), allocation("XYZ789")],
        totalCost: usd(24000),
        savingsVsMarket: usd(1000),
      },
      reservations: [
        {
          reservationUrn: "urn:reservation:r1",
          groupId: "ABC123",
          status: "CONFIRMED",
          checkIn: "2026-11-21",
          checkOut: "2026-11-22",
        },
      ],
      manualReviewItems: [
        reviewItem("urn:review-item:1", "MIXED_TIER_GROUP", "2026-11-21T23:10:00.000Z"),
        reviewItem("urn:review-item:2", "BOOKING_FAILED", "2026-11-21T23:20:00.000Z"),
      ],
      stayPlan: STAY_PLAN,
      entitlements,
    });

    // The same bytes, not merely equal values: the response is the view as JSON.
    expect(JSON.stringify(await reads.detail(caller, caseUrn, { withContacts: true }))).toBe(
      JSON.stringify(expected(true)),
    );
    expect(JSON.stringify(await reads.detail(caller, caseUrn, { withContacts: false }))).toBe(
      JSON.stringify(expected(false)),
    );
    await actors.close();
  });
});

/** The stay plan the reaccommodation to ZX104 made, as the case keeps it. */
const STAY_PLAN = {
  overnightGap: true,
  leaveForAirportAt: "2026-11-23T15:00:00.000Z",
  nights: { checkIn: "2026-11-21", checkOut: "2026-11-23" },
  groups: [
    {
      groupId: "ABC123",
      reservationUrn: "urn:reservation:r1",
      checkIn: "2026-11-21",
      checkOut: "2026-11-23",
      decision: "extend",
      reason: "check-out moves from 2026-11-22 to 2026-11-23",
    },
    {
      groupId: "XYZ789",
      decision: "unchanged",
      checkIn: "2026-11-21",
      checkOut: "2026-11-23",
      reason: "no reservation yet: allocation books this stay",
    },
  ],
};

describe("a case read again", () => {
  const caller = operatorPrincipal("AIRPORT_OPERATOR", { airport: "JFK" });
  const read = (reads: CaseReads, withContacts = true) => reads.detail(caller, caseUrn, { withContacts });

  it("unchanged, answers the view it built the last time (its JSON is then written once)", async () => {
    const { actors, reads } = await fullCase();
    const first = await read(reads);
    expect(await read(reads)).toBe(first);
    // The partner's view, without contacts, is a view of its own.
    const partners = await read(reads, false);
    expect(partners).not.toBe(first);
    expect(await read(reads, false)).toBe(partners);
    expect(await read(reads)).toBe(first);
    await actors.close();
  });

  it("after the case, a sub-case, a review item or the wave changed, answers what changed", async () => {
    const { actors, reads, documents, id } = await fullCase();
    const first = await read(reads);

    await actors.invoke(CaseActor, id, "recordReservationStatus", {
      reservationUrn: "urn:reservation:r2",
      groupId: "XYZ789",
      status: "CONFIRMED",
      checkIn: "2026-11-21",
      checkOut: "2026-11-23",
      correlationUrn,
    });
    const afterCase = await read(reads);
    expect(afterCase.version).toBe(first.version + 1);
    expect(afterCase.reservations.map((r) => r.reservationUrn)).toEqual([
      "urn:reservation:r1",
      "urn:reservation:r2",
    ]);

    await documents
      .collection<LooseDoc>(COLLECTIONS.subCases)
      .updateOne({ _id: subCaseUrnFor(caseUrn, "ABC123") }, { $set: { status: "CHECKED_IN" } });
    const afterSubCase = await read(reads);
    expect(afterSubCase.passengerGroups[0]?.operationalStatus).toBe("CHECKED_IN");

    await documents.collection<LooseDoc>(COLLECTIONS.reviewItems).insert({
      _id: "urn:review-item:3",
      urn: "urn:review-item:3",
      caseUrn,
      tenant,
      airport: "JFK",
      category: "NO_AVAILABILITY",
      createdAt: "2026-11-21T23:30:00.000Z",
    });
    const afterItem = await read(reads);
    expect(afterItem.manualReviewItems.map((item) => item.urn)).toEqual([
      "urn:review-item:1",
      "urn:review-item:2",
      "urn:review-item:3",
    ]);

    await documents.collection<LooseDoc>(WAVES_COLLECTION).insert({
      _id: "urn:wave:w2",
      urn: "urn:wave:w2",
      tenant,
      caseUrn,
      sequence: 2,
      allocations: [],
      totalCost: usd(0),
      savingsVsMarket: null,
    });
    const afterWave = await read(reads);
    expect(afterWave.wave).toEqual({ urn: "urn:wave:w2", allocations: [], totalCost: usd(0), savingsVsMarket: null });
    expect(await read(reads)).toBe(afterWave);
    await actors.close();
  });
});
