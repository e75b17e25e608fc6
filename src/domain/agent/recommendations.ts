import { offerKey } from "../allocation/offer.js";
import { type RankingClass, verdictsAbout } from "../allocation/ranking.js";
import type { RankingInput } from "../allocation/wave.js";
import type { ReviewCategory } from "../case.js";
import { minorUnitDigits } from "../money.js";
import { PAYMENT_METHODS, type PolicyConstraints } from "../policy/policy.js";
import type { Recommendation } from "../review-item.js";

/** Spec 4.2 and 8.2: the agent returns at most the top 3 recommendations. */
export const MAX_RECOMMENDATIONS = 3;

/** Categories about groups left without a room, where another hotel or a looser policy may help. */
export const AGENT_CATEGORIES: readonly ReviewCategory[] = [
  "BOOKING_FAILED",
  "PARTIAL_FULFILLMENT",
  "ALLOCATION_FAILED",
  "PAYMENT_FAILED",
];

/**
 * What the agent reads of a wave's rankingInputs (`RankingInput`): a stored wave's reasons are read
 * as words, since the agent matches a few of them by name.
 */
export type WaveCandidate = Pick<
  RankingInput,
  "classId" | "hotelUrn" | "provider" | "providerOfferId" | "weightedScore" | "outcome"
> & {
  /** On a selected row, the class's groups placed there; null on every other row. */
  groupIds: readonly string[] | null;
  reasons: readonly string[];
  raw: Pick<RankingInput["raw"], "nightlyRate" | "distanceKm">;
};

export interface AgentInput {
  category: ReviewCategory;
  affectedGroups: readonly string[];
  attemptedHotels: readonly { hotelUrn: string }[];
  /** The case's latest wave; none, no recommendation. */
  rankingInputs: readonly WaveCandidate[];
  /** The wave's classes of groups, which the class verdicts are about. */
  rankingClasses: readonly RankingClass[];
  /** The constraints that wave was gated by (policy and case override), when known. */
  constraints?: Partial<PolicyConstraints>;
  /** Rooms each offer of the wave had, by `offerKey`, when the wave recorded them. */
  roomsAvailable?: ReadonlyMap<string, number>;
  /** The fewest rooms an affected group needs, when the wave recorded the groups. */
  roomsNeeded?: number;
}

/**
 * How likely a rebook on the hotel houses the groups, best first:
 * - `compliant`: it passed every policy gate and still had rooms after the wave;
 * - `rate`: its only fault was a nightly rate above the policy's maximum;
 * - `capacity`: it passed the gates (or failed only on rate) but had no room left for the group.
 */
const VIABILITY = ["compliant", "rate", "capacity"] as const;
type Viability = (typeof VIABILITY)[number];

const CAPACITY_REASONS = new Set(["hotel-full", "not-enough-rooms"]);

interface RebookCandidate {
  hotelUrn: string;
  viability: Viability;
  weightedScore: number | null;
  nightlyRate: { amountMinor: number; currency: string } | null;
  distanceKm: number;
}

/**
 * The exception agent (spec 1.8, 4.2), by rules rather than a model, so the same item and wave
 * always give the same proposals. It only proposes: booking, cancelling and notifying stay with the
 * operator, who acts through the item's routes or approves the agent's actions (./agent-action.ts).
 *
 * For items about groups without a room it proposes `rebook` on the best hotels of the case's
 * latest wave that were not attempted (ranked by viability, then weighted score, rate, distance and
 * URN), and one `relaxPolicy` for the constraint that alone kept the most hotels out, with the
 * value that lets them all in. Of the rebooks it keeps two when there is a relaxation to propose
 * and three otherwise; the relaxation comes last, since it needs a wave re-run before it books.
 */
export function recommend(input: AgentInput): Recommendation[] {
  if (!AGENT_CATEGORIES.includes(input.category) || input.rankingInputs.length === 0) return [];
  const attempted = new Set(input.attemptedHotels.map((h) => h.hotelUrn));
  const byHotel = new Map<string, WaveCandidate[]>();
  for (const candidate of input.rankingInputs) {
    if (attempted.has(candidate.hotelUrn)) continue;
    const list = byHotel.get(candidate.hotelUrn) ?? [];
    list.push(candidate);
    byHotel.set(candidate.hotelUrn, list);
  }
  const aboutAffected = new Set(verdictsAbout(input.rankingInputs, input.rankingClasses, input.affectedGroups));
  // An offer with fewer rooms than the smallest affected group needs cannot house any of them.
  const { roomsAvailable, roomsNeeded } = input;
  const fits = (offer: WaveCandidate) =>
    roomsNeeded === undefined ||
    (roomsAvailable?.get(offerKey(offer.provider, offer.providerOfferId)) ?? roomsNeeded) >= roomsNeeded;
  const rebooks = [...byHotel.entries()]
    .flatMap(([hotelUrn, entries]) => rebookCandidate(hotelUrn, entries, aboutAffected, fits) ?? [])
    .sort(byViability)
    .map(toRebook);
  const relaxation = relaxPolicy(
    [...byHotel.values()].map((entries) => entries.filter((e) => e.classId !== null || fits(e))),
    input.constraints,
  );
  return relaxation
    ? [...rebooks.slice(0, MAX_RECOMMENDATIONS - 1), relaxation]
    : rebooks.slice(0, MAX_RECOMMENDATIONS);
}

