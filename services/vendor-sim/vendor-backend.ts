/**
 * A vendor's business behind its API, in vendor-neutral terms: priced offers from its allotment,
 * reservations that take rooms and give them back, cancellation rules, and the change log its
 * reconciliation interface lists. Each simulator renders this in its own wire shape.
 */
import type { Clock } from "../../src/runtime/clock.js";
import type { CatalogHotel, HotelCatalog, SimulatedVendorId } from "./catalog.js";
import { RoomInventory, nightsOf } from "./room-inventory.js";
import { hashString, hashUnit } from "../../src/domain/seeded-random.js";
import { SimulatedFailure } from "./simulated-failure.js";

export interface Pricing {
  /** ISO 4217 code the vendor sells in. */
  currency: string;
  /** Units of `currency` per US dollar. */
  perUsd: number;
  /** The vendor's margin over the hotel's base rate. */
  markup: number;
  /** Share of hotels this vendor sells only non-refundable. */
  nonRefundableShare: number;
}

export interface StaySearch {
  airport: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
}

export interface PricedOffer {
  offerId: string;
  hotel: CatalogHotel;
  checkIn: string;
  checkOut: string;
  currency: string;
  /** Per room, one per night, in major units with two decimals. */
  nightlyRates: number[];
  refundable: boolean;
  /** ISO timestamp until which a cancellation is free; absent when non-refundable. */
  cancellationDeadline?: string;
  /** How the hotel lets this rate be paid. */
  payments: Array<Payment["type"]>;
  roomsAvailable: number;
}

export type Payment = { type: "GUARANTEE" } | { type: "CARD"; cardNumber: string; expiry: string };

export interface BookingOrder {
  offerId: string;
  rooms: number;
  guestNames: string[];
  payment: Payment;
  /** The client's own reference for the booking, kept and listed back (`openBookings`). */
  clientReference?: string;
}

/** Who booked: the API client, as its access token names it. */
export type BookingClient = string;

export type ReservationStatus = "CONFIRMED" | "CANCELLED";

export interface StoredReservation {
  reservationId: string;
  confirmationCode: string;
  offerId: string;
  hotel: CatalogHotel;
  checkIn: string;
  checkOut: string;
  rooms: number;
  guestNames: string[];
  paymentType: Payment["type"];
  currency: string;
  total: number;
  refundable: boolean;
  cancellationDeadline?: string;
  status: ReservationStatus;
  /** The API client that booked it, and the reference it gave. */
  client: BookingClient;
  clientReference: string | null;
  createdAt: number;
  updatedAt: number;
}

export type ChangeKind = "CREATED" | "CANCELLED" | "AMENDED";

export interface ReservationChange {
  kind: ChangeKind;
  at: number;
  reservation: StoredReservation;
}

export interface BackendOptions {
  vendor: SimulatedVendorId;
  catalog: HotelCatalog;
  clock: Clock;
  pricing: Pricing;
  /** Prefix of this vendor's reservation ids. */
  reservationPrefix: string;
  /** Overrides every hotel's rooms per night (tests use small numbers to reach "full"). */
  roomsPerNight?: number;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What an idempotency key answered first, and the request it came with. */
interface KeyedAnswer {
  request: string;
  answer: StoredReservation;
}

export class VendorBackend {
  readonly inventory: RoomInventory;
  private readonly offers = new Map<string, PricedOffer>();
  private readonly reservations = new Map<string, StoredReservation>();
  private readonly changes: ReservationChange[] = [];
  /** By the client's idempotency key (scoped to the client by the caller). */
  private readonly keyed = new Map<string, KeyedAnswer>();
  private sequence = 0;

  constructor(private readonly options: BackendOptions) {
    this.inventory = new RoomInventory(options.roomsPerNight);
  }

  search(query: StaySearch): PricedOffer[] {
    const nights = stayNights(query.checkIn, query.checkOut);
    if (!Number.isInteger(query.rooms) || query.rooms < 1) invalid("rooms must be a positive integer");
    const offers: PricedOffer[] = [];
    for (const hotel of this.options.catalog.atAirport(query.airport)) {
      if (!hotel.vendors.includes(this.options.vendor)) continue;
      const roomsAvailable = this.inventory.available(hotel, nights);
      if (roomsAvailable < query.rooms) continue;
      const offer = this.price(hotel, query.checkIn, query.checkOut, nights, roomsAvailable);
      this.offers.set(offer.offerId, offer);
      offers.push(offer);
    }
    return offers;
  }

