import { offerKey } from "../../domain/allocation/offer.js";
import { type RankingClass, verdictsAbout } from "../../domain/allocation/ranking.js";
import type { OfferCandidate } from "../../domain/booking/offer-candidate.js";
import type { RankingVerdict } from "../allocation/wave-documents.js";
import type { BookingAllocation } from "./wave-reader.js";

/**
 * A refused group is worth an operator's look after this many hotels: each try costs a booking
 * call under the vendor's 5 TPS budget, and the review item lists every hotel tried.
 */
export const MAX_HOTELS_PER_GROUP = 5;

/**
 * The offers to try for a group, in order (spec 7: RATE_NOT_AVAILABLE marks the offer stale and
 * the next candidate is tried): the allocated offer, the same hotel at its other vendors, then the
 * wave's next-ranked hotels for this group that still had room after the wave's assignment
 * (`better-score-elsewhere`), best weighted score first, each through its offer and its duplicates.
 * Hotels whose rooms went to other groups (`hotel-full`) or that never had enough are left out.
 */
export function bookingCandidates(
  allocation: Pick<BookingAllocation, "groupId" | "hotelUrn" | "vendor" | "providerOfferId" | "alternatives">,
  ranking: { rankingInputs: readonly RankingVerdict[]; rankingClasses?: readonly RankingClass[] },
  maxHotels = MAX_HOTELS_PER_GROUP,
): OfferCandidate[] {
  const hotels: OfferCandidate[][] = [
    [
      {
        hotelUrn: allocation.hotelUrn,
        vendor: allocation.vendor,
        providerOfferId: allocation.providerOfferId,
      },
      ...(allocation.alternatives ?? []).map((alternative) => ({
        hotelUrn: allocation.hotelUrn,
        vendor: alternative.vendor,
        providerOfferId: alternative.providerOfferId,
      })),
    ],
  ];
  const { rankingInputs, rankingClasses = [] } = ranking;
  const nextRanked = verdictsAbout(rankingInputs, rankingClasses, [allocation.groupId])
    .filter(
      (input) =>
        input.hotelUrn !== allocation.hotelUrn &&
        input.reasons.includes("better-score-elsewhere"),
    )
    .sort(
      (a, b) =>
        (a.weightedScore ?? Number.POSITIVE_INFINITY) - (b.weightedScore ?? Number.POSITIVE_INFINITY) ||
        a.hotelUrn.localeCompare(b.hotelUrn),
    );
  for (const input of nextRanked) {
    if (hotels.length >= maxHotels) break;
    if (hotels.some((offers) => offers[0]!.hotelUrn === input.hotelUrn)) continue;
    const duplicates = rankingInputs
      .filter(
        (other) =>
          other.classId === null &&
          other.hotelUrn === input.hotelUrn &&
          other.reasons.includes(`duplicate-of:${input.providerOfferId}`),
      )
      .map((other) => ({
        hotelUrn: input.hotelUrn,
        vendor: other.provider,
        providerOfferId: other.providerOfferId,
      }));
    hotels.push([
      { hotelUrn: input.hotelUrn, vendor: input.provider, providerOfferId: input.providerOfferId },
      ...duplicates,
    ]);
  }
  const seen = new Set<string>();
  return hotels.flat().filter((offer) => {
    const key = offerKey(offer.vendor, offer.providerOfferId);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
