import { describe, expect, it } from "vitest";
import { createPolicy, type PolicyTransport } from "../../src/domain/policy/policy.js";
import { patchPolicy } from "../../src/domain/policy/policy-patch.js";
import {
  legEndpoints,
  modeForTier,
  needsWheelchairVan,
  pickupTimeFor,
  planRides,
  type TransferLeg,
  vehicleForGroup,
} from "../../src/domain/transport/transfer-plan.js";
import {
  cancelSegment,
  changeVehicle,
  confirmRide,
  declineRide,
  noteProviderFailure,
  passengerStatusOf,
  recordProgress,
  requestSegment,
  retime,
  type SegmentRequest,
  type SegmentRide,
  segmentIdOf,
  segmentUrnFor,
} from "../../src/domain/transport/transport-segment.js";
import { refusal } from "../support/refusal.js";

const NOW = new Date("2026-11-21T23:00:00Z");
const LATER = new Date("2026-11-21T23:05:00Z");
const CASE = "urn:case:0b7c3c1e-0000-4000-8000-000000000001";

const request = (overrides: Partial<SegmentRequest> = {}): SegmentRequest => ({
  tenant: "urn:airline:ZX",
  caseUrn: CASE,
  airport: "JFK",
  groupId: "ABC123",
  reservationUrn: "urn:reservation:r1:vendor:manual:status:confirmed",
  direction: "AIRPORT_TO_HOTEL",
  scheduledAt: "2026-11-21T23:30:00.000Z",
  vehicleType: "SHUTTLE",
  specialRequirements: [],
  passengers: 2,
  pickupLocation: "JFK airport, arrivals curb",
  dropoffLocation: "Harbor Inn, 5 Pier Rd",
  requestedBy: "urn:user:op",
  ...overrides,
});

const ride = (overrides: Partial<SegmentRide> = {}): SegmentRide => ({
  provider: "rides",
  rideId: "ride-1",
  poolId: null,
  vehicle: null,
  driver: null,
  dispatcherPhone: "+15550100999",
  etaAt: null,
  quote: { amountMinor: 2_500, currency: "USD" },
  ...overrides,
});

const transport = (overrides: Partial<PolicyTransport> = {}): PolicyTransport => ({
  mode: "SHUTTLE",
  perTier: { BUSINESS: "PRIVATE_CAR", FIRST: "PRIVATE_CAR" },
  ...overrides,
});

