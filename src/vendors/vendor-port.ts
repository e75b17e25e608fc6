/**
 * The port the application uses to reach a hotel inventory vendor, in normalized terms: offers as
 * the allocation domain's `HotelOffer`, reservations and reconciliation changes in one shape for
 * every vendor. Failures are `VendorError`s (classified as spec part 7 says) or `CircuitOpenError`.
 */
import type { HotelOffer } from "../domain/allocation/offer.js";
import type { PaymentMethod } from "../domain/policy/policy.js";
import type { Money } from "../domain/money.js";

export interface HotelSearchRequest {
  /** IATA code of the airport the hotels should be near. */
  airport: string;
  /** ISO dates (YYYY-MM-DD); check-out is the morning after the last night. */
  checkIn: string;
  checkOut: string;
  rooms: number;
}

export type BookingPayment =
  | { method: Extract<PaymentMethod, "GUARANTEE"> }
  | { method: Extract<PaymentMethod, "CARD">; card: { number: string; expiry: string } };

export interface BookingRequest {
  providerOfferId: string;
  rooms: number;
  guestNames: string[];
  payment: BookingPayment;
  /**
   * Sent as the `Idempotency-Key` header: the same key answers the first booking again instead of
   * booking another room; the same key with another request is refused.
   */
  idempotencyKey: string;
  /**
   * The client's reference, stored with the booking and listed back by `openBookings`: it names
   * whom the room was booked for (`vendorBookingReference`), so a room no reservation records can
   * be found again. The platform always gives one; a booking without it is never listed there.
   */
  clientReference?: string;
}

export interface CancelRequest {
  reservationId: string;
  /** Sent as the `Idempotency-Key` header, as for a booking. */
  idempotencyKey: string;
}

export type ReservationStatus = "CONFIRMED" | "CANCELLED";

export interface VendorReservation {
  provider: string;
  reservationId: string;
  confirmationCode: string;
  status: ReservationStatus;
  providerOfferId: string;
  providerHotelId: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
  guestNames: string[];
  payment: PaymentMethod;
  /** The whole stay for all rooms, in the vendor's currency. */
  total: Money;
  refundable: boolean;
  /** ISO timestamp until which cancelling is free; null for a non-refundable rate. */
  cancellationDeadline: string | null;
  /** ISO timestamp of the vendor's last change. */
  updatedAt: string;
  /** The reference the client booked it with; null when it gave none. */
  clientReference: string | null;
}

/** Which of its bookings a client asks for (see `InventoryVendor.openBookings`). */
export interface OpenBookingsQuery {
  /** Bookings whose client reference starts with this. */
  referencePrefix: string;
  /** ISO date (YYYY-MM-DD): bookings checking out on it or later (stays not over yet). */
  checkOutFrom: string;
}

export type ReservationChangeKind = "CREATED" | "CANCELLED" | "AMENDED";

/** One entry of a vendor's reconciliation listing (spec 6.3: vendors do not push, we poll). */
export interface ReservationChange {
  kind: ReservationChangeKind;
  /** ISO timestamp of the change at the vendor. */
  at: string;
  reservation: VendorReservation;
}

export interface InventoryVendor {
  readonly id: string;
  search(request: HotelSearchRequest): Promise<HotelOffer[]>;
  book(request: BookingRequest): Promise<VendorReservation>;
  cancel(request: CancelRequest): Promise<VendorReservation>;
  lookup(reservationId: string): Promise<VendorReservation>;
  /** Changes recorded after `since` (ISO timestamp), oldest first. */
  reconcile(since: string): Promise<ReservationChange[]>;
  /**
   * The client's CONFIRMED bookings under a reference prefix, stays not over yet: each vendor's
   * `GET` on its bookings collection, filtered by its names for the prefix and the check-out date
   * (`VendorEndpoints.openBookings`). Reconciliation asks it for the rooms no reservation records.
   */
  openBookings(query: OpenBookingsQuery): Promise<VendorReservation[]>;
}

/** The inventory vendors a tenant has enabled, in its mode (mock or live). */
export interface InventoryVendors {
  forTenant(tenant: string): InventoryVendor[];
}
