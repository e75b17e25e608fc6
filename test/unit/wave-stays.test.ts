import { describe, expect, it } from "vitest";
import type { CaseSnapshot } from "../../actors/CaseActor.js";
import { utcOffsetMinutesAt } from "../../src/app/stays/airport-time.js";
import { stayNeedsOf } from "../../src/app/stays/wave-stays.js";
import type { PassengerGroup } from "../../src/domain/case.js";
import type { StayPlan } from "../../src/domain/reaccommodation.js";

const NEW_YORK_WINTER = -300;

function group(id: string, tiers: string[]): PassengerGroup {
  return { id, passengers: tiers.map((tier, i) => ({ id: `${id}-${i}`, lastName: "Rivera", tier })) };
}

function snapshot(overrides: Partial<CaseSnapshot> & { nextDeparture?: string | null } = {}): CaseSnapshot {
  const { nextDeparture = "2026-11-22T18:00:00Z", ...rest } = overrides;
  return {
    case: {
      urn: "urn:case:c1",
      tenant: "urn:airline:ZX",
      externalEventId: "e1",
      status: "OPEN",
      flight: {
        number: "ZX100",
        origin: "JFK",
        destination: "LHR",
        scheduledDeparture: "2026-11-21T22:00:00Z",
      },
      ...(nextDeparture ? { nextFlight: { number: "ZX102", scheduledDeparture: nextDeparture } } : {}),
      passengerGroups: [
        group("FAMILY", ["ECONOMY", "ECONOMY", "ECONOMY"]),
        group("CREW", ["CREW", "CREW"]),
        group("MIXED", ["ECONOMY", "BUSINESS"]),
      ],
      openedBy: "urn:user:u1",
      openedAt: "2026-11-21T21:00:00Z",
      updatedAt: "2026-11-21T21:00:00Z",
      version: 1,
    },
    intake: { source: "operator", receivedBy: "urn:user:u1", receivedAt: "", correlationUrn: "urn:trace:x" },
    reservations: [],
    localResidentGroups: [],
    reviewItems: [],
    passengerPnrs: {},
    ...rest,
  };
}

describe("which groups a wave houses, for which nights", () => {
  it("plans the night between the disrupted departure and the next flight, in the airport's local time", () => {
    const needs = stayNeedsOf(snapshot(), NEW_YORK_WINTER);
    expect(needs.stay).toEqual({ checkIn: "2026-11-21", checkOut: "2026-11-22", nights: 1 });
    expect(needs.groups).toEqual([
      { groupId: "FAMILY", rooms: 2, tier: "ECONOMY" },
      { groupId: "CREW", rooms: 2, tier: "CREW" },
      { groupId: "MIXED", rooms: 1, tier: "MIXED" },
    ]);
    expect(needs.skipped).toEqual([]);
  });

  it("covers every night until the next flight", () => {
    const needs = stayNeedsOf(snapshot({ nextDeparture: "2026-11-24T15:00:00Z" }), NEW_YORK_WINTER);
    expect(needs.stay).toEqual({ checkIn: "2026-11-21", checkOut: "2026-11-24", nights: 3 });
  });

  it("plans one night when no next flight is known yet", () => {
    expect(stayNeedsOf(snapshot({ nextDeparture: null }), NEW_YORK_WINTER).stay).toEqual({
      checkIn: "2026-11-21",
      checkOut: "2026-11-22",
      nights: 1,
    });
  });

  it("houses nobody when the next flight leaves no overnight gap", () => {
    const needs = stayNeedsOf(snapshot({ nextDeparture: "2026-11-22T01:30:00Z" }), NEW_YORK_WINTER);
    expect(needs.stay).toBeUndefined();
    expect(needs.groups).toEqual([]);
    expect(needs.skipped.map((s) => s.groupId)).toEqual(["FAMILY", "CREW", "MIXED"]);
  });

  it("leaves out local residents and groups already booked, unless the stay plan rebooks them", () => {
    const plan: StayPlan = {
      overnightGap: true,
      leaveForAirportAt: "2026-11-23T12:00:00Z",
      nights: { checkIn: "2026-11-21", checkOut: "2026-11-23" },
      groups: [
        {
          groupId: "FAMILY",
          decision: "rebook",
          checkIn: "2026-11-21",
          checkOut: "2026-11-23",
          reason: "moved",
        },
        {
          groupId: "CREW",
          decision: "unchanged",
          checkIn: "2026-11-21",
          checkOut: "2026-11-23",
          reason: "same",
        },
        { groupId: "MIXED", decision: "local-resident", reason: "lives here" },
      ],
    };
    const booked = (groupId: string) => ({
      reservationUrn: `urn:reservation:${groupId}:vendor:vendor-a:status:confirmed`,
      groupId,
      status: "CONFIRMED",
      updatedAt: "2026-11-21T23:00:00Z",
    });
    const needs = stayNeedsOf(
      snapshot({ stayPlan: plan, reservations: [booked("FAMILY"), booked("CREW")] }),
      NEW_YORK_WINTER,
    );
    expect(needs.stay).toEqual({ checkIn: "2026-11-21", checkOut: "2026-11-23", nights: 2 });
    expect(needs.groups.map((g) => g.groupId)).toEqual(["FAMILY"]);
    expect(needs.skipped).toEqual([
      { groupId: "CREW", reason: "already holds a confirmed reservation" },
      { groupId: "MIXED", reason: "local resident" },
    ]);
  });
});

describe("airport local time", () => {
  it.each([
    ["JFK in winter", { code: "JFK", lon: -73.78 }, "2026-01-15T12:00:00Z", -300],
    ["JFK in summer", { code: "JFK", lon: -73.78 }, "2026-07-15T12:00:00Z", -240],
    ["ORD in winter", { code: "ORD", lon: -87.9 }, "2026-01-15T12:00:00Z", -360],
    ["LHR in summer", { code: "LHR", lon: -0.45 }, "2026-07-15T12:00:00Z", 60],
    ["GRU", { code: "GRU", lon: -46.47 }, "2026-07-15T12:00:00Z", -180],
    [
      "an airport with no known zone, by longitude",
      { code: "XXX", lon: 139.78 },
      "2026-07-15T12:00:00Z",
      540,
    ],
  ])("%s", (_, airport, at, offset) => {
    expect(utcOffsetMinutesAt(airport, Date.parse(at))).toBe(offset);
  });
});
