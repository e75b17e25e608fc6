import { DomainError } from "../domain-error.js";
import { type Incarnation, isPredecessor } from "../incarnation.js";
import type { Money } from "../money.js";
import { BOOKING_SYSTEM_ACTOR, type BookingReviewCategory } from "../events/booking.js";
import {
  type AttemptedHotel,
  type Reservation,
  type ReservationSource,
  reservationIdFor,
} from "../reservation.js";
import type { OfferCandidate } from "./offer-candidate.js";
import { type ConfirmedDraft, createReservation } from "./reservation-lifecycle.js";

/**
 * A group booking: one request to book rooms for one passenger group (spec 1 step 5), and the
 * claim that lets one worker at a time book it. Vendor calls happen between turns: a worker claims
 * the booking, calls the vendors, then confirms, fails or defers it with the claim's token.
 *
 * States:
 *   BOOKING  a worker holds the claim and is calling the vendors
 *   PENDING  a candidate sat behind an open circuit and none took the group; it waits for a retry
 *   BOOKED   a vendor confirmed; the group's reservation exists
 *   FAILED   every candidate refused, the payment was refused, or the vendors stayed unavailable
 *            through every retry: an operator gets the group
 * BOOKED and FAILED are final: claiming again books nothing, so a request booked twice books once.
 *
 * Claims. A claim lasts a lease. Another caller is refused while it is live; once it has run out
 * (its worker died) the booking is taken over with the plan it was first given, as is a PENDING
 * one. A claim of a dead predecessor of the caller (an earlier incarnation of its own node: the
 * process it restarts) is taken over at once, lease or not. Only the token of the live claim
 * confirms, fails or defers.
 *
 * Attempts. The vendors get an idempotency key per attempt and offer (`vendorBookingKey`), so a
 * booking repeated within the attempt is answered the room booked first. A PENDING booking is
 * claimed again in the same attempt (its last holder settled its round and gives nothing back); a
 * claim taken over after its lease starts the next attempt, because its holder, if it still runs,
 * gives back what it booked once it finds the claim lost. A dead predecessor's claim is taken over in
 * its attempt: the predecessor gives nothing back, and what it booked before dying is answered
 * again rather than booked twice. A wave never books a group that
 * already holds a reservation (spec 3.1: later demand never replaces existing reservations);
 * overrides and re-bookings do, and replace it.
 */
export type BookingState = "BOOKING" | "PENDING" | "BOOKED" | "FAILED";

/** What to book for a group and where to try, fixed when the booking is first claimed. */
export interface BookingPlan {
  candidates: OfferCandidate[];
  checkIn: string;
  checkOut: string;
  rooms: number;
  /** What the allocation priced its own offer (the first candidate) at, in the policy's currency. */
  allocatedCost?: Money;
}

export interface BookingFailure {
  category: Exclude<BookingReviewCategory, "PARTIAL_FULFILLMENT">;
  reason: string;
  vendorErrorCode: string | null;
}

/** Who is booking right now, until when (epoch milliseconds). */
export interface BookingClaim {
  token: string;
  expiresAt: number;
  /** The process holding it; absent on claims made before holders were recorded. */
  holder?: Incarnation;
}

/**
 * One booking request for one group, keyed by what makes it unique: `<wave URN>#<group>` for a
 * wave (so booking a wave twice books nothing twice), `override:<event id>` and
 * `review:<event id>` for an override and a manual-review re-booking.
 */
export interface GroupBooking {
  key: string;
  waveUrn: string | null;
  demandUrn: string | null;
  groupId: string;
  source: Exclude<ReservationSource, "manual">;
  state: BookingState;
  plan: BookingPlan;
  /** Who is booking right now; a claim whose lease ran out (its worker died) may be taken over. */
  claim: BookingClaim | null;
  attemptedHotels: AttemptedHotel[];
  /** `vendor|offer id` of offers a vendor answered RATE_NOT_AVAILABLE for. */
  staleOffers: string[];
  /** Rounds that ended behind an open circuit. */
  retries: number;
  /** The attempt the vendors' idempotency keys belong to (see the header); absent before attempts were counted: 1. */
  attempt?: number;
  reservationId: string | null;
  failure: BookingFailure | null;
  /** The review item that asked for this booking (manual-review source). */
  reviewItemUrn: string | null;
  requestedBy: string;
  correlationUrn: string;
  createdAt: string;
  updatedAt: string;
}

