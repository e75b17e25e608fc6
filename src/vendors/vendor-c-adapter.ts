/**
 * Kipling Stays (vendor-c): snake_case JSON, GBP in minor units per night, ids like `c_9f3e2a01`,
 * stars as "4*" or "unrated", snake-case amenity words, 5-decimal coordinates, the property code
 * published, lower-case statuses and payment methods.
 */
import { money } from "../domain/money.js";
import { shapedAdapter } from "./wire-shape.js";
import {
  MalformedResponse,
  booleanAt,
  listAt,
  numberAt,
  objectAt,
  optionalTextAt,
  textAt,
  textsAt,
} from "./wire-reader.js";

export const vendorCAdapter = shapedAdapter({
  vendor: "vendor-c",
  token: { path: "/connect/token", authentication: "client_secret_post" },
  search: {
    method: "POST",
    path: "/rates/search",
    stay: { airport: "airport_code", checkIn: "check_in", checkOut: "check_out", rooms: "room_count" },
    results: { body: "search", key: "properties", entry: "property" },
    offer: {
      providerHotelId: "property_id",
      propertyCode: "property_code",
      providerOfferId: ["rate", "rate_id"],
      name: "property_name",
      address: {
        street: (property) => textsAt(property, "address_lines")[0] ?? "",
        city: "city",
        postalCode: "postcode",
        country: "country_code",
      },
      lat: "latitude",
      lon: "longitude",
      stars: (property) => stars(textAt(property, "star_rating")),
      chainId: (property) => optionalTextAt(property, "chain_id"),
      amenities: "amenities",
      nightlyRate(property) {
        const rate = objectAt(property, "rate");
        const nightly = listAt(rate, "nightly_minor").map((value) => {
          if (typeof value !== "number" || !Number.isSafeInteger(value))
            throw new MalformedResponse("nightly_minor");
          return value;
        });
        if (nightly.length === 0) throw new MalformedResponse("nightly_minor is empty");
        return money(
          Math.round(nightly.reduce((sum, value) => sum + value, 0) / nightly.length),
          textAt(rate, "currency"),
        );
      },
      roomsAvailable: "rooms_available",
      payments: (property) =>
        booleanAt(property, ["rate", "guarantee_accepted"]) ? ["GUARANTEE", "CARD"] : ["CARD"],
    },
  },
  bookings: {
    path: "/bookings",
    body: (request) => ({
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
    }),
    cancel: { method: "POST", path: "/cancellation" },
    envelope: null,
    reference: "client_reference",
    reservation: {
      reservationId: "booking_id",
      confirmationCode: "confirmation_code",
      status: "status",
      statuses: { name: "booking status", meaning: { confirmed: "CONFIRMED", cancelled: "CANCELLED" } },
      providerOfferId: "rate_id",
      providerHotelId: "property_id",
      checkIn: "check_in",
      checkOut: "check_out",
      rooms: "room_count",
      guestNames: "guest_names",
      payment: "payment_method",
      payments: { name: "payment method", meaning: { guarantee: "GUARANTEE", card: "CARD" } },
      total: (booking) => money(numberAt(booking, "total_minor"), textAt(booking, "currency")),
      cancellation: (booking) => ({
        refundable: !booleanAt(booking, "non_refundable"),
        cancellationDeadline: optionalTextAt(booking, "free_cancellation_until"),
      }),
      updatedAt: "updated_at",
    },
  },
  changes: {
    path: "/bookings/changes",
    since: "updated_since",
    list: { body: "changes", key: "changes", entry: "change" },
    kind: "change_type",
    kinds: {
      name: "change type",
      meaning: { created: "CREATED", cancelled: "CANCELLED", amended: "AMENDED" },
    },
    at: "changed_at",
  },
  openBookings: {
    query: { referencePrefix: "client_reference_prefix", checkOutFrom: "check_out_from" },
    list: "bookings",
  },
  errorCode: ["error_code"],
});

/** "4*" is four stars; "unrated" (or anything else without a digit) is no rating. */
function stars(rating: string): number | null {
  const match = /^([1-5])\*$/.exec(rating);
  return match ? Number(match[1]) : null;
}
