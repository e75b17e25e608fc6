/**
 * The booking flow end to end (spec 2.3, 2.5, 2.6): a pushed disruption → demand auto-approved →
 * wave → reservations → vouchers, with one vendor failing and one hotel full, ending in a
 * PARTIAL_FULFILLMENT item that an operator resolves by rebook. Everything runs as `npm start`
 * runs it (embedded runtime, in-process vendor simulators, the seeded demo policies); the test only
 * injects the two faults.
 *
 * The scenario is chosen from what the vendors sell (through the platform's own search), so it does
 * not hang on one seed: an airport of the airline, a failing vendor F, and a hotel H that is the
 * only hotel the demo policy accepts there (reachable without F) with enough rooms for one large
 * party. The party is allocated to H; H fills up between the wave and the booking (the vendor
 * refuses), so the party is left without a room while the small parties are booked:
 * PARTIAL_FULFILLMENT. The operator rebooks the party on a large hotel just outside the policy,
 * booking confirms, and the item resolves as REBOOKED.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/app/audit-entry.js";
import type { ReviewQueueEntry } from "../../src/app/manual-review/review-queue-index.js";
import { caseUrnFor } from "../../src/domain/case.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import type { Hotel } from "../../src/domain/allocation/dedup.js";
import type { HotelOffer } from "../../src/domain/allocation/offer.js";
import { type Coordinates, greatCircleKm } from "../../src/domain/geo.js";
import type { Airport } from "../../src/app/directory.js";
import { ZEPHYR_AIR } from "../../src/demo/demo-airlines.js";
import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import type { HotelSearch } from "../../src/app/hotel-search.js";
import type { VendorSimulators } from "../../services/vendor-sim/simulators.js";
import { hotelSearchOf, simulatorsOf } from "../support/container.js";
import { overnightFlights } from "../support/overnight-flights.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";

const ZX = "urn:airline:ZX";
/** The seeded demo policy at every demo airport (services/hotels/demo-policies.ts). */
const DEMO_POLICY = { minStars: 3, maxDistanceKm: 25 };
/** How long each step may take; real time, since vendor retries and the search time-box run on it. */
const STEP_TIMEOUT_MS = 30_000;
const enc = encodeURIComponent;

/** What the scenario is chosen with: the platform's own search and its simulators' catalog. */
interface Hotels {
  search: HotelSearch;
  simulators: VendorSimulators;
}

interface Scenario {
  airport: string;
  failing: SimulatedVendorId;
  /** The hotel that fills up, its catalog key (for the simulators) and its URN (as waves name it). */
  full: { hotelUrn: string; key: string; name: string };
  rooms: number;
  target: { hotelUrn: string; name: string };
}

/** The demo policy's verdict on an offer: yes, no, or too close to a limit to tell. */
function verdict(airport: Coordinates, offer: HotelOffer): "accepted" | "refused" | "borderline" {
  const distanceKm = greatCircleKm(airport, offer);
  if (!offer.payments.includes("GUARANTEE") || (offer.stars ?? 0) < DEMO_POLICY.minStars) return "refused";
  if (Math.abs(distanceKm - DEMO_POLICY.maxDistanceKm) < 0.5) return "borderline";
  return distanceKm <= DEMO_POLICY.maxDistanceKm ? "accepted" : "refused";
}

/**
 * A vendor to fail and a hotel to fill, chosen from what the vendors actually sell (through the
 * platform's own search, whose cache is then dropped): the hotel is the only one the demo policy
 * accepts, reachable without the failing vendor, with rooms enough for the party; the rebook target
 * is the nearest hotel outside the policy that has them.
 */
async function chooseScenario(hotels: Hotels): Promise<Scenario> {
  for (const airport of ZEPHYR_AIR.airports) {
    const found = await scenarioAt(hotels, airport);
    if (found) return found;
  }
  throw new Error(
    `No airport of ${ZX} offers a scenario: at none is one accepted hotel alone the one with the most rooms`,
  );
}

