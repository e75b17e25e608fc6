/**
 * The distance bands of EU261 Art. 6(1), which UK261 keeps: they set how long a delay must last
 * before meals, refreshments and communications are owed. Distances are great-circle distances
 * (Art. 7(4) "measured by the great circle route method"; `greatCircleKm` in src/domain/geo.ts).
 */

export type DistanceBand = "SHORT" | "MEDIUM" | "LONG";

export interface BandRule {
  band: DistanceBand;
  /** Minutes of delay from which care is owed ("for two hours or more" etc.: the hour itself counts). */
  delayThresholdMinutes: number;
  source: string;
}

export const BAND_LIMITS_KM = { short: 1500, medium: 3500 } as const;

const SHORT: BandRule = {
  band: "SHORT",
  delayThresholdMinutes: 120,
  source: "Art. 6(1)(a): flights of 1,500 km or less, delay of two hours or more",
};
const MEDIUM: BandRule = {
  band: "MEDIUM",
  delayThresholdMinutes: 180,
  source:
    "Art. 6(1)(b): intra-Community flights of more than 1,500 km and all other flights between 1,500 and 3,500 km, delay of three hours or more",
};
const LONG: BandRule = {
  band: "LONG",
  delayThresholdMinutes: 240,
  source: "Art. 6(1)(c): all other flights, delay of four hours or more",
};

/**
 * The band of a flight. `domestic` is true when both airports are in the regime's own territory
 * (intra-Community for EU261, within the UK for UK261): such a flight never falls in the long band.
 * 1,500 km exactly is short; 3,500 km exactly is still medium ("between 1,500 and 3,500").
 */
export function distanceBand(distanceKm: number, domestic: boolean): BandRule {
  if (distanceKm <= BAND_LIMITS_KM.short) return SHORT;
  if (domestic || distanceKm <= BAND_LIMITS_KM.medium) return MEDIUM;
  return LONG;
}

/**
 * When the distance is unknown (an airport without coordinates), the short band's threshold is
 * taken: of the three it is the one that never withholds care the regulation owes.
 */
export const UNKNOWN_DISTANCE_RULE: Omit<BandRule, "band"> = {
  delayThresholdMinutes: SHORT.delayThresholdMinutes,
  source: "distance unknown: the shortest threshold of Art. 6(1) is applied, so no care owed is withheld",
};
