/**
 * "AeroRooms", a US wholesaler: JSON with camelCase fields, prices in USD major units, numeric
 * hotel ids, amenity codes in upper snake case, coordinates with 6 decimals, unrated hotels as
 * `starRating: 0`. It publishes the provider-independent property code. Client secret in the form body.
 */
import type { CatalogAmenity, CatalogHotel } from "./catalog.js";
import { roundTo } from "./rounding.js";
import { hashString } from "../../src/domain/seeded-random.js";
import { SimulatedFailure } from "./simulated-failure.js";
import type { BookingOrder, PricedOffer, StoredReservation } from "./vendor-backend.js";
import {
  type PaymentWording,
  type SimulatedApi,
  VendorSimulator,
  type VendorSimulatorOptions,
  field,
  payment,
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

const PAYMENT: PaymentWording = {
  key: "method",
  label: "payment.method",
  words: { GUARANTEE: "GUARANTEE", CARD: "CARD" },
  card: (payment) => (payment.card ?? {}) as Record<string, unknown>,
};

const API: SimulatedApi = {
  token: { path: "/oauth/token", authentication: "client_secret_post" },
  search: {
    method: "POST",
    path: "/v1/availability",
    stay: { airport: "airportCode", checkIn: "checkInDate", checkOut: "checkOutDate", rooms: "roomCount" },
    results: "results",
  },
  bookings: {
    path: "/v1/bookings",
    cancel: { method: "DELETE" },
    envelope: "booking",
    reference: "clientReference",
  },
  openBookings: {
    query: { referencePrefix: "clientReferencePrefix", checkOutFrom: "checkOutFrom" },
    list: "bookings",
  },
  changes: {
    path: "/v1/bookings/changes",
    since: "since",
    list: "changes",
    kind: "type",
    at: "occurredAt",
    word: (kind) => kind,
  },
};

export class VendorA extends VendorSimulator {
  constructor(options: VendorSimulatorOptions) {
    super("vendor-a", { currency: "USD", perUsd: 1, markup: 1, nonRefundableShare: 0.2 }, "RA", API, options);
  }

  hotelId(hotel: CatalogHotel): string {
    return `${(hashString(`vendor-a|${hotel.key}`) % 90_000) + 10_000}${hotel.key.slice(-3)}`;
  }

  protected errorBody(code: string, message: string): unknown {
    return { error: { code, message } };
  }

  protected offer(offer: PricedOffer, rooms: number) {
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

  protected order(body: Record<string, unknown>): BookingOrder {
    const guests = body.guests;
    if (!Array.isArray(guests) || guests.some((g) => typeof g?.fullName !== "string")) {
      throw new SimulatedFailure(400, "INVALID_REQUEST", "guests must be a list of {fullName}");
    }
    return {
      offerId: field(body, "offerId", "string"),
      rooms: field(body, "roomCount", "number"),
      guestNames: guests.map((g: { fullName: string }) => g.fullName),
      payment: payment(field(body, "payment", "object"), PAYMENT),
    };
  }

  protected booking(reservation: StoredReservation) {
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