describe("a transport segment's states", () => {
  it("is PENDING when asked for, under a URN derived from its case, group and direction", () => {
    const { segment, changed } = requestSegment(undefined, request(), NOW);
    expect(changed).toBe(true);
    expect(segment).toMatchObject({ status: "PENDING", generation: 1, version: 1, ride: null });
    expect(segment.urn).toBe(segmentUrnFor(CASE, "ABC123", "AIRPORT_TO_HOTEL"));
    expect(segment.urn).not.toBe(segmentUrnFor(CASE, "ABC123", "HOTEL_TO_AIRPORT"));
    expect(segmentIdOf(segment.urn)).toBeDefined();
  });

  it("answers a repeated request unchanged and refuses a standing leg asked with other fields", () => {
    const { segment } = requestSegment(undefined, request(), NOW);
    expect(requestSegment(segment, request(), LATER)).toEqual({ segment, changed: false });
    const booked = confirmRide(segment, ride(), LATER).segment;
    expect(requestSegment(booked, request(), LATER).changed).toBe(false);
    const conflict = refusal(() =>
      requestSegment(booked, request({ scheduledAt: "2026-11-22T01:00:00.000Z" }), LATER),
    );
    expect(conflict).toMatchObject({ kind: "conflict", code: "transport-segment-exists" });
  });

  it("goes PENDING → BOOKED → COMPLETED, the same ride twice changing nothing", () => {
    const pending = requestSegment(undefined, request(), NOW).segment;
    const booked = confirmRide(pending, ride(), LATER);
    expect(booked.segment).toMatchObject({ status: "BOOKED", ride: { rideId: "ride-1" }, version: 2 });
    expect(confirmRide(booked.segment, ride(), LATER).changed).toBe(false);
    const eta = recordProgress(
      booked.segment,
      { kind: "eta", etaAt: "2026-11-21T23:25:00.000Z", vehicle: "van K123", driver: "B. Okafor" },
      LATER,
    );
    expect(eta.segment.ride).toMatchObject({ etaAt: "2026-11-21T23:25:00.000Z", vehicle: "van K123" });
    expect(
      recordProgress(eta.segment, { kind: "eta", etaAt: "2026-11-21T23:25:00.000Z" }, LATER).changed,
    ).toBe(false);
    const done = recordProgress(eta.segment, { kind: "completed" }, LATER).segment;
    expect(done.status).toBe("COMPLETED");
    expect(refusal(() => cancelSegment(done, { by: "urn:user:op", reason: "x", at: "" }, LATER)).code).toBe(
      "transport-segment-not-changeable",
    );
  });

  it("is DECLINED on the provider's refusal and may be asked again, one generation on", () => {
    const pending = requestSegment(undefined, request(), NOW).segment;
    const failed = noteProviderFailure(pending, "HTTP_503", LATER);
    expect(failed.segment).toMatchObject({ status: "PENDING", providerError: "HTTP_503" });
    const declined = declineRide(failed.segment, "NO_VEHICLE_AVAILABLE", LATER).segment;
    expect(declined).toMatchObject({ status: "DECLINED", providerError: "NO_VEHICLE_AVAILABLE" });
    expect(refusal(() => confirmRide(declined, ride(), LATER)).code).toBe("transport-segment-not-changeable");
    const again = requestSegment(declined, request({ vehicleType: "TAXI" }), LATER).segment;
    expect(again).toMatchObject({
      status: "PENDING",
      generation: 2,
      vehicleType: "TAXI",
      providerError: null,
    });
  });

  it("is retimed and given another vehicle while it stands, and cancelled once", () => {
    const booked = confirmRide(requestSegment(undefined, request(), NOW).segment, ride(), LATER).segment;
    const moved = retime(booked, "2026-11-22T00:00:00.000Z", null, LATER).segment;
    expect(moved).toMatchObject({ scheduledAt: "2026-11-22T00:00:00.000Z", status: "BOOKED" });
    expect(retime(moved, "2026-11-22T00:00:00.000Z", null, LATER).changed).toBe(false);
    const van = changeVehicle(moved, "WHEELCHAIR_VAN", ride({ vehicle: "wheelchair van Q1" }), LATER).segment;
    expect(van).toMatchObject({ vehicleType: "WHEELCHAIR_VAN", ride: { vehicle: "wheelchair van Q1" } });
    const change = { by: "urn:user:op", reason: "flight moved", at: LATER.toISOString() };
    const cancelled = cancelSegment(van, change, LATER).segment;
    expect(cancelled).toMatchObject({ status: "CANCELLED", cancellation: change });
    expect(cancelSegment(cancelled, change, LATER).changed).toBe(false);
    expect(refusal(() => retime(cancelled, "2026-11-22T02:00:00.000Z", null, LATER)).code).toBe(
      "transport-segment-not-changeable",
    );
    // A report about a ride that no longer stands is ignored.
    expect(recordProgress(cancelled, { kind: "completed" }, LATER).changed).toBe(false);
  });

  it("turns the provider's own cancellation into DECLINED", () => {
    const booked = confirmRide(requestSegment(undefined, request(), NOW).segment, ride(), LATER).segment;
    const dropped = recordProgress(booked, { kind: "cancelled", code: "VEHICLE_BREAKDOWN" }, LATER).segment;
    expect(dropped).toMatchObject({ status: "DECLINED", providerError: "VEHICLE_BREAKDOWN" });
  });

  it("shows passengers booked, pending or declined (spec 3.6), and hides a cancelled leg", () => {
    expect(passengerStatusOf("PENDING")).toBe("PENDING");
    expect(passengerStatusOf("BOOKED")).toBe("BOOKED");
    expect(passengerStatusOf("COMPLETED")).toBe("BOOKED");
    expect(passengerStatusOf("DECLINED")).toBe("DECLINED");
    expect(passengerStatusOf("CANCELLED")).toBeNull();
  });
});