function rebookCandidate(
  hotelUrn: string,
  entries: readonly WaveCandidate[],
  aboutAffected: ReadonlySet<WaveCandidate>,
  fits: (offer: WaveCandidate) => boolean,
): RebookCandidate | undefined {
  // Entries about classes of groups exist only for hotels that passed every gate.
  const withGroups = entries.filter((e) => e.classId !== null);
  if (withGroups.length > 0) {
    const own = withGroups.filter((e) => aboutAffected.has(e));
    // Too small for every affected group: no rebooking there houses anyone.
    if (own.length > 0 && own.every((e) => e.reasons.includes("not-enough-rooms"))) return undefined;
    if (own.length === 0 && !withGroups.some(fits)) return undefined;
    const full = own.some((e) => e.reasons.some((r) => CAPACITY_REASONS.has(r)));
    const best = [...(own.length > 0 ? own : withGroups)].sort(byScore)[0]!;
    return {
      hotelUrn,
      viability: full ? "capacity" : "compliant",
      weightedScore: best.weightedScore,
      nightlyRate: best.raw.nightlyRate,
      distanceKm: best.raw.distanceKm,
    };
  }
  const offers = entries.filter((e) => fits(e) && !e.reasons.some((r) => r.startsWith("duplicate-of:")));
  const rateOnly = offers.filter(
    (e) => e.reasons.length > 0 && e.reasons.every((r) => r === "over-max-rate"),
  );
  const rateOrRooms = offers.filter(
    (e) => e.reasons.length > 0 && e.reasons.every((r) => r === "over-max-rate" || r === "no-rooms"),
  );
  const [best] = (rateOnly.length > 0 ? rateOnly : rateOrRooms).sort(byRate);
  if (!best) return undefined;
  return {
    hotelUrn,
    viability: rateOnly.length > 0 ? "rate" : "capacity",
    weightedScore: null,
    nightlyRate: best.raw.nightlyRate,
    distanceKm: best.raw.distanceKm,
  };
}

function toRebook(candidate: RebookCandidate): Recommendation {
  const why: Record<Viability, string> = {
    compliant: `Passed every policy gate and had rooms left in the last wave (weighted score ${candidate.weightedScore?.toFixed(3)}, lower is better)`,
    rate: `Kept out of the last wave only by the policy's maximum nightly rate (${formatRate(candidate.nightlyRate)} a night)`,
    capacity: "Had no room left for the group in the last wave; rooms may have freed since",
  };
  return {
    action: "rebook",
    hotelUrn: candidate.hotelUrn,
    reason: why[candidate.viability],
    source: "agent",
  };
}

/** The constraint field a gate's discard reason comes from; undefined for faults no policy causes. */
function constraintOf(reason: string): RelaxableField | undefined {
  if (reason.startsWith("missing-amenity:")) return "requiredAmenities";
  return RELAXABLE_REASONS[reason];
}

const RELAXABLE_REASONS: Record<string, RelaxableField> = {
  "too-far": "maxDistanceKm",
  "over-max-rate": "maxNightlyRate",
  "below-min-stars": "minStars",
  unrated: "minStars",
  "payment-not-accepted": "acceptedPayments",
  "provider-not-allowed": "allowProviders",
};

/**
 * Excluded chains are never proposed: excluding a chain is a deliberate choice, and the wave does
 * not say which chain an offer belongs to. In this order ties between fields are broken.
 */
const RELAXABLE_FIELDS = [
  "maxDistanceKm",
  "maxNightlyRate",
  "minStars",
  "requiredAmenities",
  "acceptedPayments",
  "allowProviders",
] as const;
type RelaxableField = (typeof RELAXABLE_FIELDS)[number];

