import type { Passenger, PassengerGroup } from "../case.js";

/**
 * Passenger tiers (spec 2.2). The spec names ECONOMY, BUSINESS, FIRST and CREW and says a Premium
 * Economy tier exists without naming its value; PREMIUM_ECONOMY follows the other names.
 */
export const TIERS = ["ECONOMY", "PREMIUM_ECONOMY", "BUSINESS", "FIRST", "CREW"] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/**
 * The tier a passenger travels in. Pushed manifests carry only a cabin class (spec 4.3), whose
 * values are tier names, so it stands in when no tier is given.
 */
export function passengerTier(passenger: Pick<Passenger, "tier" | "cabinClass">): Tier | undefined {
  if (isTier(passenger.tier)) return passenger.tier;
  if (passenger.tier === undefined && isTier(passenger.cabinClass)) return passenger.cabinClass;
  return undefined;
}

/**
 * The one tier every passenger of the groups travels in, or null when they span tiers or a tier is
 * unknown: the tier the policy that governs a case is written for (src/app/cases/case-policy.ts).
 */
export function caseTier(groups: readonly Pick<PassengerGroup, "passengers">[]): Tier | null {
  let only: Tier | undefined;
  for (const group of groups) {
    for (const passenger of group.passengers) {
      const tier = passengerTier(passenger);
      if (tier === undefined || (only !== undefined && tier !== only)) return null;
      only = tier;
    }
  }
  return only ?? null;
}
