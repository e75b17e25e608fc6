/**
 * What the domain tests of booking share: one case, one wave, a group's plan, its booking as the
 * first claim makes it, and what a vendor confirms for it.
 */
import {
  type BookingPlan,
  type BookingRequest,
  type BookingRound,
  type BookingState,
  claimBooking,
  confirmBooking,
  type GroupBooking,
} from "../../src/domain/booking/group-booking.js";
import type { ConfirmedDraft } from "../../src/domain/booking/reservation-lifecycle.js";
import type { Incarnation } from "../../src/domain/incarnation.js";
import { money } from "../../src/domain/money.js";
import type { Reservation } from "../../src/domain/reservation.js";

export const CASE = { tenant: "urn:airline:ZX", caseUrn: "urn:case:c1", airport: "JFK" };
export const WAVE = "urn:wave:w1";
export const LEASE_MS = 60_000;
export const T0 = new Date("2026-11-21T12:00:00.000Z");
/** The process the tests claim from, unless they say otherwise. */
export const HOLDER: Incarnation = { node: "node-a", incarnation: 2 };

/** `ms` after T0. */
export function atMs(ms: number): Date {
  return new Date(T0.getTime() + ms);
}

export const plan: BookingPlan = {
  candidates: [{ hotelUrn: "urn:hotel:h1", vendor: "vendor-a", providerOfferId: "offer-1" }],
  checkIn: "2026-11-21",
  checkOut: "2026-11-22",
  rooms: 2,
};

/** The wave's request to book group G1 (or what `rest` changes). */
export function request(rest: Partial<BookingRequest> = {}): BookingRequest {
  return {
    key: `${WAVE}#G1`,
    waveUrn: WAVE,
    demandUrn: "urn:demand:d1",
    groupId: "G1",
    source: "wave",
    plan,
    requestedBy: "urn:user:operator",
    correlationUrn: "urn:trace:t1",
    ...rest,
  };
}

/** The booking as the first claim creates it at `now`, held with `token`. */
export function claimed(rest: Partial<BookingRequest> = {}, token = "token-1", now = T0): GroupBooking {
  const decision = claimBooking(
    undefined,
    request(rest),
    { token, leaseMs: LEASE_MS, holder: HOLDER, groupHoldsReservation: false },
    now,
  );
  if (!decision.granted) throw new Error(`claim refused: ${decision.reason}`);
  return decision.booking;
}

/** A booking of the group, unclaimed, in `state`. */
export function bookingIn(state: BookingState, rest: Partial<GroupBooking> = {}): GroupBooking {
  return { ...claimed({ groupId: rest.groupId ?? "G1" }), state, claim: null, ...rest };
}

/** A round of vendor calls under `token`: one hotel tried before, one offer gone stale. */
export function round(token = "token-1"): BookingRound {
  return {
    token,
    attemptedHotels: [
      { hotelUrn: "urn:hotel:h0", reason: "rate-not-available", providerError: "RATE_NOT_AVAILABLE" },
    ],
    staleOffers: ["vendor-b|offer-0"],
  };
}

export const draft: ConfirmedDraft = {
  vendor: "vendor-a",
  vendorReservationId: "VA-1",
  confirmationNumber: "CN-1",
  providerOfferId: "offer-1",
  hotel: { hotelUrn: "urn:hotel:h1", name: "Harbour Hotel", address: "1 Quay St", providerHotelId: "H1" },
  checkIn: plan.checkIn,
  checkOut: plan.checkOut,
  rooms: 2,
  cost: money(24_000, "USD"),
  allocatedCost: null,
  payment: "GUARANTEE",
  refundable: true,
  cancellationDeadline: null,
  replaces: null,
  vendorUpdatedAt: null,
  guests: [
    { passengerId: "p1", name: "Ada Lovelace" },
    { passengerId: "p2", name: "Alan Turing" },
  ],
};

/** The reservation the vendor confirmed for group G1's wave booking, at T0. */
export function confirmedReservation(rest: Partial<BookingRequest> = {}): Reservation {
  return confirmBooking(claimed(rest), CASE, { ...round(), draft, verificationCode: "ABCD2345" }, T0)
    .reservation;
}

/** A URN minting that shows the cause it was given, to pin what each review item is named by. */
export const causeUrn = (caseUrn: string, cause: string) => `urn:review-item:${caseUrn}|${cause}`;
