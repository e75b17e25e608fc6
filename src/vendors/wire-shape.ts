/**
 * A vendor's wire shape written as data: its paths, its names for each normalized field and its
 * words for statuses and payments, with a function only where the vendor differs by more than a
 * name (a price to convert, a rating to parse). `shapedAdapter` reads and writes every vendor from
 * its shape, so each rule of the mapping (where a stay goes, how a reservation or a change-feed
 * entry is read, how a hotel gets its URN) is written once whichever vendor it serves.
 */
import { normalizeAmenities } from "../domain/allocation/amenities.js";
import type { HotelOffer } from "../domain/allocation/offer.js";
import type { Money } from "../domain/money.js";
import type { PaymentMethod } from "../domain/policy/policy.js";
import { hotelUrnFor, oneLineAddress } from "./hotel-identity.js";
import { clientCredentialsTokenRequest } from "./token-request.js";
import type { VendorAdapter } from "./vendor-adapter.js";
import type { VendorEndpoints } from "./vendor-endpoints.js";
import type {
  BookingRequest,
  HotelSearchRequest,
  ReservationChangeKind,
  ReservationStatus,
  VendorReservation,
} from "./vendor-port.js";
import { idempotent, jsonRequest, withQuery } from "./wire.js";
import {
  type JsonObject,
  type WirePath,
  errorCodeAt,
  numberAt,
  object,
  objectAt,
  objectsIn,
  optionalTextAt,
  textAt,
  textsAt,
  translated,
} from "./wire-reader.js";

/** A list in a response body: its key, and what the body and one entry are called in a malformed-response message. */
interface WireList {
  body: string;
  key: string;
  entry: string;
}

/** A vendor's words for one of our values, and what it calls them. */
export interface Words<T> {
  name: string;
  meaning: Readonly<Record<string, T>>;
}

/** Where one search result keeps each field of a `HotelOffer`. */
interface OfferShape {
  providerHotelId: WirePath;
  /** The provider-independent property code; null for a vendor that does not publish it. */
  propertyCode: WirePath | null;
  providerOfferId: WirePath;
  name: WirePath;
  address: {
    street: WirePath | ((result: JsonObject) => string);
    city: WirePath;
    postalCode: WirePath;
    country: WirePath;
  };
  lat: WirePath;
  lon: WirePath;
  stars(result: JsonObject): number | null;
  chainId(result: JsonObject): string | null;
  amenities: WirePath;
  /** One room for one night, whatever the vendor prices. */
  nightlyRate(result: JsonObject, request: HotelSearchRequest): Money;
  roomsAvailable: WirePath;
  payments(result: JsonObject): PaymentMethod[];
}

/** Where a booking object keeps each field of a `VendorReservation`. */
interface ReservationShape {
  reservationId: WirePath;
  confirmationCode: WirePath;
  status: WirePath;
  statuses: Words<ReservationStatus>;
  providerOfferId: WirePath;
  providerHotelId: WirePath;
  checkIn: WirePath;
  checkOut: WirePath;
  rooms: WirePath;
  guestNames: WirePath | ((booking: JsonObject) => string[]);
  payment: WirePath;
  payments: Words<PaymentMethod>;
  total(booking: JsonObject): Money;
  cancellation(booking: JsonObject): Pick<VendorReservation, "refundable" | "cancellationDeadline">;
  updatedAt: WirePath;
}

interface WireShape extends VendorEndpoints {
  vendor: string;
  search: VendorEndpoints["search"] & { results: WireList; offer: OfferShape };
  bookings: VendorEndpoints["bookings"] & {
    body(request: BookingRequest): Record<string, unknown>;
    reservation: ReservationShape;
  };
  changes: VendorEndpoints["changes"] & {
    list: WireList;
    kind: WirePath;
    kinds: Words<ReservationChangeKind>;
    at: WirePath;
  };
  /** Where the vendor's error envelope keeps its own error code. */
  errorCode: readonly string[];
}

