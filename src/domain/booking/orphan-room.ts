import type { ReviewItemRequestedData } from "../events/review-item.js";
import { type Money, minorUnitDigits } from "../money.js";
import { reviewItemUrnFor } from "../review-item.js";
import type { Reservation } from "../reservation.js";
import { type GroupBooking, attemptOf } from "./group-booking.js";
import { vendorBookingKey } from "./vendor-idempotency.js";

/**
 * Orphan rooms ("no room booked twice with the vendor"): a room a vendor holds under the platform's
 * reference (`vendor-reference.ts`) that no reservation records. A booker whose claim was taken
 * over after its lease gives back what it booked when it finds the claim lost, but a booking whose
 * answer never reached it (a timeout after the vendor booked) or whose cancellation the vendor
 * refused stays at the vendor, paid for and slept in by nobody. Reconciliation finds those and
 * gives them back while cancelling is free, else hands them to an operator (spec 7: manual
 * reconciliation).
 */

/** A room the vendor lists under the platform's reference. */
export interface ListedRoom {
  vendor: string;
  /** The vendor's booking id. */
  reservationId: string;
  /** The idempotency key the reference carries. */
  idempotencyKey: string;
}

/**
 * held: a reservation records the room (whatever its status: never touched). in-flight: a booking
 * of the group still books in the attempt and at the offer the key belongs to, so its holder may
 * yet confirm this very room (a PENDING booking is booked again in the same attempt, and the vendor
 * answers it this room). orphan: nothing records it and nothing can confirm it any more: a later
 * attempt or a final booking replaced its booker, whose confirmation would be refused.
 */
export type OrphanVerdict = "held" | "in-flight" | "orphan";

export function orphanVerdict(
  caseUrn: string,
  group: { bookings: readonly GroupBooking[]; reservations: readonly Reservation[] },
  room: ListedRoom,
): OrphanVerdict {
  const recorded = group.reservations.some(
    (r) => r.vendor === room.vendor && r.vendorReservationId === room.reservationId,
  );
  if (recorded) return "held";
  const booking = group.bookings.some(
    (b) =>
      (b.state === "BOOKING" || b.state === "PENDING") &&
      b.plan.candidates.some(
        (candidate) =>
          candidate.vendor === room.vendor &&
          vendorBookingKey(caseUrn, b.key, attemptOf(b), candidate) === room.idempotencyKey,
      ),
  );
  return booking ? "in-flight" : "orphan";
}

/** An orphan is cancelled while its rate still cancels for free (spec 7: anything else is for an operator). */
export function cancelsFreely(
  room: { refundable: boolean; cancellationDeadline: string | null },
  now: Date,
): boolean {
  if (!room.refundable) return false;
  return room.cancellationDeadline === null || now.getTime() < Date.parse(room.cancellationDeadline);
}

/** An orphan as the vendor lists it, with whom its reference says it was booked for. */
export interface Orphan extends ListedRoom {
  caseUrn: string;
  groupId: string;
  confirmationCode: string;
  total: Money;
  /** The reference the platform booked it under. */
  clientReference: string;
}

/**
 * The manual-reconciliation item for an orphan that does not cancel for free: it names the vendor,
 * the vendor's booking id and what the room costs. Its URN derives from the room, so the next
 * round, finding the room again, asks for the same item.
 */
export function orphanReview(
  orphan: Orphan,
  why: string,
): ReviewItemRequestedData & { reviewItemUrn: string } {
  const { amountMinor, currency } = orphan.total;
  const digits = minorUnitDigits(currency);
  const cost = `${(amountMinor / 10 ** digits).toFixed(digits)} ${currency}`;
  return {
    reviewItemUrn: reviewItemUrnFor(
      "review-item",
      orphan.caseUrn,
      `orphan:${orphan.vendor}:${orphan.reservationId}`,
    ),
    caseUrn: orphan.caseUrn,
    category: "MANUAL_RECONCILIATION",
    attemptedHotels: [],
    affectedGroups: [orphan.groupId],
    reason:
      `${orphan.vendor} holds booking ${orphan.reservationId} (confirmation ${orphan.confirmationCode}, ` +
      `${cost}) under this platform's reference for group ${orphan.groupId}, but no reservation ` +
      `records it: ${why}`,
  };
}
