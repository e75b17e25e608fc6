import { describe, expect, it } from "vitest";
import { disruptionCause, disruptionKind } from "../../src/domain/entitlements/disruption-cause.js";
import { distanceBand } from "../../src/domain/entitlements/distance-band.js";
import {
  type AirportFacts,
  type DisruptionFacts,
  type Entitlements,
  evaluateEntitlements,
  waitingMinutesOf,
} from "../../src/domain/entitlements/evaluation.js";
import { mealAllowance, mealsForWait } from "../../src/domain/entitlements/meal-allowance.js";
import { type Regime, regimeOfCountry } from "../../src/domain/entitlements/regimes.js";
import { money } from "../../src/domain/money.js";
import { DEMO_AIRLINES } from "../../src/demo/demo-airlines.js";

const JFK: AirportFacts = { code: "JFK", country: "US", coordinates: { lat: 40.6413, lon: -73.7781 } };
const BOS: AirportFacts = { code: "BOS", country: "US", coordinates: { lat: 42.3656, lon: -71.0096 } };
const LHR: AirportFacts = { code: "LHR", country: "GB", coordinates: { lat: 51.47, lon: -0.4543 } };
const MAD: AirportFacts = { code: "MAD", country: "ES", coordinates: { lat: 40.4983, lon: -3.5676 } };
const GRU: AirportFacts = { code: "GRU", country: "BR", coordinates: { lat: -23.4356, lon: -46.4731 } };
const CDG: AirportFacts = { code: "CDG", country: "FR", coordinates: { lat: 49.0097, lon: 2.5479 } };
const NRT: AirportFacts = { code: "NRT", country: "JP", coordinates: { lat: 35.772, lon: 140.3929 } };

const SCHEDULED = "2026-11-21T10:00:00Z";

/** The scheduled departure plus a wait of `minutes`. */
function waitedFor(minutes: number): string {
  return new Date(Date.parse(SCHEDULED) + minutes * 60_000).toISOString();
}

function facts(overrides: Partial<DisruptionFacts> = {}): DisruptionFacts {
  return {
    departure: MAD,
    arrival: CDG,
    carrierCountry: "ES",
    kind: "DELAY",
    cause: disruptionCause("TECHNICAL"),
    scheduledDeparture: SCHEDULED,
    newDeparture: waitedFor(180),
    overnight: false,
    currency: "EUR",
    policy: null,
    ...overrides,
  };
}

function regime(entitlements: Entitlements, name: Regime | "AIRLINE_POLICY") {
  const found = entitlements.regimes.find((r) => r.regime === name);
  if (!found) throw new Error(`${name} does not cover the flight`);
  return found;
}

function owed(entitlements: Entitlements, name: Regime | "AIRLINE_POLICY") {
  return Object.fromEntries(regime(entitlements, name).care.map((c) => [c.item, c.owed]));
}

describe("regimes of the demo airports", () => {
  it.each([
    ["US", "US_DOT"],
    ["GB", "UK261"],
    ["ES", "EU261"],
    ["FR", "EU261"],
    ["NO", "EU261"],
    ["CH", "EU261"],
    ["RE", "EU261"],
    ["BR", "ANAC400"],
    ["JP", undefined],
    [null, undefined],
  ])("an airport in %s is covered by %s", (country, expected) => {
    expect(regimeOfCountry(country)).toBe(expected);
  });
});

describe("the demo airports", () => {
  it("each falls under a regime, and between them under every regime", () => {
    const regimes = DEMO_AIRLINES.flatMap((airline) =>
      airline.airports.map((airport) => [airport.code, regimeOfCountry(airport.country)]),
    );
    expect(Object.fromEntries(regimes)).toEqual({
      JFK: "US_DOT",
      BOS: "US_DOT",
      ORD: "US_DOT",
      LHR: "UK261",
      MAD: "EU261",
      GRU: "ANAC400",
    });
  });
});

