/**
 * Hotelnet Europa (vendor-b): query-string search, EUR decimal strings for the whole stay, codes
 * like `US-JFK-007-7F3A`, `geo: {latitude, longitude}` at 4 decimals (about 11 m, well inside
 * dedup's 100 m), amenity phrases, `category: null` for unrated, no property code, lower-case
 * statuses, HTTP Basic at the token endpoint.
 */
import { fromMajor, money } from "../domain/money.js";
import type { PaymentMethod } from "../domain/policy/policy.js";
import { type Words, shapedAdapter } from "./wire-shape.js";
import {
  type JsonObject,
  MalformedResponse,
  booleanAt,
  objectAt,
  optionalNumberAt,
  optionalTextAt,
  textAt,
  textsAt,
  translated,
} from "./wire-reader.js";

const PAYMENT: Words<PaymentMethod> = {
  name: "payment",
  meaning: { COMPANY_GUARANTEE: "GUARANTEE", CREDIT_CARD: "CARD" },
};

export const vendorBAdapter = shapedAdapter({
  vendor: "vendor-b",
  token: { path: "/auth/token", authentication: "client_secret_basic" },
  search: {
    method: "GET",
    path: "/api/v2/hotels/availability",
    stay: { airport: "iata", checkIn: "arrival", checkOut: "departure", rooms: "rooms" },
    results: { body: "availability", key: "hotels", entry: "hotel" },
    offer: {
      providerHotelId: "code",
      propertyCode: null,
      providerOfferId: ["rate", "rateKey"],
      name: "name",
      address: {
        street: ["address", "street"],
        city: ["address", "town"],
        postalCode: ["address", "zip"],
        country: ["address", "country"],
      },
      lat: ["geo", "latitude"],
      lon: ["geo", "longitude"],
      stars: (hotel) => optionalNumberAt(hotel, "category"),
      chainId: (hotel) =>
        hotel.chain === null || hotel.chain === undefined ? null : textAt(hotel, ["chain", "code"]),
      amenities: "facilities",
      // The price is for the whole stay and every room; the offer states one room for one night.
      nightlyRate(hotel, request) {
        const stay = price(objectAt(hotel, ["rate", "price"]));
        const roomNights = request.rooms * nightsBetween(request.checkIn, request.checkOut);
        return money(Math.round(stay.amountMinor / roomNights), stay.currency);
      },
      roomsAvailable: ["rooms", "available"],
      payments: (hotel) =>
        textsAt(hotel, ["rate", "paymentOptions"]).map((option) =>
          translated(option, PAYMENT.meaning, "payment option"),
        ),
    },
  },
  bookings: {
    path: "/api/v2/bookings",
    body: (request) => ({
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
    }),
    cancel: { method: "POST", path: "/cancel" },
    envelope: null,
    reference: "clientReference",
    reservation: {
      reservationId: "reference",
      confirmationCode: "confirmation",
      status: "status",
      statuses: { name: "booking status", meaning: { confirmed: "CONFIRMED", cancelled: "CANCELLED" } },
      providerOfferId: "rateKey",
      providerHotelId: "hotelCode",
      checkIn: "arrival",
      checkOut: "departure",
      rooms: "rooms",
      guestNames: ["holder", "names"],
      payment: "payment",
      payments: PAYMENT,
      total: (booking) => price(objectAt(booking, "price")),
      cancellation(booking) {
        const cancellation = objectAt(booking, "cancellation");
        const refundable = booleanAt(cancellation, "free");
        return {
          refundable,
          cancellationDeadline: refundable ? optionalTextAt(cancellation, "until") : null,
        };
      },
      updatedAt: "modified",
    },
  },
  changes: {
    path: "/api/v2/reconciliation",
    since: "from",
    list: { body: "reconciliation", key: "events", entry: "event" },
    kind: "event",
    kinds: {
      name: "event",
      meaning: {
        "booking.created": "CREATED",
        "booking.cancelled": "CANCELLED",
        "booking.amended": "AMENDED",
      },
    },
    at: "timestamp",
  },
  openBookings: {
    query: { referencePrefix: "clientReferenceStartsWith", checkOutFrom: "departureFrom" },
    list: "bookings",
  },
  errorCode: ["fault", "faultCode"],
});

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
