import { describe, expect, it } from "vitest";
import { bookingCandidates } from "../../src/app/booking/booking-candidates.js";
import type { RankingVerdict } from "../../src/app/allocation/wave-documents.js";

/** G1's class (same rooms, same nights) and another class. */
const rankingClasses = [
  { classId: "1x2", rooms: 1, nights: 2, groupIds: ["G0", "G1", "G7"] },
  { classId: "2x2", rooms: 2, nights: 2, groupIds: ["G2", "G3"] },
];

/** A verdict on G1's class: G1 placed in the hotel when assigned, the rest of the class otherwise. */
function pair(
  hotelUrn: string,
  provider: string,
  offer: string,
  score: number,
  reason: string,
  classId = "1x2",
): RankingVerdict {
  return {
    classId,
    groupIds: reason === "assigned" ? ["G1"] : null,
    hotelUrn,
    provider,
    providerOfferId: offer,
    weightedScore: score,
    outcome: reason === "assigned" ? "selected" : "discarded",
    reasons: [reason],
  };
}

function duplicate(hotelUrn: string, provider: string, offer: string, of: string): RankingVerdict {
  return {
    classId: null,
    groupIds: null,
    hotelUrn,
    provider,
    providerOfferId: offer,
    weightedScore: null,
    outcome: "discarded",
    reasons: [`duplicate-of:${of}`],
  };
}

const allocation = {
  groupId: "G1",
  hotelUrn: "urn:hotel:A",
  vendor: "vendor-a",
  providerOfferId: "A1",
  alternatives: [{ vendor: "vendor-b", providerOfferId: "A2" }],
};

describe("booking candidates", () => {
  it("tries the allocated offer, the hotel's other vendors, then the next-ranked hotels with room, best first", () => {
    const ranking = [
      pair("urn:hotel:A", "vendor-a", "A1", 0.1, "assigned"),
      pair("urn:hotel:C", "vendor-c", "C1", 0.4, "better-score-elsewhere"),
      pair("urn:hotel:B", "vendor-b", "B1", 0.3, "better-score-elsewhere"),
      duplicate("urn:hotel:B", "vendor-c", "B2", "B1"),
      pair("urn:hotel:D", "vendor-a", "D1", 0.2, "hotel-full"),
      pair("urn:hotel:E", "vendor-a", "E1", 0.15, "not-enough-rooms"),
      pair("urn:hotel:F", "vendor-a", "F1", 0.05, "better-score-elsewhere", "2x2"),
    ];
    expect(
      bookingCandidates(allocation, { rankingInputs: ranking, rankingClasses }).map(
        (c) => `${c.hotelUrn.slice(10)}:${c.vendor}:${c.providerOfferId}`,
      ),
    ).toEqual(["A:vendor-a:A1", "A:vendor-b:A2", "B:vendor-b:B1", "B:vendor-c:B2", "C:vendor-c:C1"]);
  });

  it("stops at the hotel limit and lists each offer once", () => {
    const ranking = [
      pair("urn:hotel:B", "vendor-b", "B1", 0.3, "better-score-elsewhere"),
      pair("urn:hotel:C", "vendor-c", "C1", 0.4, "better-score-elsewhere"),
    ];
    const candidates = bookingCandidates(
      { ...allocation, alternatives: [...allocation.alternatives, allocation.alternatives[0]!] },
      { rankingInputs: ranking, rankingClasses },
      2,
    );
    expect(candidates.map((c) => c.providerOfferId)).toEqual(["A1", "A2", "B1"]);
  });

  it("keeps to the allocated hotel when the wave ranked nothing else", () => {
    expect(
      bookingCandidates({ ...allocation, alternatives: undefined }, { rankingInputs: [] }).map((c) => c.providerOfferId),
    ).toEqual(["A1"]);
  });
});
