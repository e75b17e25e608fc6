import { uuidFromParts } from "../uuid.js";
import type { OfferCandidate } from "./offer-candidate.js";

/**
 * The idempotency keys the hotel vendors get with every booking and cancellation ("no room booked
 * or cancelled twice with the vendor"): derived from what the platform keys the operation by, so a
 * call repeated after a lost answer, a retry or a process that died before recording the answer
 * sends the same key, and the vendor answers the first booking instead of selling a second room.
 */

/**
 * One booking attempt of one group booking at one offer: the case, the booking's key (wave and
 * group, override or review event), the claim's attempt and the offer. The attempt changes only
 * when a claim is taken from a holder that may still be alive (its lease ran out): that holder
 * gives back what it booked, so the new holder must not be answered the same room.
 */
export function vendorBookingKey(
  caseUrn: string,
  bookingKey: string,
  attempt: number,
  candidate: Pick<OfferCandidate, "vendor" | "providerOfferId">,
): string {
  return uuidFromParts(
    "",
    "vendor-booking",
    caseUrn,
    bookingKey,
    String(attempt),
    candidate.vendor,
    candidate.providerOfferId,
  );
}

/** Cancelling a vendor reservation is one operation whoever asks for it (a move, a decline, a lost claim). */
export function vendorCancellationKey(vendor: string, vendorReservationId: string): string {
  return uuidFromParts("", "vendor-cancellation", vendor, vendorReservationId);
}