describe("EU261 distance bands (Art. 6(1))", () => {
  it("1,500 km exactly is the short band (2 h); a metre more is the medium band (3 h)", () => {
    expect(distanceBand(1500, false)).toMatchObject({ band: "SHORT", delayThresholdMinutes: 120 });
    expect(distanceBand(1500.001, false)).toMatchObject({ band: "MEDIUM", delayThresholdMinutes: 180 });
  });

  it("3,500 km exactly is still the medium band; beyond it the long band (4 h)", () => {
    expect(distanceBand(3500, false)).toMatchObject({ band: "MEDIUM", delayThresholdMinutes: 180 });
    expect(distanceBand(3500.001, false)).toMatchObject({ band: "LONG", delayThresholdMinutes: 240 });
  });

  it("an intra-Community flight over 3,500 km stays in the medium band", () => {
    expect(distanceBand(4000, true)).toMatchObject({ band: "MEDIUM", delayThresholdMinutes: 180 });
    expect(distanceBand(1200, true)).toMatchObject({ band: "SHORT" });
  });
});

describe("evaluateEntitlements: EU261", () => {
  it("a short flight (MAD-CDG, about 1,060 km) owes meals and two communications from 2 h of delay", () => {
    const at = (wait: number) => evaluateEntitlements(facts({ newDeparture: waitedFor(wait) }));
    const justUnder = at(119);
    expect(justUnder.distanceKm).toBeGreaterThan(1000);
    expect(justUnder.distanceKm).toBeLessThan(1500);
    expect(regime(justUnder, "EU261").distanceBand).toMatchObject({
      band: "SHORT",
      delayThresholdMinutes: 120,
    });
    expect(owed(justUnder, "EU261")).toEqual({
      MEALS: false,
      COMMUNICATIONS: false,
      HOTEL: false,
      TRANSPORT: false,
    });
    const reached = at(120);
    expect(owed(reached, "EU261")).toMatchObject({ MEALS: true, COMMUNICATIONS: true });
    expect(regime(reached, "EU261").care.find((c) => c.item === "COMMUNICATIONS")).toMatchObject({
      count: 2,
      source: expect.stringContaining("Art. 9(2)"),
    });
  });

  it("an intra-Community flight over 1,500 km (MAD-HEL) owes care from 3 h: 2 h 59 no, 3 h yes", () => {
    // MAD to Helsinki is about 2,950 km: intra-Community, more than 1,500 km.
    const HEL: AirportFacts = { code: "HEL", country: "FI", coordinates: { lat: 60.3172, lon: 24.9633 } };
    const at = (wait: number) => evaluateEntitlements(facts({ arrival: HEL, newDeparture: waitedFor(wait) }));
    expect(regime(at(179), "EU261").distanceBand?.band).toBe("MEDIUM");
    expect(owed(at(179), "EU261").MEALS).toBe(false);
    expect(regime(at(179), "EU261").care[0]?.reason).toContain("2 h 59 min");
    expect(owed(at(180), "EU261").MEALS).toBe(true);
  });

  it("a long flight out of the EU (CDG-NRT) owes care from 4 h", () => {
    const at = (wait: number) =>
      evaluateEntitlements(facts({ departure: CDG, arrival: NRT, newDeparture: waitedFor(wait) }));
    expect(regime(at(239), "EU261").distanceBand?.band).toBe("LONG");
    expect(owed(at(239), "EU261").MEALS).toBe(false);
    expect(owed(at(240), "EU261").MEALS).toBe(true);
  });

  it("hotel and transfer only when a night's stay is necessary, whatever the cause", () => {
    const overnight = evaluateEntitlements(
      facts({ newDeparture: waitedFor(20 * 60), overnight: true, cause: disruptionCause("WEATHER") }),
    );
    expect(owed(overnight, "EU261")).toEqual({
      MEALS: true,
      COMMUNICATIONS: true,
      HOTEL: true,
      TRANSPORT: true,
    });
    const sameDay = evaluateEntitlements(facts({ newDeparture: waitedFor(8 * 60), overnight: false }));
    expect(owed(sameDay, "EU261")).toMatchObject({ HOTEL: false, TRANSPORT: false });
  });

  it("a cancellation owes meals and communications whatever the wait (Art. 5(1)(b))", () => {
    const cancelled = evaluateEntitlements(facts({ kind: "CANCELLATION", newDeparture: waitedFor(30) }));
    expect(owed(cancelled, "EU261")).toMatchObject({ MEALS: true, COMMUNICATIONS: true, HOTEL: false });
    expect(regime(cancelled, "EU261").care[0]?.reason).toBe("owed on cancellation whatever the wait");
    const noNewFlightYet = evaluateEntitlements(facts({ kind: "CANCELLATION", newDeparture: null }));
    expect(noNewFlightYet.waitingMinutes).toBeNull();
    expect(owed(noNewFlightYet, "EU261").MEALS).toBe(true);
  });

  it("with an airport's coordinates unknown the shortest threshold applies", () => {
    const unknown = evaluateEntitlements(
      facts({ arrival: { code: "XXX", country: null, coordinates: null }, newDeparture: waitedFor(120) }),
    );
    expect(unknown.distanceKm).toBeNull();
    expect(regime(unknown, "EU261").distanceBand).toMatchObject({ band: null, delayThresholdMinutes: 120 });
    expect(owed(unknown, "EU261").MEALS).toBe(true);
  });

  it("a flight into the EU is covered on an EU carrier only, and not when its departure airport has statutory care", () => {
    expect(
      evaluateEntitlements(facts({ departure: NRT, arrival: CDG, carrierCountry: "FR" })).regimes.map(
        (r) => r.regime,
      ),
    ).toEqual(["EU261"]);
    expect(
      regime(evaluateEntitlements(facts({ departure: NRT, arrival: CDG, carrierCountry: "FR" })), "EU261")
        .scope,
    ).toContain("3(1)(b)");
    expect(
      evaluateEntitlements(facts({ departure: NRT, arrival: CDG, carrierCountry: "JP" })).regimes,
    ).toEqual([]);
    expect(
      evaluateEntitlements(facts({ departure: JFK, arrival: MAD, carrierCountry: "ES" })).regimes.map(
        (r) => r.regime,
      ),
    ).toEqual(["US_DOT", "EU261"]);
    expect(
      evaluateEntitlements(facts({ departure: GRU, arrival: MAD, carrierCountry: "ES" })).regimes.map(
        (r) => r.regime,
      ),
    ).toEqual(["ANAC400"]);
  });
});

