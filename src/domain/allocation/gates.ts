import { fromMajor, type Money } from "../money.js";
import { type Amenity, POLICY_DEFAULTS, type PolicyConstraints } from "../policy/policy.js";
import type { HotelOffer } from "./offer.js";

/** The policy constraints a wave gates by (spec 2.4): every field optional, an absent one does not gate. */
export type GateConstraints = Readonly<Partial<PolicyConstraints>>;

/** What the wave measured about an offer before gating it. */
export interface OfferFacts {
  readonly distanceKm: number;
  /** The nightly rate in the wave's currency; undefined when the rate table cannot convert it. */
  readonly nightlyRate: Money | undefined;
}

/**
 * Why an offer cannot take part, as recorded in rankingInputs. `missing-amenity:<TAG>` names the
 * tag; `no-exchange-rate:<CUR>` names the vendor currency the rate table lacks.
 */
export type DiscardReason =
  | "provider-not-allowed"
  | `no-exchange-rate:${string}`
  | "no-rooms"
  | "unrated"
  | "below-min-stars"
  | "too-far"
  | "over-max-rate"
  | `missing-amenity:${Amenity}`
  | "excluded-chain"
  | "payment-not-accepted";

export type GateVerdict = "pass" | DiscardReason;

export type Gate = (offer: HotelOffer, facts: OfferFacts) => GateVerdict;

/**
 * The gates a policy imposes, in the order their reasons are reported. Stars and amenities are
 * gates, never scores (spec 2.6). An offer that cannot be priced in the wave's currency or has no
 * room left is discarded whatever the policy says.
 */
export function gatesFor(constraints: GateConstraints, currency: string): Gate[] {
  const gates: Gate[] = [];
  const allowed = constraints.allowProviders;
  if (allowed && allowed.length > 0) {
    gates.push((offer) => (allowed.includes(offer.provider) ? "pass" : "provider-not-allowed"));
  }
  gates.push((offer, facts) =>
    facts.nightlyRate ? "pass" : `no-exchange-rate:${offer.nightlyRate.currency}`,
  );
  gates.push((offer) => (offer.roomsAvailable > 0 ? "pass" : "no-rooms"));
  const { minStars } = constraints;
  if (minStars !== undefined) {
    gates.push((offer) =>
      offer.stars === null ? "unrated" : offer.stars < minStars ? "below-min-stars" : "pass",
    );
  }
  const { maxDistanceKm } = constraints;
  if (maxDistanceKm !== undefined) {
    gates.push((_, facts) => (facts.distanceKm <= maxDistanceKm ? "pass" : "too-far"));
  }
  if (constraints.maxNightlyRate !== undefined) {
    const ceiling = fromMajor(constraints.maxNightlyRate, currency).amountMinor;
    gates.push((_, facts) =>
      facts.nightlyRate && facts.nightlyRate.amountMinor > ceiling ? "over-max-rate" : "pass",
    );
  }
  for (const tag of constraints.requiredAmenities ?? []) {
    gates.push((offer) => (offer.amenities.includes(tag) ? "pass" : `missing-amenity:${tag}`));
  }
  const excluded = constraints.excludedChains ?? [];
  if (excluded.length > 0) {
    gates.push((offer) =>
      offer.chainId !== null && excluded.includes(offer.chainId) ? "excluded-chain" : "pass",
    );
  }
  const accepted = constraints.acceptedPayments ?? POLICY_DEFAULTS.acceptedPayments;
  gates.push((offer) => (offer.payments.some((p) => accepted.includes(p)) ? "pass" : "payment-not-accepted"));
  return gates;
}

/** Every gate's reason against the offer, in gate order; empty when the offer passes them all. */
export function discardReasons(
  offer: HotelOffer,
  facts: OfferFacts,
  gates: readonly Gate[],
): DiscardReason[] {
  const reasons: DiscardReason[] = [];
  for (const gate of gates) {
    const verdict = gate(offer, facts);
    if (verdict !== "pass") reasons.push(verdict);
  }
  return reasons;
}
