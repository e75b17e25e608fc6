import type { GroupBookingAnswer, BookingReviewRequest, WaveOutcome } from "../events/booking.js";
import type { Reservation } from "../reservation.js";
import { type BookingFailure, type GroupBooking, whyNotBooked } from "./group-booking.js";

/**
 * The manual-review items booking asks for (spec 2.5 categories BOOKING_FAILED, PAYMENT_FAILED,
 * PARTIAL_FULFILLMENT), and its answers to the re-bookings a review item asked for. Booking names
 * each item by its cause, so asking again for the same cause (a replayed turn) names the same item.
 */

/** The URN of the review item that `cause` raises in the case. */
export type ReviewItemUrnFor = (caseUrn: string, cause: string) => string;

/** An override books one group outside any wave settlement: its failure is raised on its own. */
export function overrideFailureReview(
  caseUrn: string,
  failed: GroupBooking,
  failure: BookingFailure,
  reviewItemUrnFor: ReviewItemUrnFor,
): BookingReviewRequest {
  return {
    reviewItemUrn: reviewItemUrnFor(caseUrn, failed.key),
    caseUrn,
    category: failure.category,
    attemptedHotels: failed.attemptedHotels,
    affectedGroups: [failed.groupId],
    reason: `The overridden hotel could not be booked for group ${failed.groupId}: ${failure.reason}`,
    ...(failed.demandUrn ? { demandUrn: failed.demandUrn } : {}),
    ...(failed.waveUrn ? { waveUrn: failed.waveUrn } : {}),
  };
}

/** Reconciliation found the hotel cancelled a reservation the service counted on (spec 6.3). */
export function hotelCancellationReview(
  caseUrn: string,
  cancelled: Reservation,
  reviewItemUrnFor: ReviewItemUrnFor,
): BookingReviewRequest {
  return {
    reviewItemUrn: reviewItemUrnFor(caseUrn, `cancelled:${cancelled.id}`),
    caseUrn,
    category: "BOOKING_FAILED",
    attemptedHotels: [
      { hotelUrn: cancelled.hotel.hotelUrn, reason: "cancelled-by-hotel", providerError: "CANCELLED" },
    ],
    affectedGroups: [cancelled.groupId],
    reason: `${cancelled.hotel.name} cancelled reservation ${cancelled.confirmationNumber} on its side`,
    ...(cancelled.demandUrn ? { demandUrn: cancelled.demandUrn } : {}),
    ...(cancelled.waveUrn ? { waveUrn: cancelled.waveUrn } : {}),
  };
}

export interface SettledWave {
  waveUrn: string;
  demandUrn: string | null;
  outcome: WaveOutcome;
  /** The wave's groups, allocated or not, that hold no reservation. */
  notBooked: readonly { groupId: string }[];
  /** The wave's booking of a group, if it has one. */
  bookingOf(groupId: string): GroupBooking | undefined;
}

/**
 * What a wave's first settlement asks for: PARTIAL_FULFILLMENT for the groups left without rooms
 * when some were booked, BOOKING_FAILED for the refused groups when none was, and PAYMENT_FAILED
 * for the groups whose payment the vendor refused.
 */
export function waveReviewRequests(
  caseUrn: string,
  wave: SettledWave,
  reviewItemUrnFor: ReviewItemUrnFor,
): BookingReviewRequest[] {
  const { waveUrn, outcome, notBooked, bookingOf } = wave;
  const common = { caseUrn, waveUrn, ...(wave.demandUrn ? { demandUrn: wave.demandUrn } : {}) };
  const attemptsOf = (groups: readonly { groupId: string }[]) =>
    groups.flatMap((g) => bookingOf(g.groupId)?.attemptedHotels ?? []);
  const groupIds = (groups: readonly { groupId: string }[]) => groups.map((g) => g.groupId);
  const paymentRefused = notBooked.filter(
    (g) => bookingOf(g.groupId)?.failure?.category === "PAYMENT_FAILED",
  );
  const refused = notBooked.filter((g) => bookingOf(g.groupId)?.failure?.category === "BOOKING_FAILED");
  const requests: BookingReviewRequest[] = [];
  if (outcome === "PARTIAL") {
    requests.push({
      ...common,
      reviewItemUrn: reviewItemUrnFor(caseUrn, `${waveUrn}#PARTIAL_FULFILLMENT`),
      category: "PARTIAL_FULFILLMENT",
      attemptedHotels: attemptsOf(notBooked),
      affectedGroups: groupIds(notBooked),
      reason: `${notBooked.length} group(s) of the wave could not be booked: ${notBooked
        .map((g) => `${g.groupId} (${whyNotBooked(bookingOf(g.groupId))})`)
        .join(", ")}`,
    });
  }
  if (outcome === "FAILED" && refused.length > 0) {
    requests.push({
      ...common,
      reviewItemUrn: reviewItemUrnFor(caseUrn, `${waveUrn}#BOOKING_FAILED`),
      category: "BOOKING_FAILED",
      attemptedHotels: attemptsOf(refused),
      affectedGroups: groupIds(refused),
      reason: `Every attempted hotel refused or errored for ${groupIds(refused).join(", ")}`,
    });
  }
  if (paymentRefused.length > 0) {
    requests.push({
      ...common,
      reviewItemUrn: reviewItemUrnFor(caseUrn, `${waveUrn}#PAYMENT_FAILED`),
      category: "PAYMENT_FAILED",
      attemptedHotels: attemptsOf(paymentRefused),
      affectedGroups: groupIds(paymentRefused),
      reason: `The vendor refused the payment for ${groupIds(paymentRefused).join(", ")}; correct the payment details`,
    });
  }
  return requests;
}

/**
 * Booking's answer to the review item that asked for a re-booking (booking.group-booked with the
 * reservation, booking.group-failed with the vendor's error code).
 */
export function reviewAnswer(
  caseUrn: string,
  booking: GroupBooking,
  outcome: Pick<GroupBookingAnswer, "reservationUrn" | "vendorErrorCode">,
): GroupBookingAnswer {
  return { caseUrn, groupId: booking.groupId, reviewItemUrn: booking.reviewItemUrn ?? "", ...outcome };
}