describe("evaluateEntitlements: UK261", () => {
  it("a departure from London has the EU261 thresholds (LHR-MAD, about 1,250 km: 2 h)", () => {
    const at = (wait: number) =>
      evaluateEntitlements(
        facts({ departure: LHR, arrival: MAD, newDeparture: waitedFor(wait), currency: "GBP" }),
      );
    expect(at(119).regimes.map((r) => r.regime)).toEqual(["UK261"]);
    expect(owed(at(119), "UK261").MEALS).toBe(false);
    expect(owed(at(120), "UK261").MEALS).toBe(true);
    expect(regime(at(120), "UK261").source).toContain("UK261");
  });

  it("a flight into the UK is covered on a UK or EU carrier", () => {
    const into = (carrierCountry: string) =>
      evaluateEntitlements(facts({ departure: JFK, arrival: LHR, carrierCountry })).regimes.map(
        (r) => r.regime,
      );
    expect(into("GB")).toEqual(["US_DOT", "UK261"]);
    expect(into("ES")).toEqual(["US_DOT", "UK261"]);
    expect(into("US")).toEqual(["US_DOT"]);
    // JFK-LHR is about 5,540 km: the long band.
    expect(
      regime(evaluateEntitlements(facts({ departure: JFK, arrival: LHR, carrierCountry: "GB" })), "UK261")
        .distanceBand?.band,
    ).toBe("LONG");
  });
});

