/**
 * Hotelnet Europa (vendor-b): query-string search, EUR decimal strings for the whole stay, codes
 * like `US-JFK-007-7F3A`, `geo: {latitude, longitude}` at 4 decimals (about 11 m, well inside
 * dedup's 100 m), amenity phrases, `category: null` for unrated, no property code, lower-case
 * statuses, HTTP Basic at the token endpoint.
 */
import { normalizeAmenities } from "../domain/allocation/amenities.js";
import type { HotelOffer } from "../domain/allocation/offer.js";
import type { PaymentMethod } from "../domain/policy/policy.js";
import { fromMajor, money } from "../domain/money.js";
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
  MalformedResponse,
  booleanAt,
  errorCodeAt,
  object,
  objectAt,
  objectsIn,
  optionalNumberAt,
  optionalTextAt,
  textAt,
  textsAt,
  translated,
  numberAt,
} from "./wire-reader.js";

const VENDOR = "vendor-b";

const STATUS: Record<string, ReservationStatus> = { confirmed: "CONFIRMED", cancelled: "CANCELLED" };
const PAYMENT: Record<string, PaymentMethod> = { COMPANY_GUARANTEE: "GUARANTEE", CREDIT_CARD: "CARD" };
const CHANGE: Record<string, ReservationChangeKind> = {
  "booking.created": "CREATED",
  "booking.cancelled": "CANCELLED",
  "booking.amended": "AMENDED",
};

export const vendorBAdapter: VendorAdapter = {
  vendor: VENDOR,

  tokenRequest: (credentials) =>
    clientCredentialsTokenRequest("/auth/token", credentials, "client_secret_basic"),

  searchRequest(request: HotelSearchRequest): WireRequest {
    return jsonRequest(
      "GET",
      withQuery("/api/v2/hotels/availability", {
        iata: request.airport,
        arrival: request.checkIn,
        departure: request.checkOut,
        rooms: request.rooms,
      }),
    );
  },

  offers(body: unknown, request: HotelSearchRequest): HotelOffer[] {
    const roomNights = request.rooms * nightsBetween(request.checkIn, request.checkOut);
    return objectsIn(body, "availability", "hotels", "hotel").map((hotel) => offer(hotel, roomNights));
  },

  bookRequest(request: BookingRequest): WireRequest {
    return jsonRequest("POST", "/api/v2/bookings", {
      rateKey: request.providerOfferId,
      rooms: request.rooms,
      holder: { names: request.guestNames },
      payment:
        request.payment.method === "CARD"
          ? {
              type: "CREDIT_CARD",
              cardNumber: request.payment.card.number,
              validUntil: request.payment.card.expiry,
            }
          : { type: "COMPANY_GUARANTEE" },
    });
  },

  cancelRequest: (reservationId) =>
    jsonRequest("POST", `/api/v2/bookings/${encodeURIComponent(reservationId)}/cancel`, {}),
  lookupRequest: (reservationId) =>
    jsonRequest("GET", `/api/v2/bookings/${encodeURIComponent(reservationId)}`),

  reservation: (body) => reservation(object(body, "booking")),

  reconcileRequest: (since) => jsonRequest("GET", withQuery("/api/v2/reconciliation", { from: since })),

  changes(body: unknown): ReservationChange[] {
    return objectsIn(body, "reconciliation", "events", "event").map((event) => ({
      kind: translated(textAt(event, "event"), CHANGE, "event"),
      at: textAt(event, "timestamp"),
      reservation: reservation(objectAt(event, "booking")),
    }));
  },

  errorCode: (body) => errorCodeAt(body, "fault", "faultCode"),
};

function offer(hotel: JsonObject, roomNights: number): HotelOffer {
  const providerHotelId = textAt(hotel, "code");
  const geo = objectAt(hotel, "geo");
  const address = objectAt(hotel, "address");
  const rate = objectAt(hotel, "rate");
  const chain = hotel.chain === null || hotel.chain === undefined ? null : objectAt(hotel, "chain");
  const stay = price(objectAt(rate, "price"));
  return {
    hotelUrn: hotelUrnFor(VENDOR, providerHotelId, null),
    provider: VENDOR,
    providerHotelId,
    providerOfferId: textAt(rate, "rateKey"),
    name: textAt(hotel, "name"),
    address: oneLineAddress({
      street: textAt(address, "street"),
      city: textAt(address, "town"),
      postalCode: textAt(address, "zip"),
      country: textAt(address, "country"),
    }),
    lat: numberAt(geo, "latitude"),
    lon: numberAt(geo, "longitude"),
    stars: optionalNumberAt(hotel, "category"),
    chainId: chain ? textAt(chain, "code") : null,
    amenities: normalizeAmenities(textsAt(hotel, "facilities")),
    // The price is for the whole stay and every room; the offer states one room for one night.
    nightlyRate: money(Math.round(stay.amountMinor / roomNights), stay.currency),
    roomsAvailable: numberAt(objectAt(hotel, "rooms"), "available"),
    payments: textsAt(rate, "paymentOptions").map((option) => translated(option, PAYMENT, "payment option")),
    isDirectContract: false,
  };
}

function reservation(booking: JsonObject): VendorReservation {
  const cancellation = objectAt(booking, "cancellation");
  const refundable = booleanAt(cancellation, "free");
  return {
    provider: VENDOR,
    reservationId: textAt(booking, "reference"),
    confirmationCode: textAt(booking, "confirmation"),
    status: translated(textAt(booking, "status"), STATUS, "booking status"),
    providerOfferId: textAt(booking, "rateKey"),
    providerHotelId: textAt(booking, "hotelCode"),
    checkIn: textAt(booking, "arrival"),
    checkOut: textAt(booking, "departure"),
    rooms: numberAt(booking, "rooms"),
    guestNames: textsAt(objectAt(booking, "holder"), "names"),
    payment: translated(textAt(booking, "payment"), PAYMENT, "payment"),
    total: price(objectAt(booking, "price")),
    refundable,
    cancellationDeadline: refundable ? optionalTextAt(cancellation, "until") : null,
    updatedAt: textAt(booking, "modified"),
  };
}

function price(value: JsonObject) {
  const amount = Number(textAt(value, "amount"));
  if (!Number.isFinite(amount)) throw new MalformedResponse("price.amount is not a decimal");
  return fromMajor(amount, textAt(value, "currency"));
}

function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.max(
    1,
    Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86_400_000),
  );
}
