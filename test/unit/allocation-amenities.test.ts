import { describe, expect, it } from "vitest";
import { AMENITY_SYNONYMS, normalizeAmenities } from "../../src/domain/allocation/amenities.js";
import { AMENITIES } from "../../src/domain/policy/policy.js";

describe("normalizeAmenities", () => {
  it.each([
    { vendor: ["24-hour front desk"], tags: ["24H_RECEPTION"] },
    { vendor: ["Reception 24h"], tags: ["24H_RECEPTION"] },
    { vendor: ["24/7 Reception"], tags: ["24H_RECEPTION"] },
    { vendor: ["Free Airport Shuttle"], tags: ["AIRPORT_SHUTTLE"] },
    { vendor: ["Airport pick-up"], tags: ["AIRPORT_SHUTTLE"] },
    { vendor: ["Wheelchair-accessible"], tags: ["WHEELCHAIR_ACCESSIBLE"] },
    { vendor: ["Facilities for disabled guests"], tags: ["WHEELCHAIR_ACCESSIBLE"] },
    { vendor: ["ADA compliant"], tags: ["WHEELCHAIR_ACCESSIBLE"] },
    { vendor: ["Breakfast included"], tags: ["FREE_BREAKFAST"] },
    { vendor: ["Petit-déjeuner"], tags: [] },
    { vendor: ["FREE_BREAKFAST", "24H_RECEPTION"], tags: ["24H_RECEPTION", "FREE_BREAKFAST"] },
    { vendor: ["Breakfast available"], tags: [] },
    { vendor: ["Shuttle (paid, on request)"], tags: [] },
    { vendor: ["Pool", "Spa"], tags: [] },
    {
      vendor: ["airport shuttle", "Airport Transfer", "Complimentary breakfast"],
      tags: ["AIRPORT_SHUTTLE", "FREE_BREAKFAST"],
    },
  ])("$vendor -> $tags", ({ vendor, tags }) => {
    expect(normalizeAmenities(vendor)).toEqual(tags);
  });

  it("maps every synonym in the table to its own tag", () => {
    for (const tag of AMENITIES) {
      for (const phrase of AMENITY_SYNONYMS[tag])
        expect(normalizeAmenities([phrase.toUpperCase()])).toEqual([tag]);
    }
  });
});
