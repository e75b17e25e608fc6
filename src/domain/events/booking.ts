import type { Money } from "../money.js";
import type { FieldChange } from "../reservation.js";
import type { ReviewItemRequestedData } from "./review-item.js";

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
  /** Every allocated group of a wave is booked or failed: the demand can record its outcome. */
  waveSettled: "booking.wave-settled",
  groupBooked: "booking.group-booked",
  groupFailed: "booking.group-failed",
  reservationConfirmed: "reservation.confirmed",
  reservationCancelled: "reservation.cancelled",
  /** The passenger checked in at the hotel (POST /v1/me/check-in). */
  reservationCheckedIn: "reservation.checked-in",
  voucherIssued: "voucher.issued",
  voucherAmended: "voucher.amended",
  reviewItemRequested: "review-item.requested",
  /** A vendor's reconciliation interval came round for one tenant. */
  reconciliationDue: "booking.reconciliation-due",
  /**
   * Reconciliation cancelled, free of charge, a room a vendor held under the platform's reference
   * that no reservation recorded (src/domain/booking/orphan-room.ts).
   */
  orphanCancelled: "booking.orphan-cancelled",
} as const;

/** Who acts when booking runs on its own (a wave with autoBook). */
export const BOOKING_SYSTEM_ACTOR = "urn:system:booking";

export type BookingReviewCategory = "BOOKING_FAILED" | "PARTIAL_FULFILLMENT" | "PAYMENT_FAILED";

/** A review item booking asks for; booking names it before the queue creates it. */
export interface BookingReviewRequest extends ReviewItemRequestedData {
  reviewItemUrn: string;
  category: BookingReviewCategory;
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

export interface OrphanCancelledData {
  vendor: string;
  vendorReservationId: string;
  confirmationCode: string;
  caseUrn: string;
  groupId: string;
  /** What the room would have cost, in the vendor's currency. */
  cost: Money;
  /** The reference the platform booked it under. */
  clientReference: string;
}

export interface ReservationCancelledData extends ReservationEventData {
  /** The operator's URN, or `hotel` when reconciliation found the hotel cancelled it. */
  cancelledBy: string;
  reason: string;
}

export interface ReservationCheckedInData extends ReservationEventData {
  /** The passenger session that checked in. */
  checkedInBy: string;
}

export interface BookingEventDataByType {
  "booking.group-requested": GroupRequestedData;
  "booking.wave-requested": WaveRequestedData;
  "booking.wave-settled": WaveSettledData;
  "booking.group-booked": GroupBookingAnswer;
  "booking.group-failed": GroupBookingAnswer;
  "booking.reconciliation-due": ReconciliationDueData;
  "booking.orphan-cancelled": OrphanCancelledData;
  "reservation.confirmed": ReservationEventData;
  "reservation.cancelled": ReservationCancelledData;
  "reservation.checked-in": ReservationCheckedInData;
  "voucher.issued": VoucherIssuedData;
  "voucher.amended": VoucherAmendedData;
}