  /**
   * Books, once per idempotency key: the same key answers the first booking again and takes no
   * other room; the same key with another order is refused (422 IDEMPOTENCY_KEY_REUSED). A refused
   * booking is not remembered, so the key may be tried again.
   */
  book(order: BookingOrder, client: BookingClient, idempotencyKey?: string): StoredReservation {
    return this.once(idempotencyKey, `book ${JSON.stringify(order)}`, () => this.bookOnce(order, client));
  }

  private bookOnce(order: BookingOrder, client: BookingClient): StoredReservation {
    if (!Number.isInteger(order.rooms) || order.rooms < 1) invalid("rooms must be a positive integer");
    if (order.guestNames.length === 0) invalid("at least one guest name is required");
    const offer = this.offers.get(order.offerId);
    if (!offer) throw new SimulatedFailure(409, "RATE_NOT_AVAILABLE", "The rate is no longer offered");
    if (!offer.payments.includes(order.payment.type)) {
      throw new SimulatedFailure(
        402,
        "INVALID_PAYMENT_INFO",
        `This rate cannot be paid by ${order.payment.type}`,
      );
    }
    this.checkPayment(order.payment);
    const nights = nightsOf(offer.checkIn, offer.checkOut);
    if (!this.inventory.reserve(offer.hotel, nights, order.rooms)) {
      throw new SimulatedFailure(409, "RATE_NOT_AVAILABLE", "Not enough rooms left at this rate");
    }
    const now = this.options.clock.now();
    this.sequence++;
    const reservation: StoredReservation = {
      reservationId: `${this.options.reservationPrefix}${String(this.sequence).padStart(6, "0")}`,
      confirmationCode: hashString(`${this.options.vendor}|${this.sequence}|${offer.offerId}`)
        .toString(36)
        .toUpperCase()
        .padStart(7, "0"),
      offerId: offer.offerId,
      hotel: offer.hotel,
      checkIn: offer.checkIn,
      checkOut: offer.checkOut,
      rooms: order.rooms,
      guestNames: [...order.guestNames],
      paymentType: order.payment.type,
      currency: offer.currency,
      total: money(offer.nightlyRates.reduce((sum, rate) => sum + rate, 0) * order.rooms),
      refundable: offer.refundable,
      ...(offer.cancellationDeadline ? { cancellationDeadline: offer.cancellationDeadline } : {}),
      status: "CONFIRMED",
      client,
      clientReference: order.clientReference ?? null,
      createdAt: now,
      updatedAt: now,
    };
    this.reservations.set(reservation.reservationId, reservation);
    this.record("CREATED", reservation);
    return reservation;
  }

  /** Cancelling twice answers the cancelled reservation again; an idempotency key is honoured as for a booking. */
  cancel(reservationId: string, idempotencyKey?: string): StoredReservation {
    return this.once(idempotencyKey, `cancel ${reservationId}`, () => this.cancelOnce(reservationId));
  }

  private cancelOnce(reservationId: string): StoredReservation {
    const reservation = this.lookup(reservationId);
    if (reservation.status === "CANCELLED") return reservation;
    if (!reservation.refundable) {
      throw new SimulatedFailure(
        409,
        "NON_REFUNDABLE",
        "The reservation was booked at a non-refundable rate",
      );
    }
    if (
      reservation.cancellationDeadline &&
      this.options.clock.now() > Date.parse(reservation.cancellationDeadline)
    ) {
      throw new SimulatedFailure(
        409,
        "BOOKING_PAST_CANCELLATION_DEADLINE",
        `Free cancellation ended at ${reservation.cancellationDeadline}`,
      );
    }
    return this.release(reservation);
  }

  lookup(reservationId: string): StoredReservation {
    const reservation = this.reservations.get(reservationId);
    if (!reservation)
      throw new SimulatedFailure(404, "RESERVATION_NOT_FOUND", `No reservation ${reservationId}`);
    return reservation;
  }

  /**
   * The client's confirmed bookings whose reference starts with `referencePrefix` and whose stay
   * checks out on `checkOutFrom` (YYYY-MM-DD) or later, oldest first.
   */
  openBookings(client: BookingClient, referencePrefix: string, checkOutFrom: string): StoredReservation[] {
    if (!ISO_DATE.test(checkOutFrom)) invalid("the check-out date must be YYYY-MM-DD");
    return [...this.reservations.values()].filter(
      (r) =>
        r.client === client &&
        r.status === "CONFIRMED" &&
        r.clientReference?.startsWith(referencePrefix) === true &&
        r.checkOut >= checkOutFrom,
    );
  }

  /** Changes recorded strictly after `since` (epoch ms), oldest first. */
  changesSince(since: number): ReservationChange[] {
    return this.changes.filter((change) => change.at > since);
  }

  /** The hotel cancels on its side (overbooking, closure); only reconciliation tells the service. */
  cancelByHotel(reservationId: string): StoredReservation {
    const reservation = this.lookup(reservationId);
    return reservation.status === "CANCELLED" ? reservation : this.release(reservation);
  }