async function scenarioAt(hotels: Hotels, airport: Airport): Promise<Scenario | undefined> {
  const day = (offsetDays: number) =>
    new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
  const found = await hotels.search.searchHotels({
    tenant: ZX,
    airport: airport.code,
    checkIn: day(0),
    checkOut: day(1),
    rooms: 1,
  });
  hotels.search.invalidate(airport.code);
  const distance = (offer: HotelOffer) => greatCircleKm(airport, offer);
  const catalog = hotels.simulators.catalog.atAirport(airport.code);
  const catalogKeyOf = (offer: HotelOffer) =>
    catalog.reduce((best, h) => (greatCircleKm(h, offer) < greatCircleKm(best, offer) ? h : best)).key;
  for (const failing of Object.keys(hotels.simulators.byId) as SimulatedVendorId[]) {
    const roomsAt = (hotel: Hotel, accept: (v: ReturnType<typeof verdict>) => boolean) =>
      Math.max(
        0,
        ...hotel.offers
          .filter((o) => o.provider !== failing && accept(verdict(airport, o)))
          .map((o) => o.roomsAvailable),
      );
    const ranked = found.hotels
      .map((hotel) => ({
        hotel,
        accepted: roomsAt(hotel, (v) => v === "accepted"),
        possible: roomsAt(hotel, (v) => v !== "refused"),
      }))
      .sort((a, b) => b.possible - a.possible);
    const [largest, next] = ranked;
    if (!largest || !next || largest.accepted !== largest.possible || largest.accepted <= next.possible)
      continue;
    const rooms = next.possible + 1;
    const [target] = found.hotels
      .filter((hotel) => roomsAt(hotel, (v) => v !== "refused") === 0)
      .flatMap((hotel) =>
        hotel.offers
          .filter(
            (o) => o.provider !== failing && o.payments.includes("GUARANTEE") && o.roomsAvailable >= rooms,
          )
          .map((offer) => ({ hotel, offer })),
      )
      .sort((a, b) => distance(a.offer) - distance(b.offer));
    if (!target) continue;
    const fullOffer = largest.hotel.offers[0]!;
    return {
      airport: airport.code,
      failing,
      full: { hotelUrn: largest.hotel.hotelUrn, key: catalogKeyOf(fullOffer), name: fullOffer.name },
      rooms,
      target: { hotelUrn: target.hotel.hotelUrn, name: target.offer.name },
    };
  }
  return undefined;
}

let t: TestPlatform;
let scenario: Scenario;
const events: DomainEvent[] = [];
const tokens: Record<string, string> = {};
const externalEventId = `e2e-booking-${randomUUID()}`;
const caseUrn = caseUrnFor(ZX, externalEventId);
const PARTY = "BIGPARTY";
const SMALL = ["SMALL1", "SMALL2"];
/** What the fault hook saw: the party's allocated hotel, and whether it was H (then filled). */
const hook: { allocatedTo?: string; filled: boolean } = { filled: false };

beforeAll(async () => {
  t = await startTestPlatform({ env: { RATE_LIMIT_SCALE: "20" } });
  for (const user of ["supervisor@zx.demo", "operator.jfk@zx.demo", "operator@zx.demo"])
    tokens[user] = await t.operatorToken(user);
  tokens.partner = await t.partnerToken("skyhub-zx");

  const hotels: Hotels = { search: hotelSearchOf(t.platform), simulators: simulatorsOf(t.platform) };
  const { simulators } = hotels;
  scenario = await chooseScenario(hotels);
  // Fault 1: one vendor answers every call with 503, from the start.
  simulators.byId[scenario.failing].configureFaults({ errorRates: { unavailable: 1 } });

  const bus = t.platform.runtime.bus;
  bus.subscribe({
    name: "test.e2e-booking.record",
    topic: topicFor({ tenant: ZX }),
    handler: async (event) => {
      if (event.caseUrn === caseUrn || (event.data as { caseUrn?: string } | null)?.caseUrn === caseUrn) {
        events.push(event);
      }
      return "SUCCESS";
    },
  });
  // Fault 2: the hotel the wave chose for the party fills up before booking reaches the vendor
  // (this handler runs, up to its end, before booking's handler gets past its first read).
  bus.subscribe({
    name: "test.e2e-booking.fill-hotel",
    topic: topicFor({ tenant: ZX }),
    types: ["allocation.wave-completed"],
    handler: async (event) => {
      if (event.caseUrn !== caseUrn || hook.allocatedTo) return "SUCCESS";
      const allocations = (event.data as { allocations?: { groupId: string; hotelUrn: string }[] })
        .allocations;
      hook.allocatedTo = allocations?.find((a) => a.groupId === PARTY)?.hotelUrn ?? "(not allocated)";
      if (hook.allocatedTo === scenario.full.hotelUrn) {
        for (const simulator of simulators.all) simulator.markHotelFull(scenario.full.key);
        hook.filled = true;
      }
      return "SUCCESS";
    },
  });
}, 4 * STEP_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
});

