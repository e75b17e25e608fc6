/**
 * "Hotelnet Europa", a European bed bank: prices in EUR as decimal strings for the whole stay,
 * hotel codes like `US-JFK-7F3A`, nested `geo: {latitude, longitude}` cut to 4 decimals, amenities
 * as English phrases ("facilities"), unrated hotels as `category: null`. No property code: its
 * hotels only match others by place or by name and address. HTTP Basic client authentication.
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

const FACILITIES: Record<CatalogAmenity, string> = {
  "24H_RECEPTION": "Reception 24 hours",
  AIRPORT_SHUTTLE: "Airport transfer",
  WHEELCHAIR_ACCESSIBLE: "Facilities for disabled guests",
  FREE_BREAKFAST: "Free breakfast",
  FREE_WIFI: "Free Wi-Fi",
  PARKING: "Car park",
  RESTAURANT: "Restaurant",
  FITNESS_CENTER: "Gym",
  POOL: "Swimming pool",
  PET_FRIENDLY: "Pets allowed",
};

const PAYMENT_OPTION: Record<Payment["type"], string> = {
  GUARANTEE: "COMPANY_GUARANTEE",
  CARD: "CREDIT_CARD",
};

export class VendorB extends VendorSimulator {
  readonly tokenPath = "/auth/token";
  protected readonly clientAuthentication = "client_secret_basic";

  protected readonly routes: readonly SimRoute[] = [
    {
      method: "GET",
      pattern: /^\/api\/v2\/hotels\/availability$/,
      operation: "search",
      answer: (r) => this.search(r),
    },
    { method: "POST", pattern: /^\/api\/v2\/bookings$/, operation: "book", answer: (r) => this.book(r) },
    {
      method: "GET",
      pattern: /^\/api\/v2\/bookings\/([^/]+)$/,
      operation: "lookup",
      answer: (_, [reference]) => jsonResponse(200, this.booking(this.backend.lookup(reference!))),
    },
    {
      method: "POST",
      pattern: /^\/api\/v2\/bookings\/([^/]+)\/cancel$/,
      operation: "cancel",
      answer: (_, [reference]) => jsonResponse(200, this.booking(this.backend.cancel(reference!))),
    },
    {
      method: "GET",
      pattern: /^\/api\/v2\/reconciliation$/,
      operation: "reconcile",
      answer: (r) => this.reconciliation(r),
    },
  ];

  constructor(options: VendorSimulatorOptions) {
    super(
      "vendor-b",
      { currency: "EUR", perUsd: 0.92, markup: 1.04, nonRefundableShare: 0.3 },
      "BKG-",
      options,
    );
  }

  hotelId(hotel: CatalogHotel): string {
    const suffix = (hashString(`vendor-b|${hotel.key}`) & 0xffff).toString(16).toUpperCase().padStart(4, "0");
    return `${hotel.address.country}-${hotel.key}-${suffix}`;
  }

  protected errorBody(code: string, message: string): unknown {
    return { fault: { faultCode: code, description: message } };
  }

  private search(request: ParsedRequest) {
    const query = request.query;
    const rooms = Number(query.get("rooms"));
    const offers = this.backend.search({
      airport: query.get("iata") ?? "",
      checkIn: query.get("arrival") ?? "",
      checkOut: query.get("departure") ?? "",
      rooms,
    });
    return jsonResponse(200, { hotels: offers.map((offer) => this.hotel(offer, rooms)) });
  }

  private hotel(offer: PricedOffer, rooms: number) {
    const { hotel } = offer;
    const stay = offer.nightlyRates.reduce((sum, rate) => sum + rate, 0);
    return {
      code: this.hotelId(hotel),
      name: hotel.name,
      category: hotel.stars ?? null,
      chain: hotel.chain ? { code: hotel.chain.chainId, name: hotel.chain.name } : null,
      geo: { latitude: roundTo(hotel.lat, 4), longitude: roundTo(hotel.lon, 4) },
      address: {
        street: hotel.address.line,
        town: hotel.address.city,
        zip: hotel.address.postalCode,
        country: hotel.address.country,
      },
      facilities: hotel.amenities.map((amenity) => FACILITIES[amenity]),
      rooms: { available: offer.roomsAvailable },
      rate: {
        rateKey: offer.offerId,
        price: { amount: (stay * rooms).toFixed(2), currency: offer.currency },
        cancellation: offer.refundable ? { free: true, until: offer.cancellationDeadline } : { free: false },
        paymentOptions: offer.payments.map((type) => PAYMENT_OPTION[type]),
      },
    };
  }

  private book(request: ParsedRequest) {
    const holder = field(request.json, "holder", "object");
    const reservation = this.backend.book({
      offerId: field(request.json, "rateKey", "string"),
      rooms: field(request.json, "rooms", "number"),
      guestNames: stringList(holder, "names"),
      payment: payment(field(request.json, "payment", "object")),
    });
    return jsonResponse(201, this.booking(reservation));
  }

  private reconciliation(request: ParsedRequest) {
    const changes = this.backend.changesSince(since(request.query.get("from")));
    return jsonResponse(200, {
      events: changes.map((change) => ({
        event: `booking.${change.kind.toLowerCase()}`,
        timestamp: new Date(change.at).toISOString(),
        booking: this.booking(change.reservation),
      })),
    });
  }

  private booking(reservation: StoredReservation) {
    return {
      reference: reservation.reservationId,
      confirmation: reservation.confirmationCode,
      status: reservation.status.toLowerCase(),
      rateKey: reservation.offerId,
      hotelCode: this.hotelId(reservation.hotel),
      arrival: reservation.checkIn,
      departure: reservation.checkOut,
      rooms: reservation.rooms,
      holder: { names: reservation.guestNames },
      payment: PAYMENT_OPTION[reservation.paymentType],
      price: { amount: reservation.total.toFixed(2), currency: reservation.currency },
      cancellation: reservation.refundable
        ? { free: true, until: reservation.cancellationDeadline }
        : { free: false },
      modified: new Date(reservation.updatedAt).toISOString(),
    };
  }
}

function payment(body: Record<string, unknown>): Payment {
  const type = field(body, "type", "string");
  if (type === PAYMENT_OPTION.GUARANTEE) return { type: "GUARANTEE" };
  if (type !== PAYMENT_OPTION.CARD) {
    throw new SimulatedFailure(
      400,
      "INVALID_REQUEST",
      "payment.type must be COMPANY_GUARANTEE or CREDIT_CARD",
    );
  }
  return { type: "CARD", cardNumber: String(body.cardNumber ?? ""), expiry: String(body.validUntil ?? "") };
}