  /** The hotel moves the check-out date; rooms follow the new nights. */
  amendCheckOut(reservationId: string, checkOut: string): StoredReservation {
    const reservation = this.lookup(reservationId);
    const before = nightsOf(reservation.checkIn, reservation.checkOut);
    const after = stayNights(reservation.checkIn, checkOut);
    this.inventory.release(reservation.hotel, before, reservation.rooms);
    if (!this.inventory.reserve(reservation.hotel, after, reservation.rooms)) {
      this.inventory.reserve(reservation.hotel, before, reservation.rooms);
      throw new SimulatedFailure(409, "RATE_NOT_AVAILABLE", "No rooms for the amended stay");
    }
    const nightly = reservation.total / reservation.rooms / before.length;
    reservation.checkOut = checkOut;
    reservation.total = money(nightly * after.length * reservation.rooms);
    reservation.updatedAt = this.options.clock.now();
    this.record("AMENDED", reservation);
    return reservation;
  }

  private once(key: string | undefined, request: string, act: () => StoredReservation): StoredReservation {
    if (key === undefined) return act();
    const first = this.keyed.get(key);
    if (first && first.request !== request) {
      throw new SimulatedFailure(
        422,
        "IDEMPOTENCY_KEY_REUSED",
        "This idempotency key was used with another request",
      );
    }
    if (first) return { ...first.answer };
    const answer = act();
    this.keyed.set(key, { request, answer: { ...answer } });
    return answer;
  }

  private release(reservation: StoredReservation): StoredReservation {
    this.inventory.release(
      reservation.hotel,
      nightsOf(reservation.checkIn, reservation.checkOut),
      reservation.rooms,
    );
    reservation.status = "CANCELLED";
    reservation.updatedAt = this.options.clock.now();
    this.record("CANCELLED", reservation);
    return reservation;
  }

  private record(kind: ChangeKind, reservation: StoredReservation): void {
    this.changes.push({ kind, at: this.options.clock.now(), reservation: { ...reservation } });
  }

  /** Prices and rate plans come from hashes, so the same search gives the same offers in any order. */
  private price(
    hotel: CatalogHotel,
    checkIn: string,
    checkOut: string,
    nights: readonly string[],
    roomsAvailable: number,
  ): PricedOffer {
    const { vendor, pricing } = this.options;
    const nightlyRates = nights.map((night) =>
      money(
        hotel.baseRateUsd *
          pricing.markup *
          pricing.perUsd *
          (0.85 + 0.3 * hashUnit(vendor, hotel.key, night)),
      ),
    );
    const refundable = hashUnit(vendor, hotel.key, "rate-plan") >= pricing.nonRefundableShare;
    return {
      offerId: hashString(`${vendor}|${hotel.key}|${checkIn}|${checkOut}`).toString(36).toUpperCase(),
      hotel,
      checkIn,
      checkOut,
      currency: pricing.currency,
      nightlyRates,
      refundable,
      // Free cancellation until the evening of arrival, when a stranded passenger has settled in.
      ...(refundable ? { cancellationDeadline: `${checkIn}T18:00:00.000Z` } : {}),
      // Some hotels take no guarantee from an unknown payer, only a card.
      payments: hashUnit(vendor, hotel.key, "payments") < 0.15 ? ["CARD"] : ["GUARANTEE", "CARD"],
      roomsAvailable,
    };
  }

  private checkPayment(payment: Payment): void {
    if (payment.type === "GUARANTEE") return;
    const digits = payment.cardNumber.replace(/\s/g, "");
    const [year, month] = /^\d{4}-\d{2}$/.test(payment.expiry) ? payment.expiry.split("-").map(Number) : [];
    // A card is good through the last day of its expiry month.
    const validUntil = year && month ? Date.UTC(year, month, 1) : Number.NaN;
    const expired = !(validUntil > this.options.clock.now());
    if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits) || expired) {
      throw new SimulatedFailure(
        402,
        "INVALID_PAYMENT_INFO",
        "The card was declined: number or expiry invalid",
      );
    }
  }
}

function stayNights(checkIn: string, checkOut: string): string[] {
  if (!ISO_DATE.test(checkIn) || !ISO_DATE.test(checkOut)) invalid("dates must be YYYY-MM-DD");
  const nights = nightsOf(checkIn, checkOut);
  if (nights.length === 0) invalid("check-out must be after check-in");
  return nights;
}

function invalid(message: string): never {
  throw new SimulatedFailure(400, "INVALID_REQUEST", message);
}

function money(amount: number): number {
  return Math.round(amount * 100) / 100;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
