/**
 * "Hotelnet Europa", a European bed bank: prices in EUR as decimal strings for the whole stay,
 * hotel codes like `US-JFK-7F3A`, nested `geo: {latitude, longitude}` cut to 4 decimals, amenities
 * as English phrases ("facilities"), unrated hotels as `category: null`. No property code: its
 * hotels only match others by place or by name and address. HTTP Basic client authentication.
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

const PAYMENT: PaymentWording = {
  key: "type",
  label: "payment.type",
  words: { GUARANTEE: "COMPANY_GUARANTEE", CARD: "CREDIT_CARD" },
  card: (payment) => ({ number: payment.cardNumber, expiry: payment.validUntil }),
};

const API: SimulatedApi = {
  token: { path: "/auth/token", authentication: "client_secret_basic" },
  search: {
    method: "GET",
    path: "/api/v2/hotels/availability",
    stay: { airport: "iata", checkIn: "arrival", checkOut: "departure", rooms: "rooms" },
    results: "hotels",
  },
  bookings: {
    path: "/api/v2/bookings",
    cancel: { method: "POST", path: "/cancel" },
    envelope: null,
    reference: "clientReference",
  },
  openBookings: {
    query: { referencePrefix: "clientReferenceStartsWith", checkOutFrom: "departureFrom" },
    list: "bookings",
  },
  changes: {
    path: "/api/v2/reconciliation",
    since: "from",
    list: "events",
    kind: "event",
    at: "timestamp",
    word: (kind) => `booking.${kind.toLowerCase()}`,
  },
};

export class VendorB extends VendorSimulator {
  constructor(options: VendorSimulatorOptions) {
    super(
      "vendor-b",
      { currency: "EUR", perUsd: 0.92, markup: 1.04, nonRefundableShare: 0.3 },
      "BKG-",
      API,
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

  protected offer(offer: PricedOffer, rooms: number) {
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
        paymentOptions: offer.payments.map((type) => PAYMENT.words[type]),
      },
    };
  }

  protected order(body: Record<string, unknown>): BookingOrder {
    const holder = field(body, "holder", "object");
    return {
      offerId: field(body, "rateKey", "string"),
      rooms: field(body, "rooms", "number"),
      guestNames: stringList(holder, "names"),
      payment: payment(field(body, "payment", "object"), PAYMENT),
    };
  }

  protected booking(reservation: StoredReservation) {
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
      payment: PAYMENT.words[reservation.paymentType],
      price: { amount: reservation.total.toFixed(2), currency: reservation.currency },
      cancellation: reservation.refundable
        ? { free: true, until: reservation.cancellationDeadline }
        : { free: false },
      modified: new Date(reservation.updatedAt).toISOString(),
    };
  }
}