export function waveBookingKey(waveUrn: string, groupId: string): string {
  return `${waveUrn}#${groupId}`;
}

/** What a caller asks to book; it becomes the booking when the group's first claim creates it. */
export interface BookingRequest {
  key: string;
  waveUrn: string | null;
  demandUrn: string | null;
  groupId: string;
  source: GroupBooking["source"];
  plan: BookingPlan;
  requestedBy: string;
  reviewItemUrn?: string;
  correlationUrn: string;
}

export interface ClaimTerms {
  token: string;
  leaseMs: number;
  /** The process claiming. */
  holder: Incarnation;
  /** The group holds a reservation now. */
  groupHoldsReservation: boolean;
}

export type ClaimRefusal = "booked" | "failed" | "in-progress" | "group-holds-reservation";

export type ClaimDecision =
  | { granted: true; booking: GroupBooking }
  | { granted: false; reason: ClaimRefusal };

/** Takes the booking for the caller, creating it on the group's first claim (see the header). */
export function claimBooking(
  existing: GroupBooking | undefined,
  request: BookingRequest,
  terms: ClaimTerms,
  now: Date,
): ClaimDecision {
  if (existing?.state === "BOOKED") return { granted: false, reason: "booked" };
  if (existing?.state === "FAILED") return { granted: false, reason: "failed" };
  const fromPredecessor = existing?.state === "BOOKING" && heldByPredecessor(existing, terms.holder);
  if (
    existing?.state === "BOOKING" &&
    existing.claim &&
    existing.claim.expiresAt > now.getTime() &&
    !fromPredecessor
  ) {
    return { granted: false, reason: "in-progress" };
  }
  if (request.source === "wave" && terms.groupHoldsReservation) {
    return { granted: false, reason: "group-holds-reservation" };
  }
  const claim: BookingClaim = {
    token: terms.token,
    expiresAt: now.getTime() + terms.leaseMs,
    holder: terms.holder,
  };
  const at = now.toISOString();
  if (existing) {
    const nextAttempt = existing.state === "BOOKING" && !fromPredecessor;
    const attempt = attemptOf(existing) + (nextAttempt ? 1 : 0);
    return { granted: true, booking: { ...existing, state: "BOOKING", claim, attempt, updatedAt: at } };
  }
  return {
    granted: true,
    booking: {
      key: request.key,
      waveUrn: request.waveUrn,
      demandUrn: request.demandUrn,
      groupId: request.groupId,
      source: request.source,
      state: "BOOKING",
      plan: request.plan,
      claim,
      attemptedHotels: [],
      staleOffers: [],
      retries: 0,
      attempt: 1,
      reservationId: null,
      failure: null,
      reviewItemUrn: request.reviewItemUrn ?? null,
      requestedBy: request.requestedBy,
      correlationUrn: request.correlationUrn,
      createdAt: at,
      updatedAt: at,
    },
  };
}

/** The booking's claim is held by a dead predecessor of `caller` (see `isPredecessor`). */
function heldByPredecessor(booking: GroupBooking, caller: Incarnation): boolean {
  const holder = booking.claim?.holder;
  return holder !== undefined && isPredecessor(holder, caller);
}

/** The attempt the booking's vendor calls belong to now. */
export function attemptOf(booking: Pick<GroupBooking, "attempt">): number {
  return booking.attempt ?? 1;
}

/** What one round of vendor calls under a claim found: the hotels tried and the offers gone stale. */
export interface BookingRound {
  token: string;
  attemptedHotels: AttemptedHotel[];
  staleOffers: string[];
}

/**
 * The booking, if `token` holds its live claim. A worker whose claim was taken over meanwhile gets
 * nothing: what it booked is not the group's, and it must cancel it.
 */
