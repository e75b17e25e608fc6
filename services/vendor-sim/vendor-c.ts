/**
 * "Kipling Stays", a UK aggregator: snake_case JSON, prices in GBP minor units (pence) per night,
 * ids like `c_9f3e2a`, stars as strings ("4*", "unrated"), amenity words in snake case,
 * coordinates with 5 decimals. It publishes the provider-independent property code.
 */
import type { CatalogAmenity, CatalogHotel } from "./catalog.js";
import { roundTo } from "./rounding.js";
import { hashString } from "../../src/domain/seeded-random.js";
import type { BookingOrder, PricedOffer, StoredReservation } from "./vendor-backend.js";
import {
  type PaymentWording,
  type SimulatedApi,
  VendorSimulator,
  type VendorSimulatorOptions,
  field,
  payment,
  stringList,
} from "./vendor-simulator.js";

const AMENITIES: Record<CatalogAmenity, string> = {
  "24H_RECEPTION": "front_desk_24h",
  AIRPORT_SHUTTLE: "airport_shuttle_service",
  WHEELCHAIR_ACCESSIBLE: "step_free_access",
  FREE_BREAKFAST: "complimentary_breakfast",
  FREE_WIFI: "wifi",
  PARKING: "parking",
  RESTAURANT: "restaurant",
  FITNESS_CENTER: "gym",
  POOL: "pool",
  PET_FRIENDLY: "pet_friendly",
};

const PAYMENT: PaymentWording = {
  key: "payment_method",
  label: "payment_method",
  words: { GUARANTEE: "guarantee", CARD: "card" },
  card: (body) => ({ number: body.card_number, expiry: body.card_expiry }),
};

const API: SimulatedApi = {
  token: { path: "/connect/token", authentication: "client_secret_post" },
  search: {
    method: "POST",
    path: "/rates/search",
    stay: { airport: "airport_code", checkIn: "check_in", checkOut: "check_out", rooms: "room_count" },
    results: "properties",
  },
  bookings: {
    path: "/bookings",
    cancel: { method: "POST", path: "/cancellation" },
    envelope: null,
    reference: "client_reference",
  },
  openBookings: {
    query: { referencePrefix: "client_reference_prefix", checkOutFrom: "check_out_from" },
    list: "bookings",
  },
  changes: {
    path: "/bookings/changes",
    since: "updated_since",
    list: "changes",
    kind: "change_type",
    at: "changed_at",
    word: (kind) => kind.toLowerCase(),
  },
};

export class VendorC extends VendorSimulator {
  constructor(options: VendorSimulatorOptions) {
    super(
      "vendor-c",
      { currency: "GBP", perUsd: 0.79, markup: 0.97, nonRefundableShare: 0.15 },
      "res_",
      API,
      options,
    );
  }

  hotelId(hotel: CatalogHotel): string {
    return `c_${hashString(`vendor-c|${hotel.key}`).toString(16).padStart(8, "0")}`;
  }

  protected errorBody(code: string, message: string): unknown {
    return { error_code: code, error_message: message };
  }

  protected offer(offer: PricedOffer, rooms: number) {
    const { hotel } = offer;
    const nightlyMinor = offer.nightlyRates.map((rate) => Math.round(rate * 100));
    return {
      property_id: this.hotelId(hotel),
      property_code: hotel.propertyCode,
      property_name: hotel.name,
      chain_id: hotel.chain?.chainId ?? null,
      star_rating: hotel.stars ? `${hotel.stars}*` : "unrated",
      latitude: roundTo(hotel.lat, 5),
      longitude: roundTo(hotel.lon, 5),
      address_lines: [hotel.address.line],
      city: hotel.address.city,
      postcode: hotel.address.postalCode,
      country_code: hotel.address.country,
      amenities: hotel.amenities.map((amenity) => AMENITIES[amenity]),
      rooms_available: offer.roomsAvailable,
      rate: {
        rate_id: offer.offerId,
        currency: offer.currency,
        nightly_minor: nightlyMinor,
        total_minor: nightlyMinor.reduce((sum, rate) => sum + rate, 0) * rooms,
        non_refundable: !offer.refundable,
        free_cancellation_until: offer.cancellationDeadline ?? null,
        guarantee_accepted: offer.payments.includes("GUARANTEE"),
      },
    };
  }

  protected order(body: Record<string, unknown>): BookingOrder {
    return {
      offerId: field(body, "rate_id", "string"),
      rooms: field(body, "room_count", "number"),
      guestNames: stringList(body, "guest_names"),
      payment: payment(body, PAYMENT),
    };
  }

  protected booking(reservation: StoredReservation) {
    return {
      booking_id: reservation.reservationId,
      confirmation_code: reservation.confirmationCode,
      status: reservation.status.toLowerCase(),
      rate_id: reservation.offerId,
      property_id: this.hotelId(reservation.hotel),
      check_in: reservation.checkIn,
      check_out: reservation.checkOut,
      room_count: reservation.rooms,
      guest_names: reservation.guestNames,
      payment_method: reservation.paymentType.toLowerCase(),
      currency: reservation.currency,
      total_minor: Math.round(reservation.total * 100),
      non_refundable: !reservation.refundable,
      free_cancellation_until: reservation.cancellationDeadline ?? null,
      updated_at: new Date(reservation.updatedAt).toISOString(),
    };
  }
}
