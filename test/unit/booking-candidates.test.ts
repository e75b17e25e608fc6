import { describe, expect, it } from "vitest";
import { bookingCandidates } from "../../src/app/booking/booking-candidates.js";
import type { RankingVerdict } from "../../src/app/allocation/wave-documents.js";

/** A verdict on G1 and the other groups of its class (same rooms, same nights). */
function pair(
  hotelUrn: string,
  provider: string,
  offer: string,
  score: number,
  reason: string,
): RankingVerdict {
  return {
    groupIds: ["G0", "G1", "G7"],
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
      { ...pair("urn:hotel:F", "vendor-a", "F1", 0.05, "better-score-elsewhere"), groupIds: ["G2", "G3"] },
    ];
    expect(
      bookingCandidates(allocation, ranking).map(
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
      ranking,
      2,
    );
    expect(candidates.map((c) => c.providerOfferId)).toEqual(["A1", "A2", "B1"]);
  });

  it("keeps to the allocated hotel when the wave ranked nothing else", () => {
    expect(
      bookingCandidates({ ...allocation, alternatives: undefined }, []).map((c) => c.providerOfferId),
    ).toEqual(["A1"]);
  });
});