/** Offers a hotel was kept out by, each blocked by one constraint field only. */
function relaxPolicy(
  hotels: readonly (readonly WaveCandidate[])[],
  constraints: Partial<PolicyConstraints> | undefined,
): Recommendation | undefined {
  const kept = new Map<RelaxableField, WaveCandidate[][]>();
  for (const entries of hotels) {
    if (entries.some((e) => e.classId !== null)) continue;
    const byField = new Map<RelaxableField, WaveCandidate[]>();
    for (const offer of entries) {
      const fields = new Set(offer.reasons.map(constraintOf));
      const [field] = fields;
      if (fields.size !== 1 || field === undefined) continue;
      byField.set(field, [...(byField.get(field) ?? []), offer]);
    }
    for (const [field, offers] of byField) kept.set(field, [...(kept.get(field) ?? []), offers]);
  }
  const ranked = RELAXABLE_FIELDS.flatMap((field) => {
    const offers = kept.get(field);
    const value = offers && relaxedValue(field, offers.flat(), constraints);
    return offers && value !== undefined ? [{ field, hotels: offers.length, value }] : [];
  }).sort((a, b) => b.hotels - a.hotels);
  const best = ranked[0];
  if (!best) return undefined;
  const count = best.hotels === 1 ? "1 hotel" : `${best.hotels} hotels`;
  return {
    action: "relaxPolicy",
    fields: { [best.field]: best.value },
    reason: `${best.field} alone kept ${count} out of the last wave; this value lets ${best.hotels === 1 ? "it" : "them"} in for this case`,
    source: "agent",
  };
}

/** The value of `field` that admits every offer it alone kept out; undefined when it cannot be told. */
function relaxedValue(
  field: RelaxableField,
  offers: readonly WaveCandidate[],
  constraints: Partial<PolicyConstraints> | undefined,
): unknown {
  switch (field) {
    case "maxDistanceKm":
      // Rounded up to the next 5 km, within the policy schema's bound.
      return Math.min(1000, Math.ceil(Math.max(...offers.map((o) => o.raw.distanceKm)) / 5) * 5);
    case "maxNightlyRate": {
      const rates = offers.flatMap((o) => (o.raw.nightlyRate ? [majorUnits(o.raw.nightlyRate)] : []));
      return rates.length > 0 ? Math.ceil(Math.max(...rates) / 10) * 10 : undefined;
    }
    case "minStars": {
      // An unrated hotel passes only without a star bar; otherwise lower the bar one star.
      if (offers.some((o) => o.reasons.includes("unrated"))) return null;
      const current = constraints?.minStars;
      return current === undefined ? undefined : current > 1 ? current - 1 : null;
    }
    case "requiredAmenities": {
      if (!constraints?.requiredAmenities) return undefined;
      const missing = new Set(
        offers.flatMap((o) =>
          o.reasons.filter((r) => r.startsWith("missing-amenity:")).map((r) => r.slice(16)),
        ),
      );
      return constraints.requiredAmenities.filter((tag) => !missing.has(tag));
    }
    case "acceptedPayments":
      return [...PAYMENT_METHODS];
    case "allowProviders": {
      if (!constraints?.allowProviders) return null;
      return [...new Set([...constraints.allowProviders, ...offers.map((o) => o.provider)])].sort();
    }
  }
}

function majorUnits(amount: { amountMinor: number; currency: string }): number {
  return amount.amountMinor / 10 ** minorUnitDigits(amount.currency);
}

function formatRate(rate: RebookCandidate["nightlyRate"]): string {
  return rate
    ? `${majorUnits(rate).toFixed(minorUnitDigits(rate.currency))} ${rate.currency}`
    : "unknown rate";
}

const nullsLast = (a: number | null | undefined, b: number | null | undefined) =>
  a == null ? (b == null ? 0 : 1) : b == null ? -1 : a - b;

function byScore(a: WaveCandidate, b: WaveCandidate): number {
  return nullsLast(a.weightedScore, b.weightedScore);
}

function byRate(a: WaveCandidate, b: WaveCandidate): number {
  return (
    nullsLast(a.raw.nightlyRate?.amountMinor, b.raw.nightlyRate?.amountMinor) ||
    a.raw.distanceKm - b.raw.distanceKm
  );
}

function byViability(a: RebookCandidate, b: RebookCandidate): number {
  return (
    VIABILITY.indexOf(a.viability) - VIABILITY.indexOf(b.viability) ||
    nullsLast(a.weightedScore, b.weightedScore) ||
    nullsLast(a.nightlyRate?.amountMinor, b.nightlyRate?.amountMinor) ||
    a.distanceKm - b.distanceKm ||
    (a.hotelUrn < b.hotelUrn ? -1 : a.hotelUrn > b.hotelUrn ? 1 : 0)
  );
}