export function heldBy(booking: GroupBooking | undefined, token: string): GroupBooking | undefined {
  return booking?.state === "BOOKING" && booking.claim?.token === token ? booking : undefined;
}

/** What the vendor confirmed at the end of a round, and the code printed on the voucher. */
export interface Confirmation extends BookingRound {
  draft: ConfirmedDraft;
  verificationCode: string;
}

/**
 * The vendor confirmed: the booking ends BOOKED and its reservation exists, with its voucher. The
 * reservation id derives from the case, the booking and the vendor's reservation, so a replayed
 * confirmation lands on the same reservation. A wave's reservation is booked by the system; an
 * override's or a re-booking's by whoever asked for it.
 */
export function confirmBooking(
  booking: GroupBooking,
  bookingCase: Pick<Reservation, "tenant" | "caseUrn" | "airport">,
  confirmation: Confirmation,
  now: Date,
): { booking: GroupBooking; reservation: Reservation } {
  const booked = settledRound(booking, confirmation, "BOOKED", now);
  const { draft } = confirmation;
  const id = reservationIdFor(
    bookingCase.caseUrn,
    booking.key,
    draft.vendor,
    draft.vendorReservationId ?? "",
  );
  const reservation = createReservation(
    id,
    {
      tenant: bookingCase.tenant,
      caseUrn: bookingCase.caseUrn,
      airport: bookingCase.airport,
      groupId: booking.groupId,
      waveUrn: booking.waveUrn,
      demandUrn: booking.demandUrn,
      source: booking.source,
      attemptedHotels: confirmation.attemptedHotels,
      bookedBy: booking.source === "wave" ? BOOKING_SYSTEM_ACTOR : booking.requestedBy,
      reason: null,
    },
    draft,
    confirmation.verificationCode,
    now,
  );
  return { booking: { ...booked, reservationId: id }, reservation };
}

/** Every candidate refused (or the payment did): the booking ends FAILED and an operator gets it. */
export function markFailed(
  booking: GroupBooking,
  round: BookingRound,
  failure: BookingFailure,
  now: Date,
): GroupBooking {
  return { ...settledRound(booking, round, "FAILED", now), failure };
}

/**
 * Some candidate sat behind an open circuit and none took the group: the booking waits PENDING to
 * be tried again, unless that would make more than `maxRetries` rounds, when it fails for an
 * operator.
 */
export function deferBooking(
  booking: GroupBooking,
  round: BookingRound,
  maxRetries: number,
  now: Date,
): GroupBooking {
  if (booking.retries + 1 > maxRetries) {
    return markFailed(
      booking,
      round,
      {
        category: "BOOKING_FAILED",
        reason: `the vendors stayed unavailable through ${maxRetries} retries`,
        vendorErrorCode: null,
      },
      now,
    );
  }
  return { ...settledRound(booking, round, "PENDING", now), retries: booking.retries + 1 };
}

/** How many of these bookings stand in each state. */
export function countByState(bookings: readonly (GroupBooking | undefined)[]): Record<BookingState, number> {
  const counts: Record<BookingState, number> = { BOOKING: 0, PENDING: 0, BOOKED: 0, FAILED: 0 };
  for (const booking of bookings) if (booking) counts[booking.state]++;
  return counts;
}

/** Why a group of a wave holds no reservation, in an operator's words. */
export function whyNotBooked(booking: GroupBooking | undefined): string {
  if (!booking) return "not allocated";
  return booking.failure?.reason ?? booking.state.toLowerCase();
}

function settledRound(
  booking: GroupBooking,
  round: BookingRound,
  state: Exclude<BookingState, "BOOKING">,
  now: Date,
): GroupBooking {
  if (!heldBy(booking, round.token)) {
    throw new DomainError(
      "conflict",
      "booking-claim-lost",
      `The booking ${booking.key} is not claimed with this token`,
      { state: booking.state },
    );
  }
  return {
    ...booking,
    state,
    claim: null,
    attemptedHotels: round.attemptedHotels,
    staleOffers: round.staleOffers,
    updatedAt: now.toISOString(),
  };
}
