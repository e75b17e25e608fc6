/**
 * One vendor's wire shape: how to ask it things and how to read its answers into the normalized
 * port types. Pure mapping, no I/O: the vendor client sends what the adapter builds.
 */
import type { HotelOffer } from "../domain/allocation/offer.js";
import type {
  BookingRequest,
  CancelRequest,
  HotelSearchRequest,
  OpenBookingsQuery,
  ReservationChange,
  VendorReservation,
} from "./vendor-port.js";
import type { WireRequest } from "./wire.js";

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface VendorAdapter {
  readonly vendor: string;
  /** The OAuth 2.0 client-credentials token request, authenticated the way this vendor wants. */
  tokenRequest(credentials: ClientCredentials): WireRequest;
  searchRequest(request: HotelSearchRequest): WireRequest;
  offers(body: unknown, request: HotelSearchRequest): HotelOffer[];
  bookRequest(request: BookingRequest): WireRequest;
  cancelRequest(request: CancelRequest): WireRequest;
  lookupRequest(reservationId: string): WireRequest;
  /** Reads a booking, cancellation or lookup answer. */
  reservation(body: unknown): VendorReservation;
  reconcileRequest(since: string): WireRequest;
  changes(body: unknown): ReservationChange[];
  openBookingsRequest(query: OpenBookingsQuery): WireRequest;
  openBookings(body: unknown): VendorReservation[];
  /** The vendor's own error code from its error envelope, when there is one. */
  errorCode(body: unknown): string | undefined;
}
