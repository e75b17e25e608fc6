/**
 * "AeroRooms", a US wholesaler: JSON with camelCase fields, prices in USD major units, numeric
 * hotel ids, amenity codes in upper snake case, coordinates with 6 decimals, unrated hotels as
 * `starRating: 0`. It publishes the provider-independent property code. Client secret in the form body.
 */
import { jsonResponse } from "../../src/vendors/wire.js";
import type { CatalogAmenity, CatalogHotel } from "./catalog.js";
import { roundTo } from "./rounding.js";
import { hashString } from "../../src/domain/seeded-random.js";
import { SimulatedFailure } from "./simulated-failure.js";
import type { Payment, PricedOffer, ReservationChange, StoredReservation } from "./vendor-backend.js";
import {
  type ParsedRequest,
  type SimRoute,
  VendorSimulator,
  type VendorSimulatorOptions,
  field,
  since,
} from "./vendor-simulator.js";

const AMENITY_CODES: Record<CatalogAmenity, string> = {
  "24H_RECEPTION": "24_HOUR_FRONT_DESK",
  AIRPORT_SHUTTLE: "AIRPORT_SHUTTLE",
  WHEELCHAIR_ACCESSIBLE: "ADA_ACCESSIBLE",
  FREE_BREAKFAST: "BREAKFAST_INCLUDED",
  FREE_WIFI: "FREE_WIFI",
  PARKING: "SELF_PARKING",
  RESTAURANT: "ON_SITE_RESTAURANT",
  FITNESS_CENTER: "FITNESS_CENTER",
  POOL: "INDOOR_POOL",
  PET_FRIENDLY: "PETS_ALLOWED",
};

export class VendorA extends VendorSimulator {
  readonly tokenPath = "/oauth/token";
  protected readonly clientAuthentication = "client_secret_post";

  protected readonly routes: readonly SimRoute[] = [
    { method: "POST", pattern: /^\/v1\/availability$/, operation: "search", answer: (r) => this.search(r) },
    { method: "POST", pattern: /^\/v1\/bookings$/, operation: "book", answer: (r) => this.book(r) },
    {
      method: "GET",
      pattern: /^\/v1\/bookings\/changes$/,
      operation: "reconcile",
      answer: (r) => this.changes(r),
    },
    {
      method: "GET",
      pattern: /^\/v1\/bookings\/([^/]+)$/,
      operation: "lookup",
      answer: (_, [id]) => jsonResponse(200, { booking: this.booking(this.backend.lookup(id!)) }),
    },
    {
      method: "DELETE",
      pattern: /^\/v1\/bookings\/([^/]+)$/,
      operation: "cancel",
      answer: (_, [id]) => jsonResponse(200, { booking: this.booking(this.backend.cancel(id!)) }),
    },
  ];

  constructor(options: VendorSimulatorOptions) {
    super("vendor-a", { currency: "USD", perUsd: 1, markup: 1, nonRefundableShare: 0.2 }, "RA", options);
  }

  hotelId(hotel: CatalogHotel): string {
    return `${(hashString(`vendor-a|${hotel.key}`) % 90_000) + 10_000}${hotel.key.slice(-3)}`;
  }

  protected errorBody(code: string, message: string): unknown {
    return { error: { code, message } };
  }

  private search(request: ParsedRequest) {
    const rooms = field(request.json, "roomCount", "number");
    const offers = this.backend.search({
      airport: field(request.json, "airportCode", "string"),
      checkIn: field(request.json, "checkInDate", "string"),
      checkOut: field(request.json, "checkOutDate", "string"),
      rooms,
    });
    return jsonResponse(200, { results: offers.map((offer) => this.result(offer, rooms)) });
  }

  private result(offer: PricedOffer, rooms: number) {
    const { hotel } = offer;
    const stay = offer.nightlyRates.reduce((sum, rate) => sum + rate, 0);
    return {
      hotelId: this.hotelId(hotel),
      propertyCode: hotel.propertyCode,
      name: hotel.name,
      chainCode: hotel.chain?.chainId ?? null,
      starRating: hotel.stars ?? 0,
      location: { lat: roundTo(hotel.lat, 6), lon: roundTo(hotel.lon, 6) },
      address: {
        line1: hotel.address.line,
        city: hotel.address.city,
        postalCode: hotel.address.postalCode,
        countryCode: hotel.address.country,
      },
      amenityCodes: hotel.amenities.map((amenity) => AMENITY_CODES[amenity]),
      roomsLeft: offer.roomsAvailable,
      offer: {
        offerId: offer.offerId,
        currency: offer.currency,
        averageNightlyRate: roundTo(stay / offer.nightlyRates.length, 2),
        totalRate: roundTo(stay * rooms, 2),
        refundable: offer.refundable,
        cancelDeadline: offer.cancellationDeadline ?? null,
        paymentMethods: offer.payments,
      },
    };
  }

  private book(request: ParsedRequest) {
    const guests = request.json.guests;
    if (!Array.isArray(guests) || guests.some((g) => typeof g?.fullName !== "string")) {
      throw new SimulatedFailure(400, "INVALID_REQUEST", "guests must be a list of {fullName}");
    }
    const reservation = this.backend.book({
      offerId: field(request.json, "offerId", "string"),
      rooms: field(request.json, "roomCount", "number"),
      guestNames: guests.map((g: { fullName: string }) => g.fullName),
      payment: payment(field(request.json, "payment", "object")),
    });
    return jsonResponse(201, { booking: this.booking(reservation) });
  }

  private changes(request: ParsedRequest) {
    const changes = this.backend.changesSince(since(request.query.get("since")));
    return jsonResponse(200, {
      changes: changes.map((change: ReservationChange) => ({
        type: change.kind,
        occurredAt: new Date(change.at).toISOString(),
        booking: this.booking(change.reservation),
      })),
    });
  }

  private booking(reservation: StoredReservation) {
    return {
      bookingId: reservation.reservationId,
      confirmationNumber: reservation.confirmationCode,
      status: reservation.status,
      offerId: reservation.offerId,
      hotelId: this.hotelId(reservation.hotel),
      checkInDate: reservation.checkIn,
      checkOutDate: reservation.checkOut,
      roomCount: reservation.rooms,
      guests: reservation.guestNames.map((fullName) => ({ fullName })),
      paymentMethod: reservation.paymentType,
      currency: reservation.currency,
      totalRate: reservation.total,
      refundable: reservation.refundable,
      cancelDeadline: reservation.cancellationDeadline ?? null,
      updatedAt: new Date(reservation.updatedAt).toISOString(),
    };
  }
}

function payment(body: Record<string, unknown>): Payment {
  const method = field(body, "method", "string");
  if (method === "GUARANTEE") return { type: "GUARANTEE" };
  if (method !== "CARD")
    throw new SimulatedFailure(400, "INVALID_REQUEST", "payment.method must be GUARANTEE or CARD");
  const card = (body.card ?? {}) as Record<string, unknown>;
  return { type: "CARD", cardNumber: String(card.number ?? ""), expiry: String(card.expiry ?? "") };
}