describe("the vehicle of a group (policy transport block, spec 2.4)", () => {
  it("takes the tier's mode, else the policy's default mode", () => {
    expect(modeForTier(transport(), "BUSINESS")).toBe("PRIVATE_CAR");
    expect(modeForTier(transport(), "ECONOMY")).toBe("SHUTTLE");
    expect(modeForTier(transport({ mode: "TAXI" }), undefined)).toBe("TAXI");
  });

  it("gives a group spanning tiers the best mode its members are owed", () => {
    expect(vehicleForGroup(transport(), ["ECONOMY", "BUSINESS"], [])).toBe("PRIVATE_CAR");
    expect(vehicleForGroup(transport(), ["ECONOMY", "ECONOMY"], [])).toBe("SHUTTLE");
    expect(vehicleForGroup(transport({ mode: "TAXI", perTier: {} }), [], [])).toBe("TAXI");
  });

  it("sends a wheelchair van for wheelchair special requirements, whatever the tier", () => {
    expect(needsWheelchairVan(["WCHR"])).toBe(true);
    expect(needsWheelchairVan(["needs a wheelchair"])).toBe(true);
    expect(needsWheelchairVan(["WCMP"])).toBe(true);
    expect(needsWheelchairVan(["VGML", "infant"])).toBe(false);
    expect(vehicleForGroup(transport(), ["BUSINESS"], ["WCHC"])).toBe("WHEELCHAIR_VAN");
  });
});

describe("pickup times", () => {
  it("picks up at the airport minutesBeforePickup from now (30 by default)", () => {
    expect(pickupTimeFor("AIRPORT_TO_HOTEL", transport({ minutesBeforePickup: 45 }), NOW, undefined)).toEqual(
      new Date("2026-11-21T23:45:00Z"),
    );
    expect(pickupTimeFor("AIRPORT_TO_HOTEL", transport(), NOW, undefined)).toEqual(
      new Date("2026-11-21T23:30:00Z"),
    );
  });

  it("picks up at the hotel three hours before the next flight, never sooner than the provider can come", () => {
    expect(pickupTimeFor("HOTEL_TO_AIRPORT", transport(), NOW, "2026-11-22T18:00:00Z")).toEqual(
      new Date("2026-11-22T15:00:00Z"),
    );
    expect(pickupTimeFor("HOTEL_TO_AIRPORT", transport(), NOW, "2026-11-22T01:00:00Z")).toEqual(
      new Date("2026-11-21T23:30:00Z"),
    );
  });

  it("names the airport and the hotel as the ends of each direction", () => {
    const hotel = { name: "Harbor Inn", address: "5 Pier Rd" };
    expect(legEndpoints("AIRPORT_TO_HOTEL", "JFK", hotel)).toEqual({
      pickupLocation: "JFK airport, arrivals curb",
      dropoffLocation: "Harbor Inn, 5 Pier Rd",
    });
    expect(legEndpoints("HOTEL_TO_AIRPORT", "JFK", hotel).pickupLocation).toBe("Harbor Inn, 5 Pier Rd");
  });
});