describe("evaluateEntitlements: ANAC Resolution 400", () => {
  const at = (wait: number, overnight = false) =>
    owed(
      evaluateEntitlements(
        facts({ departure: GRU, arrival: MAD, newDeparture: waitedFor(wait), overnight, currency: "BRL" }),
      ),
      "ANAC400",
    );

  it("communication from 1 hour, food from 2 hours, accommodation and transfer from 4 hours overnight", () => {
    expect(at(59)).toEqual({ COMMUNICATIONS: false, MEALS: false, HOTEL: false, TRANSPORT: false });
    expect(at(60)).toMatchObject({ COMMUNICATIONS: true, MEALS: false });
    expect(at(119)).toMatchObject({ MEALS: false });
    expect(at(120)).toMatchObject({ MEALS: true, HOTEL: false });
    expect(at(239, true)).toMatchObject({ HOTEL: false, TRANSPORT: false });
    expect(at(240, true)).toMatchObject({ HOTEL: true, TRANSPORT: true });
    expect(at(600, false)).toMatchObject({ HOTEL: false });
  });

  it("is owed whatever the cause", () => {
    const weather = evaluateEntitlements(
      facts({
        departure: GRU,
        arrival: MAD,
        newDeparture: waitedFor(150),
        cause: disruptionCause("WEATHER"),
      }),
    );
    expect(owed(weather, "ANAC400").MEALS).toBe(true);
  });
});

describe("evaluateEntitlements: US DOT commitments", () => {
  const at = (wait: number, reason = "MAINTENANCE", overnight = false) =>
    evaluateEntitlements(
      facts({
        departure: JFK,
        arrival: BOS,
        carrierCountry: "US",
        newDeparture: waitedFor(wait),
        overnight,
        cause: disruptionCause(reason),
        currency: "USD",
      }),
    );

  it("a meal voucher for a controllable delay of 3 hours or more: 2 h 59 no, 3 h yes", () => {
    expect(owed(at(179), "US_DOT").MEALS).toBe(false);
    expect(owed(at(180), "US_DOT").MEALS).toBe(true);
    expect(regime(at(180), "US_DOT").care.map((c) => c.item)).toEqual(["MEALS", "HOTEL", "TRANSPORT"]);
  });

  it("a hotel and its transfer for an overnight controllable disruption", () => {
    expect(owed(at(14 * 60, "CREW", true), "US_DOT")).toEqual({ MEALS: true, HOTEL: true, TRANSPORT: true });
  });

  it("nothing for an uncontrollable cause", () => {
    const weather = at(14 * 60, "WEATHER", true);
    expect(owed(weather, "US_DOT")).toEqual({ MEALS: false, HOTEL: false, TRANSPORT: false });
    expect(regime(weather, "US_DOT").care[0]?.reason).toContain("WEATHER");
    expect(weather.mealAllowance.owed).toBe(false);
    expect(mealAllowance(weather.mealAllowance, "ECONOMY")).toEqual(money(0, "USD"));
  });

  it("an unstated cause counts as controllable, and says it was the default", () => {
    const cause = disruptionCause(undefined);
    expect(cause).toEqual({ reason: null, controllable: true, decidedBy: "default" });
    expect(disruptionCause("weather")).toMatchObject({ controllable: false, decidedBy: "reason" });
    expect(disruptionCause("SOMETHING_NEW")).toMatchObject({ controllable: true, decidedBy: "default" });
  });
});

