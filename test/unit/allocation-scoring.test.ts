import { describe, expect, it } from "vitest";
import { DomainError } from "../../src/domain/domain-error.js";
import { resolveWeights, scoreHotel, scoreScale } from "../../src/domain/allocation/scoring.js";
import { DEFAULT_ALLOCATION_WEIGHTS } from "../../src/domain/policy/policy.js";

describe("resolveWeights", () => {
  it("defaults to the spec's 0.60 / 0.25 / 0.15", () => {
    expect(resolveWeights()).toEqual(DEFAULT_ALLOCATION_WEIGHTS);
  });

  it("rescales to a sum of 1 and fills missing weights from the defaults", () => {
    expect(resolveWeights({ cost: 60, distance: 25, consolidation: 15 })).toEqual({
      cost: 0.6,
      distance: 0.25,
      consolidation: 0.15,
    });
    const partial = resolveWeights({ consolidation: 0.65 });
    expect(partial.cost).toBeCloseTo(0.4);
    expect(partial.distance).toBeCloseTo(0.25 / 1.5);
    expect(partial.consolidation).toBeCloseTo(0.65 / 1.5);
  });

  it.each([{ cost: -0.1 }, { cost: 0, distance: 0, consolidation: 0 }, { distance: Number.NaN }])(
    "refuses %o",
    (weights) => {
      expect(() => resolveWeights(weights)).toThrow(DomainError);
    },
  );
});

describe("scoreHotel", () => {
  const weights = resolveWeights();
  const scale = { rateMinor: 20000, distanceKm: 20, demandRooms: 60 };

  it("normalizes each raw score against its reference and weighs them as a penalty", () => {
    const score = scoreHotel({ nightlyRateMinor: 12000, distanceKm: 5, roomsAvailable: 30 }, scale, weights);
    expect(score.normalized).toEqual({ cost: 0.6, distance: 0.25, consolidation: 0.5 });
    expect(score.weightedScore).toBeCloseTo(0.6 * 0.6 + 0.25 * 0.25 + 0.15 * (1 - 0.5), 12);
  });

  it("scores a free hotel at the airport able to house the whole wave 0, and the worst one 1", () => {
    expect(
      scoreHotel({ nightlyRateMinor: 0, distanceKm: 0, roomsAvailable: 90 }, scale, weights).weightedScore,
    ).toBe(0);
    expect(
      scoreHotel({ nightlyRateMinor: 20000, distanceKm: 20, roomsAvailable: 0 }, scale, weights)
        .weightedScore,
    ).toBeCloseTo(1, 12);
  });

  it("ranks cheaper, closer and larger hotels better, one figure at a time", () => {
    const base = { nightlyRateMinor: 10000, distanceKm: 10, roomsAvailable: 20 };
    const of = (h: typeof base) => scoreHotel(h, scale, weights).weightedScore;
    expect(of({ ...base, nightlyRateMinor: 9000 })).toBeLessThan(of(base));
    expect(of({ ...base, distanceKm: 9 })).toBeLessThan(of(base));
    expect(of({ ...base, roomsAvailable: 21 })).toBeLessThan(of(base));
  });
});

describe("scoreScale", () => {
  const eligible = [
    { nightlyRateMinor: 9000, distanceKm: 4, roomsAvailable: 5 },
    { nightlyRateMinor: 14000, distanceKm: 12, roomsAvailable: 8 },
  ];

  it("uses the policy's ceilings when it has them", () => {
    expect(scoreScale({ rateMinor: 20000, distanceKm: 25 }, eligible, 40)).toEqual({
      rateMinor: 20000,
      distanceKm: 25,
      demandRooms: 40,
    });
  });

  it("falls back to the largest value among eligible hotels", () => {
    expect(scoreScale({}, eligible, 40)).toEqual({ rateMinor: 14000, distanceKm: 12, demandRooms: 40 });
    expect(scoreScale({}, [], 0)).toEqual({ rateMinor: 0, distanceKm: 0, demandRooms: 0 });
  });
});
