import type { AttemptedHotel, FieldChange } from "../reservation.js";

/**
 * Events booking emits and consumes. Allocation hands over `allocation.wave-completed` and
 * `allocation.group-overridden`; the manual-review queue hands over `booking.group-requested` and
 * gets `booking.group-booked` / `booking.group-failed` and `review-item.requested` back.
 */
export const BOOKING_EVENTS = {
  waveCompleted: "allocation.wave-completed",
  groupOverridden: "allocation.group-overridden",
  groupRequested: "booking.group-requested",
  /** POST /v1/cases/{urn}/book-rooms accepted: book the case's latest wave. */
  waveRequested: "booking.wave-requested",
  /** A group waits behind an open circuit; the case's booking actor reminds the flow to try again. */
  retryDue: "booking.retry-due",
  /** Every allocated group of a wave is booked or failed: the demand can record its outcome. */
  waveSettled: "booking.wave-settled",
  groupBooked: "booking.group-booked",
  groupFailed: "booking.group-failed",
  reservationConfirmed: "reservation.confirmed",
  reservationCancelled: "reservation.cancelled",
  voucherIssued: "voucher.issued",
  voucherAmended: "voucher.amended",
  reviewItemRequested: "review-item.requested",
  /** A vendor's reconciliation interval came round for one tenant. */
  reconciliationDue: "booking.reconciliation-due",
} as const;

/** Who acts when booking runs on its own (a wave with autoBook, a reminder). */
export const BOOKING_SYSTEM_ACTOR = "urn:system:booking";

export type BookingReviewCategory = "BOOKING_FAILED" | "PARTIAL_FULFILLMENT" | "PAYMENT_FAILED";

/**
 * Hand-off 3: what the manual-review queue needs to create an item. `reviewItemUrn` is minted here
 * (an addition to the hand-off) so a PARTIAL demand can name the item that explains it before the
 * queue has created it; the queue creates the item under that URN.
 */
export interface ReviewItemRequestedData {
  reviewItemUrn: string;
  caseUrn: string;
  category: BookingReviewCategory;
  attemptedHotels: AttemptedHotel[];
  affectedGroups: string[];
  reason: string;
  demandUrn?: string;
  waveUrn?: string;
}

export interface GroupRequestedData {
  caseUrn: string;
  groupId: string;
  hotelUrn: string;
  providerOfferId?: string;
  reviewItemUrn: string;
  requestedBy: string;
}

export interface GroupBookingAnswer {
  caseUrn: string;
  groupId: string;
  reservationUrn?: string;
  reviewItemUrn: string;
  vendorErrorCode?: string;
}

export interface WaveRequestedData {
  waveUrn: string;
  caseUrn: string;
  requestedBy: string;
}

export interface RetryDueData {
  caseUrn: string;
  bookingKeys: string[];
}

export type WaveOutcome = "FULFILLED" | "PARTIAL" | "FAILED";

export interface WaveSettledData {
  waveUrn: string;
  caseUrn: string;
  demandUrn: string | null;
  outcome: WaveOutcome;
  /** Rooms of the wave's groups that hold a reservation. */
  roomsBooked: number;
  /** Every group of the wave, allocated or not, holds a reservation. */
  allGroupsBooked: boolean;
  /** The review item explaining what was not booked, when something was not. */
  reviewItemUrn: string | null;
}

export interface ReservationEventData {
  reservationUrn: string;
  groupId: string;
  status: string;
  checkIn: string;
  checkOut: string;
  vendor: string;
  hotelUrn: string;
  waveUrn: string | null;
}

export interface VoucherIssuedData {
  voucherUrn: string;
  reservationUrn: string;
  groupId: string;
  passengerUrns: string[];
}

export interface VoucherAmendedData extends VoucherIssuedData {
  version: number;
  changes: FieldChange[];
}

export interface ReconciliationDueData {
  tenant: string;
  vendor: string;
  /** ISO timestamp: changes after it are asked for. */
  since: string;
}