describe("no regime", () => {
  it("a departure from an airport none of the regimes covers owes nothing but the airline policy's", () => {
    const tokyo = evaluateEntitlements(
      facts({ departure: NRT, arrival: JFK, carrierCountry: "US", currency: "JPY" }),
    );
    expect(tokyo.regimes).toEqual([]);
    expect(tokyo.mealAllowance).toMatchObject({ owed: false, meals: 0, perTier: [] });
  });
});

describe("the meal allowance (the meal card's amount)", () => {
  const policy = {
    urn: "urn:policy:p",
    version: 3,
    mealAllowance: { amount: 12.5, perTier: { BUSINESS: 30 } },
  };

  it("per tier and waiting time, from the policy: one meal per started 6 hours", () => {
    const eleven = evaluateEntitlements(facts({ newDeparture: waitedFor(11 * 60), policy }));
    expect(eleven.mealAllowance).toMatchObject({
      owed: true,
      meals: 2,
      minutesPerMeal: 360,
      currency: "EUR",
    });
    expect(mealAllowance(eleven.mealAllowance, "ECONOMY")).toEqual(money(2500, "EUR"));
    expect(mealAllowance(eleven.mealAllowance, "BUSINESS")).toEqual(money(6000, "EUR"));
    expect(mealAllowance(eleven.mealAllowance, undefined)).toEqual(money(2500, "EUR"));
    expect(eleven.mealAllowance.source).toContain("urn:policy:p");
  });

  it("zero while no meal is owed", () => {
    const short = evaluateEntitlements(facts({ newDeparture: waitedFor(60), policy }));
    expect(mealAllowance(short.mealAllowance, "BUSINESS")).toEqual(money(0, "EUR"));
  });

  it("the service default per meal when the policy sets none", () => {
    const noPolicy = evaluateEntitlements(facts({ newDeparture: waitedFor(150) }));
    expect(mealAllowance(noPolicy.mealAllowance, "FIRST")).toEqual(money(1500, "EUR"));
    expect(noPolicy.mealAllowance.source).toContain("service default");
  });

  it("no amount where neither the policy nor the defaults know the currency", () => {
    const yen = evaluateEntitlements(facts({ newDeparture: waitedFor(150), currency: "JPY" }));
    expect(yen.mealAllowance.owed).toBe(true);
    expect(mealAllowance(yen.mealAllowance, "ECONOMY")).toBeUndefined();
  });

  it("the airline's policy on top: meals from its own threshold where no regulation owes them", () => {
    const onTop = { ...policy, mealAllowance: { ...policy.mealAllowance, fromMinutes: 90 } };
    const weather = evaluateEntitlements(
      facts({
        departure: JFK,
        arrival: BOS,
        newDeparture: waitedFor(100),
        cause: disruptionCause("WEATHER"),
        currency: "USD",
        policy: onTop,
      }),
    );
    expect(owed(weather, "US_DOT").MEALS).toBe(false);
    expect(owed(weather, "AIRLINE_POLICY")).toEqual({ MEALS: true });
    expect(mealAllowance(weather.mealAllowance, "ECONOMY")).toEqual(money(1250, "USD"));
  });

  it("counts meals by started periods", () => {
    expect(mealsForWait(null, 360)).toBe(1);
    expect(mealsForWait(360, 360)).toBe(1);
    expect(mealsForWait(361, 360)).toBe(2);
  });
});

describe("inputs", () => {
  it("reads the waiting time in whole minutes and the disruption kind from the status", () => {
    expect(waitingMinutesOf(SCHEDULED, waitedFor(179))).toBe(179);
    expect(waitingMinutesOf(SCHEDULED, "2026-11-21T12:59:59Z")).toBe(179);
    expect(waitingMinutesOf(SCHEDULED, null)).toBeNull();
    expect(disruptionKind("CANCELLED")).toBe("CANCELLATION");
    expect(disruptionKind("canceled")).toBe("CANCELLATION");
    expect(disruptionKind("DELAYED")).toBe("DELAY");
    expect(disruptionKind(undefined)).toBe("DELAY");
  });
});
