import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TransportSegmentActor } from "../../actors/TransportSegmentActor.js";
import {
  RETURN_LEG_EMAIL_BEFORE_FLIGHT_MS,
  returnLegReminderAt,
  type SegmentRequest,
  type SegmentRide,
  segmentIdFor,
} from "../../src/domain/transport/transport-segment.js";
import { type ActorStage, startActorStage } from "./actor-stage.js";

const TENANT = "urn:airline:ZX";
const CASE = "urn:case:0b7c3c1e-0000-4000-8000-000000000001";
const HOUR = 60 * 60 * 1000;
const TRACE = { correlationUrn: "urn:trace:1" };

let stage: ActorStage;
beforeEach(async () => {
  stage = await startActorStage(TransportSegmentActor, TENANT);
});
afterEach(async () => {
  await stage.runtime.close();
});

/** The stage's clock starts at 2026-11-21T23:00Z; the return flight leaves 30 hours later. */
const back = (overrides: Partial<SegmentRequest> = {}): SegmentRequest => ({
  tenant: TENANT,
  caseUrn: CASE,
  airport: "JFK",
  groupId: "G1",
  reservationUrn: "urn:reservation:r1:vendor:manual:status:confirmed",
  direction: "HOTEL_TO_AIRPORT",
  scheduledAt: "2026-11-23T02:00:00.000Z",
  vehicleType: "SHUTTLE",
  specialRequirements: [],
  passengers: 2,
  pickupLocation: "Harbor Inn, 5 Pier Rd",
  dropoffLocation: "JFK airport, departures",
  flightDeparture: "2026-11-23T05:00:00.000Z",
  requestedBy: "urn:system:transport",
  ...overrides,
});

const ride: SegmentRide = {
  provider: "rides",
  rideId: "ride-1",
  poolId: null,
  vehicle: null,
  driver: null,
  dispatcherPhone: "+15550100999",
  etaAt: null,
  quote: null,
};

const id = segmentIdFor(CASE, "G1", "HOTEL_TO_AIRPORT");
const call = <M extends "request" | "confirm" | "cancel">(
  method: M,
  arg: Parameters<TransportSegmentActor[M]>[0],
) => (stage.runtime.invoke as any)(TransportSegmentActor, id, method, arg);
const types = () => stage.events.map((e) => e.type);

describe("the transport segment actor", () => {
  it("emits one event per change and none for a repeat", async () => {
    await call("request", { ...back(), ...TRACE });
    await call("request", { ...back(), ...TRACE });
    await call("confirm", { ride, by: "urn:system:transport", ...TRACE });
    await call("confirm", { ride, by: "urn:system:transport", ...TRACE });
    await stage.clock.advance(0);
    expect(types()).toEqual(["transport.segment-requested", "transport.segment-booked"]);
    expect(stage.events[1]!.data).toMatchObject({ groupId: "G1", segment: { status: "BOOKED" } });
  });

  it("sends the return-leg reminder about 12 hours before the flight, once, while the leg stands", async () => {
    await call("request", { ...back(), ...TRACE });
    await call("confirm", { ride, by: "urn:system:transport", ...TRACE });
    // Due at 17:00Z on the 22nd: 18 hours after the booking.
    await stage.clock.advance(18 * HOUR - 1_000);
    expect(types()).not.toContain("transport.return-leg-due");
    await stage.clock.advance(1_000);
    expect(types().filter((t) => t === "transport.return-leg-due")).toHaveLength(1);
    await stage.clock.advance(24 * HOUR);
    expect(types().filter((t) => t === "transport.return-leg-due")).toHaveLength(1);
  });

  it("sends no reminder for a leg cancelled before it is due", async () => {
    await call("request", { ...back(), ...TRACE });
    await call("confirm", { ride, by: "urn:system:transport", ...TRACE });
    await call("cancel", { by: "urn:user:op", reason: "drives himself", ...TRACE });
    await stage.clock.advance(30 * HOUR);
    expect(types()).toEqual([
      "transport.segment-requested",
      "transport.segment-booked",
      "transport.segment-cancelled",
    ]);
  });
});

describe("when the return-leg reminder is due (spec 8.2)", () => {
  const now = new Date("2026-11-21T23:00:00Z");
  const segment = { direction: "HOTEL_TO_AIRPORT", flightDeparture: "2026-11-23T05:00:00.000Z" } as const;

  it("is 12 hours before the flight, at once when that has passed, never after the flight", () => {
    expect(RETURN_LEG_EMAIL_BEFORE_FLIGHT_MS).toBe(12 * HOUR);
    expect(returnLegReminderAt(segment as never, now)).toEqual(new Date("2026-11-22T17:00:00Z"));
    const soon = { ...segment, flightDeparture: "2026-11-22T05:00:00.000Z" };
    expect(returnLegReminderAt(soon as never, now)).toEqual(now);
    const gone = { ...segment, flightDeparture: "2026-11-21T20:00:00.000Z" };
    expect(returnLegReminderAt(gone as never, now)).toBeUndefined();
    expect(returnLegReminderAt({ ...segment, direction: "AIRPORT_TO_HOTEL" } as never, now)).toBeUndefined();
  });
});
