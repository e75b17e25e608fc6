import { describe, expect, it } from "vitest";
import { offerKey } from "../../src/domain/allocation/offer.js";
import { planWave, type WaveInput } from "../../src/domain/allocation/wave.js";
import {
  type AgentInput,
  MAX_RECOMMENDATIONS,
  recommend,
  type WaveCandidate,
} from "../../src/domain/agent/recommendations.js";
import { offersAround } from "./hotel-offer-fixture.js";

const AIRPORT = { lat: 40.6413, lon: -73.7781 };
const { north, offer } = offersAround(AIRPORT, { provider: "vendor-a", currency: "USD" });

const constraints = {
  minStars: 3,
  maxDistanceKm: 25,
  maxNightlyRate: 150,
  requiredAmenities: ["24H_RECEPTION" as const],
  acceptedPayments: ["GUARANTEE" as const],
  excludedChains: [],
};

/**
 * A wave at JFK: G1 went to `best`, G2 to `second`; `spare` and `roomy` had rooms but scored worse;
 * `small` can hold neither group; `pricey` is over the rate ceiling; `far1`/`far2`/`far3` are too
 * far (the constraint that keeps most hotels out); `unrated` and `card` fail other gates.
 */
const wave: WaveInput = {
  groups: [
    { groupId: "G1", rooms: 2, nights: 1, tier: "ECONOMY" },
    { groupId: "G2", rooms: 3, nights: 1, tier: "ECONOMY" },
  ],
  offers: [
    offer("best", { nightlyRate: { amountMinor: 8000, currency: "USD" }, roomsAvailable: 2 }),
    offer("second", { ...north(5), nightlyRate: { amountMinor: 9000, currency: "USD" }, roomsAvailable: 3 }),
    offer("roomy", {
      ...north(12),
      nightlyRate: { amountMinor: 14000, currency: "USD" },
      roomsAvailable: 10,
    }),
    offer("spare", { ...north(9), nightlyRate: { amountMinor: 11000, currency: "USD" }, roomsAvailable: 6 }),
    offer("small", { ...north(4), nightlyRate: { amountMinor: 9500, currency: "USD" }, roomsAvailable: 1 }),
    offer("pricey", { ...north(6), nightlyRate: { amountMinor: 21000, currency: "USD" } }),
    offer("far1", { ...north(27.2) }),
    offer("far2", { ...north(31.4) }),
    offer("far3", { ...north(28) }),
    offer("unrated", { ...north(7), stars: null }),
    offer("card", { ...north(8), payments: ["CARD"] }),
  ],
  policy: { constraints },
  airport: AIRPORT,
  currency: "USD",
  rates: { base: "USD", perBase: {} },
};

const plan = planWave(wave);
const rankingInputs: WaveCandidate[] = plan.rankingInputs;

function input(overrides: Partial<AgentInput> = {}): AgentInput {
  return {
    category: "PARTIAL_FULFILLMENT",
    affectedGroups: ["G2"],
    attemptedHotels: [{ hotelUrn: "urn:hotel:second" }],
    rankingInputs,
    rankingClasses: plan.rankingClasses,
    constraints,
    ...overrides,
  };
}