/** An operator of the scenario's airport: the one scoped to JFK there, else the airline's operator. */
const operator = (): { user: string; urn: string } =>
  scenario.airport === "JFK"
    ? { user: "operator.jfk@zx.demo", urn: "urn:user:zx-operator-jfk" }
    : { user: "operator@zx.demo", urn: "urn:user:zx-operator" };

const call = (method: string, path: string, who: string, body?: unknown) =>
  t.call(method, path, tokens[who], body);
const ofType = (type: string) => events.filter((e) => e.type === type);

/** Polls until `read` returns something, or fails naming the step and the piece behind it. */
async function eventually<T>(step: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Not within ${STEP_TIMEOUT_MS / 1000} s: ${step}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function passengers(pnr: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    pnr,
    lastName: `${pnr.charAt(0)}${pnr.slice(1).toLowerCase()}${i}`,
    cabinClass: "ECONOMY",
    loyaltyTier: "STANDARD",
    contact: { email: `${pnr.toLowerCase()}.${i}@example.com`, phone: "+14155550101", language: "en" },
  }));
}

async function reservationsOf(groupId: string) {
  const page = await json<{ items: Array<Record<string, any>> }>(
    await call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations`, "supervisor@zx.demo"),
    200,
  );
  return page.items.filter((r) => r.groupId === groupId);
}

async function confirmedReservation(groupId: string, step: string) {
  return eventually(step, async () =>
    (await reservationsOf(groupId)).find((r) => String(r.status).toUpperCase() === "CONFIRMED"),
  );
}

async function voucherPage(reservationUrn: string): Promise<string> {
  const response = await call(
    "GET",
    `/v1/booking/reservations/${enc(reservationUrn)}/voucher/html`,
    "supervisor@zx.demo",
  );
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  return response.text();
}

describe("end to end: pushed disruption to reservations, vouchers and a review item resolved by rebook", {
  timeout: 4 * STEP_TIMEOUT_MS,
}, () => {
  let itemUrn: string;

  it("a pushed disruption opens the case, its demand is approved by the demo policy, and a wave runs without the failing vendor", async () => {
    const airport = ZEPHYR_AIR.airports.find((a) => a.code === scenario.airport)!;
    const { departure, nextDeparture } = overnightFlights(airport, Date.now());
    const pushed = await json(
      await call("POST", "/partner/v1/disruptions", "partner", {
        externalEventId,
        airlineUrn: ZX,
        flight: {
          iataDesignator: "ZX880",
          originAirport: scenario.airport,
          destinationAirport: "LHR",
          scheduledDeparture: departure.toISOString(),
        },
        disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: new Date().toISOString() },
        passengers: [
          ...passengers(PARTY, scenario.rooms * 2),
          ...passengers(SMALL[0]!, 2),
          ...passengers(SMALL[1]!, 1),
        ],
        nextFlight: { iataDesignator: "ZX882", scheduledDeparture: nextDeparture.toISOString() },
      }),
      202,
    );
    expect(pushed).toMatchObject({ caseUrn, status: "OPEN", subCaseCount: 3 });

    const approved = await eventually(
      "demand.approved for the case (hotels helper: demand on case.opened; demo policy auto-approves)",
      async () => ofType("demand.approved")[0],
    );
    expect(approved.data).toMatchObject({ caseUrn, type: "INITIAL", roomsRequested: scenario.rooms + 2 });

    const wave = await eventually(
      "a completed wave in `waves` for the case (allocation on demand.approved)",
      async () =>
        t.platform.runtime.documents
          .collection<Record<string, any> & { _id: string }>("waves")
          .findOne({ caseUrn }),
    );
    expect(wave.vendorsMissing.map((m: { vendor: string }) => m.vendor)).toContain(scenario.failing);
    expect(wave.autoBook).toBe(true);
    await eventually("allocation.wave-completed reached the fault hook", async () => hook.allocatedTo);
    expect(hook.allocatedTo, `the wave put ${PARTY} elsewhere than the only hotel with enough rooms`).toBe(
      scenario.full.hotelUrn,
    );
    expect(hook.filled).toBe(true);
  });

  it("the small parties get confirmed reservations with printable vouchers", async () => {
    const wave = await t.platform.runtime.documents
      .collection<Record<string, any> & { _id: string }>("waves")
      .findOne({ caseUrn });
    for (const groupId of SMALL) {
      const reservation = await confirmedReservation(
        groupId,
        `a CONFIRMED reservation for ${groupId} (booking)`,
      );
      // Money side by side: the vendor's price in its currency, and the policy-currency figure
      // scoring compared, in the allocation and again on the reservation booked from it.
      const allocation = wave!.allocations.find((a: { groupId: string }) => a.groupId === groupId);
      expect([reservation.vendor, reservation.providerOfferId]).toEqual([
        allocation.vendor,
        allocation.providerOfferId,
      ]);
      expect(reservation.allocatedCost).toEqual(allocation.cost);
      expect(reservation.cost.currency).toBe(allocation.vendorCost.currency);
      expect(allocation.vendorCost).toEqual({
        amountMinor: allocation.vendorNightlyRate.amountMinor * allocation.rooms * allocation.nights,
        currency: allocation.vendorNightlyRate.currency,
      });
      expect(reservation.urn).toMatch(/^urn:reservation:[^:]+:vendor:[^:]+:status:confirmed$/);
      expect(reservation.vendor).not.toBe(scenario.failing);
      expect(reservation.hotel.hotelUrn).not.toBe(scenario.full.hotelUrn);
      expect(reservation.voucher?.urn).toMatch(/^urn:voucher:/);
      const page = await voucherPage(reservation.urn);
      expect(page).toContain(reservation.hotel.name);
    }
    expect(ofType("voucher.issued").length).toBeGreaterThanOrEqual(SMALL.length);

    const detail = await json<{
      wave: { urn: string; allocations: Array<{ groupId: string; hotelUrn: string }> };
    }>(await call("GET", `/v1/cases/${enc(caseUrn)}`, "supervisor@zx.demo"), 200);
    expect(detail.wave.urn).toMatch(/^urn:wave:/);
    expect(detail.wave.allocations.map((a) => a.groupId)).toEqual(expect.arrayContaining([...SMALL]));
  });

  it("the party the full hotel refused is left for review: a PARTIAL_FULFILLMENT item with the agent's recommendations, and demand PARTIAL", async () => {
    const items = t.platform.runtime.documents.collection<ReviewQueueEntry>("review-items");
    const item = await eventually(
      "a PARTIAL_FULFILLMENT review item for the case (booking publishes review-item.requested)",
      async () => items.findOne({ caseUrn, category: "PARTIAL_FULFILLMENT" }),
    );
    itemUrn = item.urn;
    const view = await json(
      await call("GET", `/v1/booking/manual-review/${enc(itemUrn)}`, "supervisor@zx.demo"),
      200,
    );
    expect(view).toMatchObject({
      caseUrn,
      airport: scenario.airport,
      category: "PARTIAL_FULFILLMENT",
      priority: "MEDIUM",
      affectedGroups: [PARTY],
      state: "OPEN",
      assignedTo: null,
    });
    expect(view.attemptedHotels.map((h: { hotelUrn: string }) => h.hotelUrn)).toContain(
      scenario.full.hotelUrn,
    );
    expect(view.recommendations.length).toBeGreaterThan(0);
    expect(view.recommendations.length).toBeLessThanOrEqual(3);
    for (const recommendation of view.recommendations) {
      expect(recommendation.source).toBe("agent");
      if (recommendation.action === "rebook")
        expect(recommendation.hotelUrn).not.toBe(scenario.full.hotelUrn);
    }
    const queue = await json(
      await call(
        "GET",
        "/v1/booking/manual-review?category=PARTIAL_FULFILLMENT&state=OPEN&limit=200",
        "supervisor@zx.demo",
      ),
      200,
    );
    expect(queue.items.map((i: { urn: string }) => i.urn)).toContain(itemUrn);

    const demand = await eventually("demand PARTIAL (booking records the outcome on the demand)", async () =>
      t.platform.runtime.documents
        .collection<Record<string, any> & { _id: string }>("demands")
        .findOne({ caseUrn, state: "PARTIAL" }),
    );
    expect(demand.roomsRequested).toBe(scenario.rooms + 2);
  });

  it("an operator at the airport claims the item and rebooks the party on a hotel with room; booking confirms and the item resolves as REBOOKED", async () => {
    const claimed = await json(
      await call("POST", `/manual-review/${enc(itemUrn)}/claim`, operator().user),
      200,
    );
    expect(claimed).toMatchObject({ state: "ASSIGNED", assignedTo: operator().urn });
    const target = scenario.target.hotelUrn;
    const requested = await json(
      await call("POST", `/manual-review/${enc(itemUrn)}/rebook`, operator().user, {
        hotelUrn: target,
        reason: `${scenario.full.name} is full; ${scenario.target.name} has rooms for the whole party`,
      }),
      202,
    );
    expect(requested.rebooking).toMatchObject({
      hotelUrn: target,
      groups: [{ groupId: PARTY, status: "REQUESTED" }],
    });

    const resolved = await eventually(
      "the item RESOLVED after booking.group-booked (booking answers booking.group-requested)",
      async () => {
        const item = await json(
          await call("GET", `/v1/booking/manual-review/${enc(itemUrn)}`, "supervisor@zx.demo"),
          200,
        );
        if (item.rebooking?.groups?.[0]?.status === "FAILED") {
          throw new Error(`Booking refused the rebook: ${JSON.stringify(item.rebooking)}`);
        }
        return item.state === "RESOLVED" ? item : undefined;
      },
    );
    expect(resolved).toMatchObject({
      state: "RESOLVED",
      slaDueAt: null,
      bookedGroups: [PARTY],
      resolution: { resolution: "REBOOKED", by: operator().urn },
      rebooking: { groups: [{ groupId: PARTY, status: "BOOKED", reservationUrn: expect.any(String) }] },
    });

    const reservation = await confirmedReservation(
      PARTY,
      `a CONFIRMED reservation for ${PARTY} at the rebook hotel`,
    );
    expect(reservation.hotel.hotelUrn).toBe(target);
    expect(reservation.rooms).toBe(scenario.rooms);
    expect(await voucherPage(reservation.urn)).toContain(reservation.hotel.name);

    const trail: AuditEntry[] = (await t.platform.audit.query({ tenant: ZX, entityUrn: itemUrn, limit: 500 }))
      .items;
    expect(trail.map((e) => e.action)).toEqual(
      expect.arrayContaining(["review-item.claimed", "review-item.rebook-requested", "review-item.resolved"]),
    );
    expect(trail.find((e) => e.action === "review-item.resolved")).toMatchObject({
      actorUrn: operator().urn,
      after: expect.objectContaining({ resolution: "REBOOKED", via: "booking" }),
    });
  });
});