export function shapedAdapter(shape: WireShape): VendorAdapter {
  const { vendor, search, bookings, changes, openBookings } = shape;
  const reservationAt = (id: string) => `${bookings.path}/${encodeURIComponent(id)}`;
  const reservation = (booking: JsonObject) => ({
    ...readReservation(vendor, booking, bookings.reservation),
    clientReference: optionalTextAt(booking, bookings.reference),
  });
  return {
    vendor,
    tokenRequest: (credentials) =>
      clientCredentialsTokenRequest(shape.token.path, credentials, shape.token.authentication),

    searchRequest(request) {
      const stay = {
        [search.stay.airport]: request.airport,
        [search.stay.checkIn]: request.checkIn,
        [search.stay.checkOut]: request.checkOut,
        [search.stay.rooms]: request.rooms,
      };
      return search.method === "GET"
        ? jsonRequest("GET", withQuery(search.path, stay))
        : jsonRequest("POST", search.path, stay);
    },

    offers: (body, request) =>
      listed(body, search.results).map((result) => readOffer(vendor, result, request, search.offer)),

    bookRequest: (request) =>
      idempotent(
        jsonRequest("POST", bookings.path, {
          ...bookings.body(request),
          ...(request.clientReference === undefined ? {} : { [bookings.reference]: request.clientReference }),
        }),
        request.idempotencyKey,
      ),
    cancelRequest: ({ reservationId, idempotencyKey }) =>
      idempotent(
        bookings.cancel.method === "DELETE"
          ? jsonRequest("DELETE", reservationAt(reservationId))
          : jsonRequest("POST", `${reservationAt(reservationId)}${bookings.cancel.path}`, {}),
        idempotencyKey,
      ),
    lookupRequest: (reservationId) => jsonRequest("GET", reservationAt(reservationId)),

    reservation: (body) =>
      reservation(
        bookings.envelope === null
          ? object(body, "booking")
          : objectAt(object(body, `${bookings.envelope} response`), bookings.envelope),
      ),

    reconcileRequest: (since) => jsonRequest("GET", withQuery(changes.path, { [changes.since]: since })),

    changes: (body) =>
      listed(body, changes.list).map((entry) => ({
        kind: said(entry, changes.kind, changes.kinds),
        at: textAt(entry, changes.at),
        // Every vendor nests the changed booking under `booking`.
        reservation: reservation(objectAt(entry, "booking")),
      })),

    openBookingsRequest: (query) =>
      jsonRequest(
        "GET",
        withQuery(bookings.path, {
          [openBookings.query.referencePrefix]: query.referencePrefix,
          [openBookings.query.checkOutFrom]: query.checkOutFrom,
        }),
      ),

    openBookings: (body) =>
      listed(body, { body: "open bookings", key: openBookings.list, entry: "booking" }).map(reservation),

    errorCode: (body) => errorCodeAt(body, ...shape.errorCode),
  };
}

function readOffer(
  vendor: string,
  result: JsonObject,
  request: HotelSearchRequest,
  shape: OfferShape,
): HotelOffer {
  const providerHotelId = textAt(result, shape.providerHotelId);
  const { street } = shape.address;
  return {
    hotelUrn: hotelUrnFor(
      vendor,
      providerHotelId,
      shape.propertyCode === null ? null : optionalTextAt(result, shape.propertyCode),
    ),
    provider: vendor,
    providerHotelId,
    providerOfferId: textAt(result, shape.providerOfferId),
    name: textAt(result, shape.name),
    address: oneLineAddress({
      street: typeof street === "function" ? street(result) : textAt(result, street),
      city: textAt(result, shape.address.city),
      postalCode: textAt(result, shape.address.postalCode),
      country: textAt(result, shape.address.country),
    }),
    lat: numberAt(result, shape.lat),
    lon: numberAt(result, shape.lon),
    stars: shape.stars(result),
    chainId: shape.chainId(result),
    amenities: normalizeAmenities(textsAt(result, shape.amenities)),
    nightlyRate: shape.nightlyRate(result, request),
    roomsAvailable: numberAt(result, shape.roomsAvailable),
    payments: shape.payments(result),
    isDirectContract: false,
  };
}

function readReservation(
  vendor: string,
  booking: JsonObject,
  shape: ReservationShape,
): Omit<VendorReservation, "clientReference"> {
  const { guestNames } = shape;
  return {
    provider: vendor,
    reservationId: textAt(booking, shape.reservationId),
    confirmationCode: textAt(booking, shape.confirmationCode),
    status: said(booking, shape.status, shape.statuses),
    providerOfferId: textAt(booking, shape.providerOfferId),
    providerHotelId: textAt(booking, shape.providerHotelId),
    checkIn: textAt(booking, shape.checkIn),
    checkOut: textAt(booking, shape.checkOut),
    rooms: numberAt(booking, shape.rooms),
    guestNames: typeof guestNames === "function" ? guestNames(booking) : textsAt(booking, guestNames),
    payment: said(booking, shape.payment, shape.payments),
    total: shape.total(booking),
    ...shape.cancellation(booking),
    updatedAt: textAt(booking, shape.updatedAt),
  };
}

function listed(body: unknown, list: WireList): JsonObject[] {
  return objectsIn(body, list.body, list.key, list.entry);
}

/** The vendor's word at `path`, translated. */
function said<T>(from: JsonObject, path: WirePath, words: Words<T>): T {
  return translated(textAt(from, path), words.meaning, words.name);
}