describe("the exception agent's recommendations", () => {
  it("the wave is the one described", () => {
    expect(plan.allocations.map((a) => [a.groupId, a.hotelUrn])).toEqual([
      ["G1", "urn:hotel:best"],
      ["G2", "urn:hotel:second"],
    ]);
  });

  it("proposes the two most viable rebooks and the relaxation that lets most hotels in, at most 3", () => {
    const recommendations = recommend(input());
    expect(recommendations).toHaveLength(MAX_RECOMMENDATIONS);
    expect(recommendations).toEqual([
      {
        action: "rebook",
        hotelUrn: "urn:hotel:spare",
        reason: expect.stringContaining(
          "Passed every policy gate and had rooms left in the last wave (weighted score 0.530",
        ),
        source: "agent",
      },
      {
        action: "rebook",
        hotelUrn: "urn:hotel:roomy",
        reason: expect.stringContaining("weighted score 0.680"),
        source: "agent",
      },
      {
        action: "relaxPolicy",
        fields: { maxDistanceKm: 35 },
        reason: expect.stringContaining("maxDistanceKm alone kept 3 hotels out"),
        source: "agent",
      },
    ]);
  });

  it("never proposes an attempted hotel nor one too small for every affected group", () => {
    const recommendations = recommend(
      input({
        attemptedHotels: ["second", "spare", "roomy"].map((h) => ({ hotelUrn: `urn:hotel:${h}` })),
      }),
    );
    expect(recommendations).toEqual([
      expect.objectContaining({
        action: "rebook",
        hotelUrn: "urn:hotel:pricey",
        reason: expect.stringContaining("210.00 USD"),
      }),
      expect.objectContaining({ action: "relaxPolicy" }),
    ]);
  });

  it("proposes three rebooks when no constraint alone kept a hotel out; a hotel whose rooms went to other groups comes last", () => {
    const recommendations = recommend(
      input({
        affectedGroups: ["G1"],
        attemptedHotels: [{ hotelUrn: "urn:hotel:best" }],
        rankingInputs: rankingInputs.filter((r) => r.classId !== null),
      }),
    );
    expect(
      recommendations.map((r) => [(r as { hotelUrn: string }).hotelUrn, r.reason.split(" ")[0]]),
    ).toEqual([
      ["urn:hotel:spare", "Passed"],
      ["urn:hotel:roomy", "Passed"],
      ["urn:hotel:second", "Had"],
    ]);
  });

  it("ranks a hotel over the rate ceiling after those with room and before the relaxation", () => {
    const recommendations = recommend(
      input({
        affectedGroups: ["G1"],
        attemptedHotels: [{ hotelUrn: "urn:hotel:best" }, { hotelUrn: "urn:hotel:spare" }],
      }),
    );
    expect(recommendations.map((r) => (r.action === "rebook" ? r.hotelUrn : r.fields))).toEqual([
      "urn:hotel:roomy",
      "urn:hotel:pricey",
      { maxDistanceKm: 35 },
    ]);
  });

  it("leaves out offers with fewer rooms than the groups need, for rebooks and relaxations alike", () => {
    const roomsAvailable = new Map(
      wave.offers.map((o) => [offerKey(o.provider, o.providerOfferId), o.roomsAvailable]),
    );
    const recommendations = recommend(input({ roomsAvailable, roomsNeeded: 6 }));
    expect(recommendations.map((r) => (r as { hotelUrn: string }).hotelUrn)).toEqual([
      "urn:hotel:spare",
      "urn:hotel:roomy",
    ]);
  });

  it("reads a class's discarded row as a verdict on each group of the class not placed there", () => {
    const verdict = (hotel: string, classId: string, reason: string): WaveCandidate => ({
      classId,
      groupIds: null,
      hotelUrn: `urn:hotel:${hotel}`,
      provider: "vendor-a",
      providerOfferId: `offer-${hotel}`,
      outcome: "discarded",
      reasons: [reason],
      weightedScore: 0.4,
      raw: { nightlyRate: { amountMinor: 9000, currency: "USD" }, distanceKm: 5 },
    });
    const recommendations = recommend(
      input({
        affectedGroups: ["G7"],
        attemptedHotels: [],
        rankingClasses: [
          { classId: "2x1", rooms: 2, nights: 1, groupIds: ["G3", "G7", "G9"] },
        ],
        rankingInputs: [
          verdict("tiny", "2x1", "not-enough-rooms"),
          verdict("taken", "2x1", "hotel-full"),
          verdict("open", "2x1", "better-score-elsewhere"),
        ],
      }),
    );
    expect(
      recommendations.map((r) => [(r as { hotelUrn: string }).hotelUrn, r.reason.split(" ")[0]]),
    ).toEqual([
      ["urn:hotel:open", "Passed"],
      ["urn:hotel:taken", "Had"],
    ]);
  });

  it("is deterministic: the same item and wave, in any order, give the same proposals", () => {
    const expected = recommend(input());
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let run = 0; run < 20; run++) {
      const shuffled = [...rankingInputs].sort(() => random() - 0.5);
      expect(recommend(input({ rankingInputs: shuffled }))).toEqual(expected);
    }
  });

  it.each([
    ["too-far", { maxDistanceKm: 40 }, [38.1, 26]],
    ["over-max-rate", { maxNightlyRate: 220 }, null],
    ["payment-not-accepted", { acceptedPayments: ["GUARANTEE", "CARD"] }, null],
    ["unrated", { minStars: null }, null],
    ["below-min-stars", { minStars: 2 }, null],
    ["missing-amenity:24H_RECEPTION", { requiredAmenities: [] }, null],
    ["provider-not-allowed", { allowProviders: ["vendor-a", "vendor-c"] }, null],
  ] as const)("relaxes %s with %j", (reason, fields, distances) => {
    const gated = (hotel: string, distanceKm: number): WaveCandidate => ({
      classId: null,
      groupIds: null,
      hotelUrn: `urn:hotel:${hotel}`,
      provider: "vendor-c",
      providerOfferId: `offer-${hotel}`,
      outcome: "discarded",
      reasons: [reason],
      weightedScore: null,
      raw: { nightlyRate: { amountMinor: 21450, currency: "USD" }, distanceKm },
    });
    const [d1, d2] = distances ?? [3, 4];
    const recommendations = recommend(
      input({
        rankingInputs: [gated("x", d1!), gated("y", d2!)],
        constraints: { ...constraints, allowProviders: ["vendor-a"] },
      }),
    );
    const relax = recommendations.find((r) => r.action === "relaxPolicy");
    expect(relax).toMatchObject({ fields });
  });

  it("proposes nothing for an excluded chain, a hotel failing two constraints, or no wave", () => {
    const twice: WaveCandidate = {
      classId: null,
      groupIds: null,
      hotelUrn: "urn:hotel:z",
      provider: "vendor-a",
      providerOfferId: "offer-z",
      outcome: "discarded",
      reasons: ["too-far", "below-min-stars"],
      weightedScore: null,
      raw: { nightlyRate: null, distanceKm: 40 },
    };
    const chain: WaveCandidate = { ...twice, hotelUrn: "urn:hotel:c", reasons: ["excluded-chain"] };
    expect(recommend(input({ rankingInputs: [twice, chain] }))).toEqual([]);
    expect(recommend(input({ rankingInputs: [] }))).toEqual([]);
  });

  it.each(["MIXED_TIER_GROUP", "DATA_INCOMPLETE", "POLICY_VIOLATION"] as const)(
    "has nothing to propose for %s items",
    (category) => {
      expect(recommend(input({ category }))).toEqual([]);
    },
  );
});
