import { offerKey } from "../../domain/allocation/offer.js";
import type { RankingClass } from "../../domain/allocation/ranking.js";
import type { OfferCandidate } from "../../domain/booking/offer-candidate.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
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
  allocation: DeepReadonly<
    Pick<BookingAllocation, "groupId" | "hotelUrn" | "vendor" | "providerOfferId" | "alternatives">
  >,
  ranking: Ranking,
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
  const { nextRanked, duplicatesOf } = rankingIndex(ranking);
  for (const input of nextRanked(allocation.groupId)) {
    if (hotels.length >= maxHotels) break;
    if (input.hotelUrn === allocation.hotelUrn) continue;
    if (hotels.some((offers) => offers[0]!.hotelUrn === input.hotelUrn)) continue;
    const duplicates = duplicatesOf(input).map((other) => ({
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

/** Read-only: booking is handed the wave as the store holds it. */
type Ranking = DeepReadonly<{ rankingInputs: RankingVerdict[]; rankingClasses?: RankingClass[] }>;

type Verdict = Ranking["rankingInputs"][number];

interface RankingIndex {
  /** The hotels that still had room for the group's class after the wave, best weighted score first. */
  nextRanked: (groupId: string) => readonly Verdict[];
  /** The costlier offers of the verdict's hotel that its offer represents. */
  duplicatesOf: (verdict: Verdict) => readonly Verdict[];
}

/**
 * A wave's verdicts indexed once for all its groups (booking plans every group of a wave in one
 * go): a class's `better-score-elsewhere` rows are about every group of the class not placed in
 * that hotel, so a group's next-ranked hotels are its class's, less the hotel it was allocated.
 */
const indexes = new WeakMap<Ranking, RankingIndex>();

function rankingIndex(ranking: Ranking): RankingIndex {
  const known = indexes.get(ranking);
  if (known) return known;
  const { rankingInputs, rankingClasses = [] } = ranking;
  const classOf = new Map<string, string>();
  for (const { classId, groupIds } of rankingClasses)
    for (const groupId of groupIds) classOf.set(groupId, classId);
  const open = new Map<string, Verdict[]>();
  const duplicates = new Map<string, Verdict[]>();
  for (const verdict of rankingInputs) {
    if (verdict.classId !== null && verdict.reasons.includes("better-score-elsewhere")) {
      const rows = open.get(verdict.classId) ?? [];
      rows.push(verdict);
      open.set(verdict.classId, rows);
    }
    if (verdict.classId !== null) continue;
    for (const reason of verdict.reasons) {
      if (!reason.startsWith("duplicate-of:")) continue;
      const key = `${verdict.hotelUrn}|${reason.slice("duplicate-of:".length)}`;
      const rows = duplicates.get(key) ?? [];
      rows.push(verdict);
      duplicates.set(key, rows);
    }
  }
  for (const rows of open.values()) {
    rows.sort(
      (a, b) =>
        (a.weightedScore ?? Number.POSITIVE_INFINITY) - (b.weightedScore ?? Number.POSITIVE_INFINITY) ||
        a.hotelUrn.localeCompare(b.hotelUrn),
    );
  }
  const index: RankingIndex = {
    nextRanked: (groupId) => open.get(classOf.get(groupId) ?? "") ?? [],
    duplicatesOf: (verdict) => duplicates.get(`${verdict.hotelUrn}|${verdict.providerOfferId}`) ?? [],
  };
  indexes.set(ranking, index);
  return index;
}