describe("shuttle pooling by capacity and pickup window", () => {
  const leg = (groupId: string, passengers: number, pickupAt: string, extra: Partial<TransferLeg> = {}) => ({
    groupId,
    direction: "AIRPORT_TO_HOTEL" as const,
    vehicleType: "SHUTTLE" as const,
    passengers,
    pickupLocation: "JFK airport, arrivals curb",
    dropoffLocation: "Hotel",
    pickupAt,
    ...extra,
  });

  it("fills runs up to the capacity, never splitting a group", () => {
    const at = "2026-11-21T23:30:00.000Z";
    const rides = planRides(CASE, [leg("A", 3, at), leg("B", 3, at), leg("C", 3, at), leg("D", 2, at)], 8);
    expect(rides.map((r) => r.legs.map((l) => l.groupId))).toEqual([["A", "B", "D"], ["C"]]);
    expect(rides.map((r) => r.passengers)).toEqual([8, 3]);
  });

  it("gives a group larger than a shuttle a run of its own", () => {
    const at = "2026-11-21T23:30:00.000Z";
    const rides = planRides(CASE, [leg("BIG", 12, at), leg("A", 2, at)], 8);
    expect(rides.map((r) => r.legs.map((l) => l.groupId))).toEqual([["A"], ["BIG"]]);
    expect(rides.map((r) => r.passengers)).toEqual([2, 12]);
  });

  it("pools only pickups within the window at the same place, and leaves to the hotel with the last", () => {
    const rides = planRides(
      CASE,
      [
        leg("A", 2, "2026-11-21T23:30:00.000Z"),
        leg("B", 2, "2026-11-21T23:50:00.000Z"),
        leg("C", 2, "2026-11-22T00:10:00.000Z"),
        leg("D", 2, "2026-11-21T23:30:00.000Z", { pickupLocation: "Other terminal" }),
      ],
      8,
    );
    const byGroups = Object.fromEntries(rides.map((r) => [r.legs.map((l) => l.groupId).join(), r]));
    expect(Object.keys(byGroups).sort()).toEqual(["A,B", "C", "D"]);
    expect(byGroups["A,B"]!.pickupAt).toBe("2026-11-21T23:50:00.000Z");
  });

  it("leaves for the airport with the earliest group, so nobody misses the flight", () => {
    const back = (g: string, at: string) =>
      leg(g, 2, at, { direction: "HOTEL_TO_AIRPORT", pickupLocation: "Hotel" });
    const [run] = planRides(
      CASE,
      [back("A", "2026-11-22T15:10:00.000Z"), back("B", "2026-11-22T15:00:00.000Z")],
      8,
    );
    expect(run!.pickupAt).toBe("2026-11-22T15:00:00.000Z");
  });

  it("books every other vehicle on its own, and names the same runs when planned again", () => {
    const at = "2026-11-21T23:30:00.000Z";
    const legs = [
      leg("A", 2, at),
      leg("B", 1, at, { vehicleType: "PRIVATE_CAR" }),
      leg("C", 1, at, { vehicleType: "WHEELCHAIR_VAN" }),
      leg("E", 2, at),
    ];
    const rides = planRides(CASE, legs, 8);
    expect(rides.map((r) => [r.vehicleType, r.legs.map((l) => l.groupId).join()])).toEqual([
      ["SHUTTLE", "A,E"],
      ["PRIVATE_CAR", "B"],
      ["WHEELCHAIR_VAN", "C"],
    ]);
    expect(
      planRides(CASE, [...legs].reverse(), 8)
        .map((r) => r.poolId)
        .sort(),
    ).toEqual(rides.map((r) => r.poolId).sort());
  });
});

describe("the policy's permission for passengers to ask for a ride (transport.passengerMayRequest)", () => {
  it("is absent unless given, kept by the defaults, and set or removed by a patch", () => {
    const input = { name: "JFK", context: { airport: "JFK", airline: "ZX" } };
    const plain = createPolicy(input, "urn:policy:p1.1", NOW);
    expect(plain.transport.passengerMayRequest).toBeUndefined();
    const open = createPolicy({ ...input, transport: { passengerMayRequest: true } }, "urn:policy:p2.1", NOW);
    expect(open.transport).toMatchObject({ mode: "SHUTTLE", passengerMayRequest: true });
    const closed = patchPolicy(open, { transport: { passengerMayRequest: null } }, LATER).after;
    expect(closed.transport.passengerMayRequest).toBeUndefined();
    expect(
      patchPolicy(plain, { transport: { passengerMayRequest: true } }, LATER).after.transport,
    ).toMatchObject({
      passengerMayRequest: true,
    });
  });
});
