/**
 * "Kipling Stays", a UK aggregator: snake_case JSON, prices in GBP minor units (pence) per night,
 * ids like `c_9f3e2a`, stars as strings ("4*", "unrated"), amenity words in snake case,
 * coordinates with 5 decimals. It publishes the provider-independent property code.
 */
import { jsonResponse } from "../../src/vendors/wire.js";
import type { CatalogAmenity, CatalogHotel } from "./catalog.js";
import { roundTo } from "./rounding.js";
import { hashString } from "../../src/domain/seeded-random.js";
import { SimulatedFailure } from "./simulated-failure.js";
import type { Payment, PricedOffer, StoredReservation } from "./vendor-backend.js";
import {
  type ParsedRequest,
  type SimRoute,
  VendorSimulator,
  type VendorSimulatorOptions,
  field,
  since,
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

export class VendorC extends VendorSimulator {
  readonly tokenPath = "/connect/token";
  protected readonly clientAuthentication = "client_secret_post";

  protected readonly routes: readonly SimRoute[] = [
    { method: "POST", pattern: /^\/rates\/search$/, operation: "search", answer: (r) => this.search(r) },
    { method: "POST", pattern: /^\/bookings$/, operation: "book", answer: (r) => this.book(r) },
    {
      method: "GET",
      pattern: /^\/bookings\/changes$/,
      operation: "reconcile",
      answer: (r) => this.changes(r),
    },
    {
      method: "GET",
      pattern: /^\/bookings\/([^/]+)$/,
      operation: "lookup",
      answer: (_, [id]) => jsonResponse(200, this.booking(this.backend.lookup(id!))),
    },
    {
      method: "POST",
      pattern: /^\/bookings\/([^/]+)\/cancellation$/,
      operation: "cancel",
      answer: (_, [id]) => jsonResponse(200, this.booking(this.backend.cancel(id!))),
    },
  ];

  constructor(options: VendorSimulatorOptions) {
    super(
      "vendor-c",
      { currency: "GBP", perUsd: 0.79, markup: 0.97, nonRefundableShare: 0.15 },
      "res_",
      options,
    );
  }

  hotelId(hotel: CatalogHotel): string {
    return `c_${hashString(`vendor-c|${hotel.key}`).toString(16).padStart(8, "0")}`;
  }

  protected errorBody(code: string, message: string): unknown {
    return { error_code: code, error_message: message };
  }

  private search(request: ParsedRequest) {
    const rooms = field(request.json, "room_count", "number");
    const offers = this.backend.search({
      airport: field(request.json, "airport_code", "string"),
      checkIn: field(request.json, "check_in", "string"),
      checkOut: field(request.json, "check_out", "string"),
      rooms,
    });
    return jsonResponse(200, { properties: offers.map((offer) => this.property(offer, rooms)) });
  }

  private property(offer: PricedOffer, rooms: number) {
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

  private book(request: ParsedRequest) {
    const reservation = this.backend.book({
      offerId: field(request.json, "rate_id", "string"),
      rooms: field(request.json, "room_count", "number"),
      guestNames: stringList(request.json, "guest_names"),
      payment: payment(request.json),
    });
    return jsonResponse(201, this.booking(reservation));
  }

  private changes(request: ParsedRequest) {
    const changes = this.backend.changesSince(since(request.query.get("updated_since")));
    return jsonResponse(200, {
      changes: changes.map((change) => ({
        change_type: change.kind.toLowerCase(),
        changed_at: new Date(change.at).toISOString(),
        booking: this.booking(change.reservation),
      })),
    });
  }

  private booking(reservation: StoredReservation) {
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

function payment(body: Record<string, unknown>): Payment {
  const method = field(body, "payment_method", "string");
  if (method === "guarantee") return { type: "GUARANTEE" };
  if (method !== "card")
    throw new SimulatedFailure(400, "INVALID_REQUEST", "payment_method must be guarantee or card");
  return { type: "CARD", cardNumber: String(body.card_number ?? ""), expiry: String(body.card_expiry ?? "") };
}
