import { describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import { DemandActor } from "../../actors/DemandActor.js";
import { ALLOCATIONS_COLLECTION, CaseFulfilmentReader } from "../../src/app/cases/case-fulfilment.js";
import { CaseDemandSummary } from "../../src/app/demand/demand-summary.js";
import { COLLECTIONS } from "../../src/app/cases/case-documents.js";
import type { Airport, Directory } from "../../src/app/directory.js";
import { caseIdFor, type NextFlight, type PassengerGroup } from "../../src/domain/case.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { operatorPrincipal } from "../support/principals.js";

const ZX = "urn:airline:ZX";
const operator = operatorPrincipal("AIRPORT_OPERATOR", { actorUrn: "urn:user:op" });

function group(id: string, size: number): PassengerGroup {
  return {
    id,
    passengers: Array.from({ length: size }, (_, i) => ({
      id: `${id}-${i}`,
      lastName: "Okafor",
      tier: "ECONOMY",
      contact: { phone: "+15550100" },
    })),
  };
}

const jfk: Airport = {
  code: "JFK",
  name: "John F. Kennedy",
  city: "New York",
  country: "US",
  lat: 40.64,
  lon: -73.78,
};
const directory = {
  organizations: async () => [{ airlineUrn: ZX, code: "ZX", name: "Zephyr Air", airports: [jfk] }],
} as Partial<Directory> as Directory;

async function setup(nextFlight?: NextFlight) {
  const clock = new ManualClock("2026-11-21T20:00:00Z");
  const actors = new EmbeddedActorRuntime({
    store: new MemoryStateStore(),
    bus: new EmbeddedEventBus({ clock }),
    clock,
  });
  actors.register(CaseActor);
  actors.register(DemandActor);
  await actors.start();
  const documents = new MemoryDocumentStore();
  const caseId = caseIdFor(ZX, "evt-summary");
  const caseUrn = `urn:case:${caseId}`;
  // Groups need 1 (G1: 2 people), 2 (G2: 3 people) and 3 rooms (G3: 6 people).
  await actors.invoke(CaseActor, caseId, "open", {
    tenant: ZX,
    externalEventId: "evt-summary",
    flight: { number: "ZX1", origin: "JFK", destination: "LHR", scheduledDeparture: "2026-11-21T22:00:00Z" },
    ...(nextFlight ? { nextFlight } : {}),
    passengerGroups: [group("G1", 2), group("G2", 3), group("G3", 6)],
    openedBy: "urn:user:sup",
    correlationUrn: "urn:trace:x",
    intake: { source: "operator" },
  });
  const demand = (type: "INITIAL" | "INCREMENTAL", roomsRequested: number) =>
    actors.invoke(DemandActor, caseId, "request", {
      tenant: ZX,
      caseUrn,
      airport: "JFK",
      type,
      roomsRequested,
      requestedBy: operator.actorUrn,
      correlationUrn: "urn:trace:x",
      policy: {
        urn: "urn:policy:p.1",
        version: 1,
        autoApproveDemand: true,
        maxAutomaticRoomsPerWave: 5,
        incrementalRequiresApproval: true,
      },
    });
  const summary = new CaseDemandSummary(actors, new CaseFulfilmentReader(documents), directory);
  return { actors, documents, caseId, caseUrn, demand, summary };
}

describe("the demand summary of a case (spec 2.3)", () => {
  it("is all zeros for a case without demand", async () => {
    const s = await setup();
    expect(await s.summary.of(operator, s.caseUrn)).toEqual({
      caseUrn: s.caseUrn,
      totalRequested: 0,
      totalApproved: 0,
      totalAllocated: 0,
      totalBooked: 0,
      shortfall: 0,
      shortfallReasons: [],
    });
  });

  it("sets demand against allocations, confirmed reservations and open review items", async () => {
    const s = await setup();
    await s.demand("INITIAL", 5); // approved automatically
    await s.demand("INCREMENTAL", 1); // waits: incremental demand needs a supervisor
    const allocations = s.documents.collection<{ _id: string; [field: string]: unknown }>(
      ALLOCATIONS_COLLECTION,
    );
    await allocations.insert({ _id: "a1", tenant: ZX, caseUrn: s.caseUrn, groupId: "G1", rooms: 1 });
    await allocations.insert({ _id: "a2", tenant: ZX, caseUrn: s.caseUrn, groupId: "G2", rooms: 2 });
    await allocations.insert({
      _id: "a3",
      tenant: "urn:airline:VQ",
      caseUrn: s.caseUrn,
      groupId: "G3",
      rooms: 3,
    });
    for (const [reservationUrn, groupId, status] of [
      ["urn:reservation:r1", "G1", "CONFIRMED"],
      ["urn:reservation:r2", "G2", "PENDING"],
    ] as const) {
      await s.actors.invoke(CaseActor, s.caseId, "recordReservationStatus", {
        reservationUrn,
        groupId,
        status,
        correlationUrn: "urn:trace:x",
      });
    }
    const items = s.documents.collection<{ _id: string; [field: string]: unknown }>(COLLECTIONS.reviewItems);
    const item = (id: string, category: string, affectedGroups: string[], state = "OPEN") =>
      items.insert({ _id: id, tenant: ZX, caseUrn: s.caseUrn, category, affectedGroups, state });
    await item("i1", "ALLOCATION_FAILED", ["G3"]);
    await item("i2", "DATA_INCOMPLETE", ["G2", "G3"]);
    await item("i3", "BOOKING_FAILED", ["G1"]); // G1 is booked: nothing to explain
    await item("i4", "PAYMENT_FAILED", ["G2"], "RESOLVED");

    expect(await s.summary.of(operator, s.caseUrn)).toEqual({
      caseUrn: s.caseUrn,
      totalRequested: 6,
      totalApproved: 5,
      totalAllocated: 3,
      totalBooked: 1,
      shortfall: 4,
      shortfallReasons: [
        { category: "ALLOCATION_FAILED", groups: ["G3"], rooms: 3 },
        { category: "DATA_INCOMPLETE", groups: ["G2"], rooms: 2 },
      ],
    });
  });

  it("explains approved rooms as NO_OVERNIGHT_GAP when the next flight leaves before any night", async () => {
    // Disrupted at 17:00 New York time, rebooked at 20:30 the same evening: no night to house.
    const s = await setup({ number: "ZX3", scheduledDeparture: "2026-11-22T01:30:00Z" });
    await s.demand("INITIAL", 5);
    expect(await s.summary.of(operator, s.caseUrn)).toMatchObject({
      totalApproved: 5,
      totalBooked: 0,
      shortfall: 5,
      shortfallReasons: [{ category: "NO_OVERNIGHT_GAP", groups: ["G1", "G2", "G3"], rooms: 5 }],
    });
  });

  it("leaves the night to the case's stay plan when the directory does not know the airport", async () => {
    const s = await setup({ number: "ZX3", scheduledDeparture: "2026-11-22T01:30:00Z" });
    await s.demand("INITIAL", 5);
    const noAirports = { organizations: async () => [] } as Partial<Directory> as Directory;
    const summary = new CaseDemandSummary(s.actors, new CaseFulfilmentReader(s.documents), noAirports);
    const { shortfallReasons } = await summary.of(operator, s.caseUrn);
    expect(shortfallReasons).not.toContainEqual(expect.objectContaining({ category: "NO_OVERNIGHT_GAP" }));
  });

  it("refuses another airline's case and answers not-found for an unknown one", async () => {
    const s = await setup();
    await expect(s.summary.of({ ...operator, tenant: "urn:airline:VQ" }, s.caseUrn)).rejects.toMatchObject({
      kind: "forbidden",
    });
    await expect(s.summary.of(operator, "urn:case:unknown")).rejects.toMatchObject({ kind: "not-found" });
  });
});
