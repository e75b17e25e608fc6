/**
 * One offer the booking may try for a group: a hotel at one vendor. A group's booking plan lists
 * them in the order they are tried (spec 7: an offer the vendor answers RATE_NOT_AVAILABLE for is
 * stale, and the next candidate is tried).
 */
export interface OfferCandidate {
  hotelUrn: string;
  vendor: string;
  providerOfferId: string;
}
