/**
 * AeroRooms (vendor-a): camelCase JSON, USD major units, numeric hotel ids, upper-snake amenity
 * codes, 6-decimal coordinates, `starRating: 0` for unrated, the property code published.
 */
import { fromMajor } from "../domain/money.js";
import type { PaymentMethod } from "../domain/policy/policy.js";
import { type Words, shapedAdapter } from "./wire-shape.js";
import {
  booleanAt,
  listAt,
  numberAt,
  object,
  objectAt,
  optionalTextAt,
  textAt,
  textsAt,
  translated,
} from "./wire-reader.js";

const PAYMENT: Words<PaymentMethod> = {
  name: "payment method",
  meaning: { GUARANTEE: "GUARANTEE", CARD: "CARD" },
};

export const vendorAAdapter = shapedAdapter({
  vendor: "vendor-a",
  token: { path: "/oauth/token", authentication: "client_secret_post" },
  search: {
    method: "POST",
    path: "/v1/availability",
    stay: { airport: "airportCode", checkIn: "checkInDate", checkOut: "checkOutDate", rooms: "roomCount" },
    results: { body: "availability", key: "results", entry: "result" },
    offer: {
      providerHotelId: "hotelId",
      propertyCode: "propertyCode",
      providerOfferId: ["offer", "offerId"],
      name: "name",
      address: {
        street: ["address", "line1"],
        city: ["address", "city"],
        postalCode: ["address", "postalCode"],
        country: ["address", "countryCode"],
      },
      lat: ["location", "lat"],
      lon: ["location", "lon"],
      stars(result) {
        const stars = numberAt(result, "starRating");
        return stars === 0 ? null : stars;
      },
      chainId: (result) => optionalTextAt(result, "chainCode"),
      amenities: "amenityCodes",
      nightlyRate(result) {
        const rate = objectAt(result, "offer");
        return fromMajor(numberAt(rate, "averageNightlyRate"), textAt(rate, "currency"));
      },
      roomsAvailable: "roomsLeft",
      payments: (result) =>
        textsAt(result, ["offer", "paymentMethods"]).map((method) =>
          translated(method, PAYMENT.meaning, PAYMENT.name),
        ),
    },
  },
  bookings: {
    path: "/v1/bookings",
    body: (request) => ({
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
    }),
    cancel: { method: "DELETE" },
    envelope: "booking",
    reference: "clientReference",
    reservation: {
      reservationId: "bookingId",
      confirmationCode: "confirmationNumber",
      status: "status",
      statuses: { name: "booking status", meaning: { CONFIRMED: "CONFIRMED", CANCELLED: "CANCELLED" } },
      providerOfferId: "offerId",
      providerHotelId: "hotelId",
      checkIn: "checkInDate",
      checkOut: "checkOutDate",
      rooms: "roomCount",
      guestNames: (booking) =>
        listAt(booking, "guests").map((guest) => textAt(object(guest, "guest"), "fullName")),
      payment: "paymentMethod",
      payments: PAYMENT,
      total: (booking) => fromMajor(numberAt(booking, "totalRate"), textAt(booking, "currency")),
      cancellation: (booking) => ({
        refundable: booleanAt(booking, "refundable"),
        cancellationDeadline: optionalTextAt(booking, "cancelDeadline"),
      }),
      updatedAt: "updatedAt",
    },
  },
  changes: {
    path: "/v1/bookings/changes",
    since: "since",
    list: { body: "changes", key: "changes", entry: "change" },
    kind: "type",
    kinds: {
      name: "change type",
      meaning: { CREATED: "CREATED", CANCELLED: "CANCELLED", AMENDED: "AMENDED" },
    },
    at: "occurredAt",
  },
  openBookings: {
    query: { referencePrefix: "clientReferencePrefix", checkOutFrom: "checkOutFrom" },
    list: "bookings",
  },
  errorCode: ["error", "code"],
});
