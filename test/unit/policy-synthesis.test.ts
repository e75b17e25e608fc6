import { describe, expect, it } from "vitest";
import { synthesizePolicy } from "../../src/app/policies/policy-synthesis.js";
import { applyDefaults } from "../../src/domain/policy/policy.js";

const ZX = { airline: "ZX", airports: ["JFK", "BOS", "ORD"] };

describe("rule-based policy synthesis", () => {
  it.each([
    ["4 stars", { constraints: { minStars: 4 } }],
    ["at least four-star hotels", { constraints: { minStars: 4 } }],
    ["within 10 km", { constraints: { maxDistanceKm: 10 } }],
    ["no further than 5 miles", { constraints: { maxDistanceKm: 8 } }],
    ["max 150", { constraints: { maxNightlyRate: 150 } }],
    ["under $120 a night", { constraints: { maxNightlyRate: 120 } }],
    ["no more than 99.5 per night", { constraints: { maxNightlyRate: 99.5 } }],
    ["airport shuttle", { constraints: { requiredAmenities: ["AIRPORT_SHUTTLE"] } }],
    ["breakfast included", { constraints: { requiredAmenities: ["FREE_BREAKFAST"] } }],
    ["wheelchair access", { constraints: { requiredAmenities: ["WHEELCHAIR_ACCESSIBLE"] } }],
    ["24h reception", { constraints: { requiredAmenities: ["24H_RECEPTION"] } }],
    ["hotels near BOS", { context: { airline: "ZX", airport: "BOS" } }],
    ["business class", { tiers: ["BUSINESS"] }],
    ["premium economy", { tiers: ["PREMIUM_ECONOMY"] }],
    ["economy and crew", { tiers: ["ECONOMY", "CREW"] }],
    ["first class", { tiers: ["FIRST"] }],
    ["auto-approve up to 20 rooms", { autoApproveDemand: true, maxAutomaticRoomsPerWave: 20 }],
    ["incremental demand needs supervisor approval", { incrementalRequiresApproval: true }],
    ["pay by card", { constraints: { acceptedPayments: ["GUARANTEE", "CARD"] } }],
    ["run in batches", { mode: "BATCH" }],
    ["late checkout of 2 hours", { buffers: { lateCheckoutMinutes: 120 } }],
    ["early check-in 30 minutes", { buffers: { earlyCheckInMinutes: 30 } }],
    ["exclude Budget Inn", { constraints: { excludedChains: ["budget-inn"] } }],
    ["private car for first class", { tiers: ["FIRST"], transport: { perTier: { FIRST: "PRIVATE_CAR" } } }],
    ["taxi", { transport: { mode: "TAXI" } }],
  ])("reads %j", (description, expected) => {
    expect(synthesizePolicy(description, ZX).input).toMatchObject(expected);
  });

  it("reads a whole description into a draft the policy schema accepts", () => {
    const description =
      "4 stars within 10 km of JFK, max 150 a night, airport shuttle and breakfast, for business and first class passengers";
    const { input, confidence, recognised } = synthesizePolicy(description, ZX);
    expect(input).toEqual({
      name: `Synthesized: ${description}`,
      context: { airline: "ZX", airport: "JFK" },
      tiers: ["BUSINESS", "FIRST"],
      constraints: {
        minStars: 4,
        maxDistanceKm: 10,
        maxNightlyRate: 150,
        requiredAmenities: ["AIRPORT_SHUTTLE", "FREE_BREAKFAST"],
      },
    });
    expect(confidence).toBe(0.9);
    expect(recognised).toEqual([
      "4 stars",
      "10 km",
      "JFK",
      "max 150",
      "airport shuttle",
      "breakfast",
      "business",
      "first class",
    ]);
    expect(() => applyDefaults(input)).not.toThrow();
  });

  it("is deterministic and lowers confidence for clauses it does not understand", () => {
    const description = "4 stars, quiet rooms, near a good restaurant";
    const first = synthesizePolicy(description, ZX);
    expect(synthesizePolicy(description, ZX)).toEqual(first);
    expect(first.confidence).toBe(0.3);
  });

  it("does not mistake rooms, kilometres or other capitals for rates and airports", () => {
    const { input } = synthesizePolicy(
      "auto-approve up to 30 rooms within 12 km, ALL tiers, USD rates at LHR",
      ZX,
    );
    expect(input.constraints?.maxNightlyRate).toBeUndefined();
    expect(input.context.airport).toBeUndefined();
    expect(input).toMatchObject({ maxAutomaticRoomsPerWave: 30, constraints: { maxDistanceKm: 12 } });
  });

  it("ignores values outside the policy ranges", () => {
    const { input } = synthesizePolicy("within 5000 km, late checkout of 30 hours, 4 stars", ZX);
    expect(input.constraints).toEqual({ minStars: 4 });
    expect(input.buffers).toBeUndefined();
  });

  it("refuses a description in which nothing is recognised", () => {
    expect(() => synthesizePolicy("make it nice for everyone", ZX)).toThrow(
      expect.objectContaining({ kind: "unprocessable", code: "nothing-recognised" }),
    );
  });
});
