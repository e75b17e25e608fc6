import type { VoucherAmendedData } from "../events/booking.js";
import type { Money } from "../money.js";
import type { FieldChange, Reservation } from "../reservation.js";
import { voucherEventData } from "./reservation-lifecycle.js";

/**
 * Vendor reconciliation (spec 6.3): hotel vendors do not push, so the service polls what changed
 * on their side. The reservation follows the vendor, its voucher gets a new version
 * (voucher.amended), and a hotel-side cancellation is handed to an operator (see
 * `hotelCancellationReview`).
 */

/** What the vendor now says about a reservation (reconciliation, spec 6.3). */
export interface VendorView {
  status: "CONFIRMED" | "CANCELLED";
  checkIn: string;
  checkOut: string;
  rooms: number;
  total: Money;
  updatedAt: string;
}

export interface VendorChangeOutcome {
  reservation: Reservation;
  changes: FieldChange[];
  /** The hotel cancelled a reservation the service still counted on. */
  cancelledByHotel: boolean;
}

/**
 * Applies the vendor's view to the stored reservation. Only what the vendor owns moves (status,
 * dates, rooms, cost); a reservation already cancelled here stays as it is, and one a passenger
 * checked into keeps its check-in status unless the hotel cancels it. A view older than the last
 * one applied is ignored, so reconciliation may list a change again (its polls overlap) without
 * undoing a later one. No change, no new version.
 */
export function applyVendorView(reservation: Reservation, view: VendorView, now: Date): VendorChangeOutcome {
  const unchanged = { reservation, changes: [], cancelledByHotel: false };
  if (reservation.status === "CANCELLED") return unchanged;
  if (reservation.vendorUpdatedAt && Date.parse(view.updatedAt) < Date.parse(reservation.vendorUpdatedAt)) {
    return unchanged;
  }
  const changes: FieldChange[] = [];
  const note = (field: FieldChange["field"], before: unknown, after: unknown) => {
    if (JSON.stringify(before) !== JSON.stringify(after)) changes.push({ field, before, after });
  };
  const cancelledByHotel = view.status === "CANCELLED";
  if (cancelledByHotel) note("status", reservation.status, "CANCELLED");
  note("checkIn", reservation.checkIn, view.checkIn);
  note("checkOut", reservation.checkOut, view.checkOut);
  note("rooms", reservation.rooms, view.rooms);
  note("cost", reservation.cost, view.total);
  if (changes.length === 0) return unchanged;
  const at = now.toISOString();
  return {
    reservation: {
      ...reservation,
      status: cancelledByHotel ? "CANCELLED" : reservation.status,
      checkIn: view.checkIn,
      checkOut: view.checkOut,
      rooms: view.rooms,
      cost: view.total,
      updatedAt: at,
      vendorUpdatedAt: view.updatedAt,
      voucher: { ...reservation.voucher, version: reservation.voucher.version + 1, amendedAt: at },
    },
    changes,
    cancelledByHotel,
  };
}

/** The voucher.amended payload for a reservation the vendor changed. */
export function amendedVoucherEventData(
  reservation: Reservation,
  changes: FieldChange[],
): VoucherAmendedData {
  return { ...voucherEventData(reservation), version: reservation.voucher.version, changes };
}
