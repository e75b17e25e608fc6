/**
 * AeroRooms (vendor-a): camelCase JSON, USD major units, numeric hotel ids, upper-snake amenity
 * codes, 6-decimal coordinates, `starRating: 0` for unrated, the property code published.
 */
import { normalizeAmenities } from "../domain/allocation/amenities.js";
import type { HotelOffer } from "../domain/allocation/offer.js";
import type { PaymentMethod } from "../domain/policy/policy.js";
import { fromMajor } from "../domain/money.js";
import { hotelUrnFor, oneLineAddress } from "./hotel-identity.js";
import { clientCredentialsTokenRequest } from "./token-request.js";
import type { VendorAdapter } from "./vendor-adapter.js";
import type {
  BookingRequest,
  HotelSearchRequest,
  ReservationChange,
  ReservationChangeKind,
  ReservationStatus,
  VendorReservation,
} from "./vendor-port.js";
import { type WireRequest, jsonRequest, withQuery } from "./wire.js";
import {
  type JsonObject,
  booleanAt,
  errorCodeAt,
  listAt,
  numberAt,
  object,
  objectAt,
  objectsIn,
  optionalTextAt,
  textAt,
  textsAt,
  translated,
} from "./wire-reader.js";

const VENDOR = "vendor-a";

const STATUS: Record<string, ReservationStatus> = { CONFIRMED: "CONFIRMED", CANCELLED: "CANCELLED" };
const PAYMENT: Record<string, PaymentMethod> = { GUARANTEE: "GUARANTEE", CARD: "CARD" };
const CHANGE: Record<string, ReservationChangeKind> = {
  CREATED: "CREATED",
  CANCELLED: "CANCELLED",
  AMENDED: "AMENDED",
};

export const vendorAAdapter: VendorAdapter = {
  vendor: VENDOR,

  tokenRequest: (credentials) =>
    clientCredentialsTokenRequest("/oauth/token", credentials, "client_secret_post"),

  searchRequest(request: HotelSearchRequest): WireRequest {
    return jsonRequest("POST", "/v1/availability", {
      airportCode: request.airport,
      checkInDate: request.checkIn,
      checkOutDate: request.checkOut,
      roomCount: request.rooms,
    });
  },

  offers(body: unknown): HotelOffer[] {
    return objectsIn(body, "availability", "results", "result").map(offer);
  },

  bookRequest(request: BookingRequest): WireRequest {
    return jsonRequest("POST", "/v1/bookings", {
      offerId: request.providerOfferId,
      roomCount: request.rooms,
      guests: request.guestNames.map((fullName) => ({ fullName })),
      payment:
        request.payment.method === "CARD"
          ? {
              method: "CARD",
              card: { number: request.payment.card.number, expiry: request.payment.card.expiry },
            }
          : { method: "GUARANTEE" },
    });
  },

  cancelRequest: (reservationId) =>
    jsonRequest("DELETE", `/v1/bookings/${encodeURIComponent(reservationId)}`),
  lookupRequest: (reservationId) => jsonRequest("GET", `/v1/bookings/${encodeURIComponent(reservationId)}`),

  reservation(body: unknown): VendorReservation {
    return reservation(objectAt(object(body, "booking response"), "booking"));
  },

  reconcileRequest: (since) => jsonRequest("GET", withQuery("/v1/bookings/changes", { since })),

  changes(body: unknown): ReservationChange[] {
    return objectsIn(body, "changes", "changes", "change").map((change) => ({
      kind: translated(textAt(change, "type"), CHANGE, "change type"),
      at: textAt(change, "occurredAt"),
      reservation: reservation(objectAt(change, "booking")),
    }));
  },

  errorCode: (body) => errorCodeAt(body, "error", "code"),
};

function offer(result: JsonObject): HotelOffer {
  const providerHotelId = textAt(result, "hotelId");
  const location = objectAt(result, "location");
  const address = objectAt(result, "address");
  const rate = objectAt(result, "offer");
  const currency = textAt(rate, "currency");
  const stars = numberAt(result, "starRating");
  return {
    hotelUrn: hotelUrnFor(VENDOR, providerHotelId, optionalTextAt(result, "propertyCode")),
    provider: VENDOR,
    providerHotelId,
    providerOfferId: textAt(rate, "offerId"),
    name: textAt(result, "name"),
    address: oneLineAddress({
      street: textAt(address, "line1"),
      city: textAt(address, "city"),
      postalCode: textAt(address, "postalCode"),
      country: textAt(address, "countryCode"),
    }),
    lat: numberAt(location, "lat"),
    lon: numberAt(location, "lon"),
    stars: stars === 0 ? null : stars,
    chainId: optionalTextAt(result, "chainCode"),
    amenities: normalizeAmenities(textsAt(result, "amenityCodes")),
    nightlyRate: fromMajor(numberAt(rate, "averageNightlyRate"), currency),
    roomsAvailable: numberAt(result, "roomsLeft"),
    payments: textsAt(rate, "paymentMethods").map((method) => translated(method, PAYMENT, "payment method")),
    isDirectContract: false,
  };
}

function reservation(booking: JsonObject): VendorReservation {
  const currency = textAt(booking, "currency");
  return {
    provider: VENDOR,
    reservationId: textAt(booking, "bookingId"),
    confirmationCode: textAt(booking, "confirmationNumber"),
    status: translated(textAt(booking, "status"), STATUS, "booking status"),
    providerOfferId: textAt(booking, "offerId"),
    providerHotelId: textAt(booking, "hotelId"),
    checkIn: textAt(booking, "checkInDate"),
    checkOut: textAt(booking, "checkOutDate"),
    rooms: numberAt(booking, "roomCount"),
    guestNames: listAt(booking, "guests").map((guest) => textAt(object(guest, "guest"), "fullName")),
    payment: translated(textAt(booking, "paymentMethod"), PAYMENT, "payment method"),
    total: fromMajor(numberAt(booking, "totalRate"), currency),
    refundable: booleanAt(booking, "refundable"),
    cancellationDeadline: optionalTextAt(booking, "cancelDeadline"),
    updatedAt: textAt(booking, "updatedAt"),
  };
}
