/**
 * Kipling Stays (vendor-c): snake_case JSON, GBP in minor units per night, ids like `c_9f3e2a01`,
 * stars as "4*" or "unrated", snake-case amenity words, 5-decimal coordinates, the property code
 * published, lower-case statuses and payment methods.
 */
import { normalizeAmenities } from "../domain/allocation/amenities.js";
import type { HotelOffer } from "../domain/allocation/offer.js";
import type { PaymentMethod } from "../domain/policy/policy.js";
import { money } from "../domain/money.js";
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

const VENDOR = "vendor-c";

const STATUS: Record<string, ReservationStatus> = { confirmed: "CONFIRMED", cancelled: "CANCELLED" };
const PAYMENT: Record<string, PaymentMethod> = { guarantee: "GUARANTEE", card: "CARD" };
const CHANGE: Record<string, ReservationChangeKind> = {
  created: "CREATED",
  cancelled: "CANCELLED",
  amended: "AMENDED",
};

export const vendorCAdapter: VendorAdapter = {
  vendor: VENDOR,

  tokenRequest: (credentials) =>
    clientCredentialsTokenRequest("/connect/token", credentials, "client_secret_post"),

  searchRequest(request: HotelSearchRequest): WireRequest {
    return jsonRequest("POST", "/rates/search", {
      airport_code: request.airport,
      check_in: request.checkIn,
      check_out: request.checkOut,
      room_count: request.rooms,
    });
  },

  offers(body: unknown): HotelOffer[] {
    return objectsIn(body, "search", "properties", "property").map(offer);
  },

  bookRequest(request: BookingRequest): WireRequest {
    return jsonRequest("POST", "/bookings", {
      rate_id: request.providerOfferId,
      room_count: request.rooms,
      guest_names: request.guestNames,
      ...(request.payment.method === "CARD"
        ? {
            payment_method: "card",
            card_number: request.payment.card.number,
            card_expiry: request.payment.card.expiry,
          }
        : { payment_method: "guarantee" }),
    });
  },

  cancelRequest: (reservationId) =>
    jsonRequest("POST", `/bookings/${encodeURIComponent(reservationId)}/cancellation`, {}),
  lookupRequest: (reservationId) => jsonRequest("GET", `/bookings/${encodeURIComponent(reservationId)}`),

  reservation: (body) => reservation(object(body, "booking")),

  reconcileRequest: (since) => jsonRequest("GET", withQuery("/bookings/changes", { updated_since: since })),

  changes(body: unknown): ReservationChange[] {
    return objectsIn(body, "changes", "changes", "change").map((change) => ({
      kind: translated(textAt(change, "change_type"), CHANGE, "change type"),
      at: textAt(change, "changed_at"),
      reservation: reservation(objectAt(change, "booking")),
    }));
  },

  errorCode: (body) => errorCodeAt(body, "error_code"),
};

function offer(property: JsonObject): HotelOffer {
  const providerHotelId = textAt(property, "property_id");
  const rate = objectAt(property, "rate");
  const nightly = listAt(rate, "nightly_minor").map((value) => {
    if (typeof value !== "number" || !Number.isSafeInteger(value))
      throw new MalformedResponse("nightly_minor");
    return value;
  });
  if (nightly.length === 0) throw new MalformedResponse("nightly_minor is empty");
  const [street = ""] = textsAt(property, "address_lines");
  return {
    hotelUrn: hotelUrnFor(VENDOR, providerHotelId, optionalTextAt(property, "property_code")),
    provider: VENDOR,
    providerHotelId,
    providerOfferId: textAt(rate, "rate_id"),
    name: textAt(property, "property_name"),
    address: oneLineAddress({
      street,
      city: textAt(property, "city"),
      postalCode: textAt(property, "postcode"),
      country: textAt(property, "country_code"),
    }),
    lat: numberAt(property, "latitude"),
    lon: numberAt(property, "longitude"),
    stars: stars(textAt(property, "star_rating")),
    chainId: optionalTextAt(property, "chain_id"),
    amenities: normalizeAmenities(textsAt(property, "amenities")),
    nightlyRate: money(
      Math.round(nightly.reduce((sum, value) => sum + value, 0) / nightly.length),
      textAt(rate, "currency"),
    ),
    roomsAvailable: numberAt(property, "rooms_available"),
    payments: booleanAt(rate, "guarantee_accepted") ? ["GUARANTEE", "CARD"] : ["CARD"],
    isDirectContract: false,
  };
}

/** "4*" is four stars; "unrated" (or anything else without a digit) is no rating. */
function stars(rating: string): number | null {
  const match = /^([1-5])\*$/.exec(rating);
  return match ? Number(match[1]) : null;
}

function reservation(booking: JsonObject): VendorReservation {
  return {
    provider: VENDOR,
    reservationId: textAt(booking, "booking_id"),
    confirmationCode: textAt(booking, "confirmation_code"),
    status: translated(textAt(booking, "status"), STATUS, "booking status"),
    providerOfferId: textAt(booking, "rate_id"),
    providerHotelId: textAt(booking, "property_id"),
    checkIn: textAt(booking, "check_in"),
    checkOut: textAt(booking, "check_out"),
    rooms: numberAt(booking, "room_count"),
    guestNames: textsAt(booking, "guest_names"),
    payment: translated(textAt(booking, "payment_method"), PAYMENT, "payment method"),
    total: money(numberAt(booking, "total_minor"), textAt(booking, "currency")),
    refundable: !booleanAt(booking, "non_refundable"),
    cancellationDeadline: optionalTextAt(booking, "free_cancellation_until"),
    updatedAt: textAt(booking, "updated_at"),
  };
}
