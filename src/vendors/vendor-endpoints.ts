/**
 * Where a hotel vendor's API takes each operation, as its documentation says. The client's wire
 * shape (`wire-shape.ts`) and the simulator of the vendor each write this down for their own side,
 * so that a contract test between them catches a path or a name one of them has wrong.
 */
import type { ClientAuthentication } from "./token-request.js";
import type { HotelSearchRequest, OpenBookingsQuery } from "./vendor-port.js";

export interface VendorEndpoints {
  /** The OAuth token endpoint, and where it takes the client's credentials. */
  token: { path: string; authentication: ClientAuthentication };
  search: {
    /** POST takes the stay as a JSON body, GET in the query string. */
    method: "POST" | "GET";
    path: string;
    /** The vendor's names for the stay's fields. */
    stay: Readonly<Record<keyof HotelSearchRequest, string>>;
  };
  bookings: {
    /** A booking is posted here; a reservation lives at `{path}/{reservation id}`. */
    path: string;
    /** Cancelling deletes the reservation, or posts `{}` to this path below it. */
    cancel: { method: "DELETE" } | { method: "POST"; path: string };
    /** The key an answer wraps a booking in; null when the booking is the whole body. */
    envelope: string | null;
    /** The key of the client's reference in a booking request and in the booking the vendor answers. */
    reference: string;
  };
  /**
   * The client's confirmed bookings, listed by a `GET` on the bookings collection: the vendor's
   * names for the query parameters, and the key of the answer's list.
   */
  openBookings: {
    query: Readonly<Record<keyof OpenBookingsQuery, string>>;
    list: string;
  };
  /** The reconciliation listing (spec 6.3: vendors do not push, the service polls). */
  changes: {
    path: string;
    /** The query parameter that takes the ISO timestamp to list changes after. */
    since: string;
  };
}
