import { DomainError } from "../domain-error.js";
import { type AllocationWeights, DEFAULT_ALLOCATION_WEIGHTS } from "../policy/policy.js";

/**
 * The policy's weights with defaults filled in, scaled to sum to 1 so that a weighted score
 * always lies in [0, 1] whatever scale the policy author wrote them in (0.6/0.25/0.15 or 60/25/15).
 */
export function resolveWeights(weights: Partial<AllocationWeights> = {}): AllocationWeights {
  const chosen = { ...DEFAULT_ALLOCATION_WEIGHTS, ...definedOnly(weights) };
  const values = [chosen.cost, chosen.distance, chosen.consolidation];
  const sum = values.reduce((a, b) => a + b, 0);
  if (values.some((v) => !Number.isFinite(v) || v < 0) || sum <= 0) {
    throw new DomainError(
      "invalid",
      "invalid-allocation-weights",
      "allocation weights must be non-negative with a positive sum",
      {
        weights: chosen,
      },
    );
  }
  return {
    cost: chosen.cost / sum,
    distance: chosen.distance / sum,
    consolidation: chosen.consolidation / sum,
  };
}

/**
 * The references that normalize raw scores to [0, 1]. Each is the value that scores worst:
 * the policy's own ceiling when it has one (so a score means the same in every wave under that
 * policy), else the largest value among the offers that passed the gates.
 */
export interface ScoreScale {
  /** Nightly rate, in minor units of the wave's currency, that scores 1 on cost. */
  readonly rateMinor: number;
  /** Distance from the airport that scores 1 on distance. */
  readonly distanceKm: number;
  /** Rooms the wave's groups request in total. */
  readonly demandRooms: number;
}

/** What one hotel's primary offer brings to the wave, in the wave's currency. */
export interface HotelFigures {
  readonly nightlyRateMinor: number;
  readonly distanceKm: number;
  readonly roomsAvailable: number;
}

export interface HotelScore {
  /** Each in [0, 1]; cost and distance lower is better, consolidation higher is better. */
  readonly normalized: { readonly cost: number; readonly distance: number; readonly consolidation: number };
  /**
   * w_cost * cost + w_distance * distance + w_consolidation * (1 - consolidation): a penalty in
   * [0, 1] per room-night, lower is better.
   */
  readonly weightedScore: number;
}

export function scoreScale(
  ceilings: { readonly rateMinor?: number; readonly distanceKm?: number },
  eligible: readonly HotelFigures[],
  demandRooms: number,
): ScoreScale {
  return {
    rateMinor: ceilings.rateMinor ?? Math.max(0, ...eligible.map((h) => h.nightlyRateMinor)),
    distanceKm: ceilings.distanceKm ?? Math.max(0, ...eligible.map((h) => h.distanceKm)),
    demandRooms,
  };
}

/**
 * Normalization, stated:
 * - cost = nightly rate / scale.rateMinor. For a given group, rate x rooms x nights divided by the
 *   same group's cost at the reference rate, so rooms and nights cancel: the ratio compares hotels.
 *   Ratio to the worst rather than min-max, because min-max would stretch a 1 EUR difference
 *   between two near-equal offers into the whole [0, 1] range.
 * - distance = great-circle km / scale.distanceKm, for the same reason.
 * - consolidation = min(1, rooms available / rooms the wave requests): the share of the wave one
 *   hotel could house on its own. A hotel that could take everyone scores 1; the objective turns
 *   it into a penalty (1 - consolidation) so that all three terms point the same way.
 */
export function scoreHotel(hotel: HotelFigures, scale: ScoreScale, weights: AllocationWeights): HotelScore {
  const cost = ratio(hotel.nightlyRateMinor, scale.rateMinor);
  const distance = ratio(hotel.distanceKm, scale.distanceKm);
  const consolidation = scale.demandRooms > 0 ? Math.min(1, hotel.roomsAvailable / scale.demandRooms) : 1;
  return {
    normalized: { cost, distance, consolidation },
    weightedScore:
      weights.cost * cost + weights.distance * distance + weights.consolidation * (1 - consolidation),
  };
}

function ratio(value: number, reference: number): number {
  return reference > 0 ? Math.min(1, Math.max(0, value / reference)) : 0;
}

function definedOnly(weights: Partial<AllocationWeights>): Partial<AllocationWeights> {
  return Object.fromEntries(Object.entries(weights).filter(([, v]) => v !== undefined));
}
