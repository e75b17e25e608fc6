import { AMENITIES, type Amenity } from "../policy/policy.js";
import { foldText } from "./text-folding.js";

/**
 * Vendor wording that means each tag, compared after folding (case, accents, punctuation).
 * Matching is by whole phrase, never by keyword: "breakfast available" or "shuttle (paid, on
 * request)" must not pass a FREE_BREAKFAST or AIRPORT_SHUTTLE gate. Each tag's own name is
 * accepted too, for vendors that already speak the spec's vocabulary.
 */
export const AMENITY_SYNONYMS: Readonly<Record<Amenity, readonly string[]>> = {
  "24H_RECEPTION": [
    "24h reception",
    "24 hour reception",
    "24 hours reception",
    "24 hr reception",
    "24 7 reception",
    "reception 24h",
    "reception 24 hours",
    "24h front desk",
    "24 hour front desk",
    "24 hr front desk",
    "24 7 front desk",
    "front desk 24 hours",
    "front desk 24h",
    "round the clock reception",
    "24 hour check in",
  ],
  AIRPORT_SHUTTLE: [
    "airport shuttle",
    "airport shuttle service",
    "free airport shuttle",
    "complimentary airport shuttle",
    "shuttle to airport",
    "airport transfer",
    "airport transfers",
    "free airport transfer",
    "airport pick up",
    "airport pickup",
    "airport courtesy bus",
  ],
  WHEELCHAIR_ACCESSIBLE: [
    "wheelchair accessible",
    "wheelchair access",
    "accessible for wheelchairs",
    "wheelchair accessible rooms",
    "facilities for disabled guests",
    "disabled access",
    "disabled facilities",
    "handicap accessible",
    "ada accessible",
    "ada compliant",
    "step free access",
    "mobility accessible rooms",
  ],
  FREE_BREAKFAST: [
    "free breakfast",
    "breakfast included",
    "complimentary breakfast",
    "free breakfast buffet",
    "free buffet breakfast",
    "free continental breakfast",
    "continental breakfast included",
    "buffet breakfast included",
    "includes breakfast",
    "breakfast free",
  ],
};

const TAG_BY_PHRASE: ReadonlyMap<string, Amenity> = new Map(
  AMENITIES.flatMap((tag) =>
    [tag, ...AMENITY_SYNONYMS[tag]].map((phrase) => [foldText(phrase), tag] as const),
  ),
);

/** Maps a vendor's amenity list to spec tags, in AMENITIES order; unknown wording is dropped. */
export function normalizeAmenities(vendorAmenities: readonly string[]): Amenity[] {
  const found = new Set<Amenity>();
  for (const phrase of vendorAmenities) {
    const tag = TAG_BY_PHRASE.get(foldText(phrase));
    if (tag) found.add(tag);
  }
  return AMENITIES.filter((tag) => found.has(tag));
}
