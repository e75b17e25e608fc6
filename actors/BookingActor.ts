import { createHash, randomUUID } from "node:crypto";
import type { OfferCandidate } from "../src/app/booking/booking-candidates.js";
import {
  BOOKING_EVENTS,
  BOOKING_SYSTEM_ACTOR,
  type BookingReviewCategory,
  type GroupBookingAnswer,
  type ReservationEventData,
  type ReviewItemRequestedData,
  type VoucherIssuedData,
  type WaveOutcome,
  type WaveSettledData,
} from "../src/domain/events/booking.js";
import { DomainError } from "../src/domain/domain-error.js";
import {
  type AttemptedHotel,
  applyVendorView,
  HOLDING_STATUSES,
  type Reservation,
  type ReservationSource,
  reservationIdFor,
  reservationUrn,
  type VendorView,
  voucherUrnFor,
} from "../src/domain/reservation.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** The case a command concerns; the first command of a case opens its ledger with it. */
export interface CaseRef {
  tenant: string;
  caseUrn: string;
  airport: string;
}

/** What to book for a group and where to try, fixed when the booking is first claimed. */
export interface BookingPlan {
  candidates: OfferCandidate[];
  checkIn: string;
  checkOut: string;
  rooms: number;
}

export type BookingState = "BOOKING" | "PENDING" | "BOOKED" | "FAILED";

export interface BookingFailure {
  category: Exclude<BookingReviewCategory, "PARTIAL_FULFILLMENT">;
  reason: string;
  vendorErrorCode: string | null;
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
  claim: { token: string; expiresAt: number } | null;
  attemptedHotels: AttemptedHotel[];
  /** `vendor|offer id` of offers a vendor answered RATE_NOT_AVAILABLE for. */
  staleOffers: string[];
  /** Rounds that ended behind an open circuit. */
  retries: number;
  reservationId: string | null;
  failure: BookingFailure | null;
  /** The review item that asked for this booking (manual-review source). */
  reviewItemUrn: string | null;
  requestedBy: string;
  correlationUrn: string;
  createdAt: string;
  updatedAt: string;
}

export interface WaveSettlement {
  waveUrn: string;
  demandUrn: string | null;
  outcome: WaveOutcome;
  roomsBooked: number;
  reviewItemUrns: string[];
  settledAt: string;
}

/** The case the actor books for, and its turn counter. */
interface BookingCase extends CaseRef {
  /** Bumped by every turn that changes something; the reservation index only moves forward. */
  revision: number;
}

/** What the actor holds for one group, in the order it was made. */
interface GroupEntries {
  bookingKeys: string[];
  reservationIds: string[];
}

/** The bookings and reservations of some of the case's groups, as of `revision`. */
export interface BookingLedger {
  revision: number;
  bookings: Record<string, GroupBooking>;
  reservations: Record<string, Reservation>;
}

/** What a turn hands back for the reservation index: the reservations it changed or concerned. */
export interface BookingTurn {
  revision: number;
  reservations: Reservation[];
}

export interface ClaimArgs {
  case: CaseRef;
  key: string;
  waveUrn: string | null;
  demandUrn: string | null;
  groupId: string;
  source: GroupBooking["source"];
  plan: BookingPlan;
  requestedBy: string;
  reviewItemUrn?: string;
  leaseMs: number;
  correlationUrn: string;
}

export type ClaimResult =
  | { granted: true; token: string; booking: GroupBooking }
  | { granted: false; reason: "booked" | "failed" | "in-progress" | "group-holds-reservation" };

interface ClaimedTurn {
  key: string;
  token: string;
  attemptedHotels: AttemptedHotel[];
  staleOffers: string[];
  correlationUrn: string;
}

/** The reservation as the vendor confirmed it, with what booking knows about the hotel. */
export type ConfirmedDraft = Omit<
  Reservation,
  | "id"
  | "urn"
  | "tenant"
  | "caseUrn"
  | "airport"
  | "groupId"
  | "waveUrn"
  | "demandUrn"
  | "status"
  | "source"
  | "attemptedHotels"
  | "voucher"
  | "bookedBy"
  | "reason"
  | "createdAt"
  | "updatedAt"
>;

export interface ConfirmArgs extends ClaimedTurn {
  draft: ConfirmedDraft;
  verificationCode: string;
}

export interface ConfirmResult extends BookingTurn {
  /** False when the claim was lost meanwhile: the caller must cancel what it booked. */
  accepted: boolean;
  reservation?: Reservation;
}

export interface FailArgs extends ClaimedTurn {
  failure: BookingFailure;
}

export interface DeferArgs extends ClaimedTurn {
  retryInMs: number;
  /** Rounds behind an open circuit after which the group is given to an operator. */
  maxRetries: number;
}

export interface SettleArgs {
  waveUrn: string;
  demandUrn: string | null;
  /** Groups the wave allocated, and those it could not, with the rooms each needs. */
  allocated: { groupId: string; rooms: number }[];
  unallocated: { groupId: string; rooms: number }[];
  correlationUrn: string;
}

export interface SettleResult {
  settled: boolean;
  settlement?: WaveSettlement;
}

export interface ManualReservationArgs {
  case: CaseRef;
  groupId: string;
  waveUrn: string | null;
  demandUrn: string | null;
  hotel: Reservation["hotel"];
  confirmationNumber: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
  guests: Reservation["guests"];
  cost: Reservation["cost"];
  reason: string;
  bookedBy: string;
  /** Makes the reservation id unique per request. */
  requestId: string;
  verificationCode: string;
  correlationUrn: string;
}

export interface CancelArgs {
  reservationId: string;
  by: string;
  reason: string;
  correlationUrn: string;
}

export interface VendorChangeArgs {
  reservationId: string;
  view: VendorView;
  correlationUrn: string;
}

export interface VendorChangeResult extends BookingTurn {
  changed: boolean;
}

/**
 * One state key per booking, reservation, group and wave settlement, beside the case: a turn reads
 * and writes only the entries it concerns, so its cost does not grow with the case's other groups.
 * The Dapr SDK puts a state key unescaped in the URL path of the actor state API, where the `#` of a
 * wave booking key cuts it short and a `/` splits it: booking keys, group ids and wave URNs are
 * named by digest (reservation ids are plain hex already).
 */
const KEYS = {
  case: "case",
  /** Booking keys of the PENDING bookings, for the retry reminder. */
  pending: "pending",
  booking: (key: string) => `booking:${digest(key)}`,
  reservation: (id: string) => `reservation:${id}`,
  group: (groupId: string) => `group:${digest(groupId)}`,
  settlement: (waveUrn: string) => `settlement:${digest(waveUrn)}`,
};
const RETRY_REMINDER = "retry-pending";

/**
 * The bookings of one case (actor id = case id), one turn at a time: claims keep two workers from
 * booking the same group, each wave group is booked once, reservations and their vouchers are
 * minted here, and a wave settles once every allocated group is booked or failed. Vendor calls
 * happen outside, between turns (an actor turn holds no I/O but its own state): the flow claims a
 * group, calls the vendor, then confirms, fails or defers the claim.
 *
 * Events (outbox): reservation.confirmed, voucher.issued, reservation.cancelled, voucher.amended,
 * booking.wave-requested, booking.retry-due, booking.wave-settled, booking.group-booked,
 * booking.group-failed and review-item.requested.
 */
export class BookingActor {
  constructor(private readonly context: ActorContext) {}

  /**
   * POST /v1/cases/{urn}/book-rooms: asks the flow to book the wave; answers where the groups it
   * allocated (`groupIds`) stand.
   */
  async requestWave(args: {
    case: CaseRef;
    waveUrn: string;
    groupIds: string[];
    requestedBy: string;
    correlationUrn: string;
  }): Promise<Record<BookingState, number>> {
    const bookingCase = await this.caseFor(args.case);
    this.emit(bookingCase, BOOKING_EVENTS.waveRequested, args.correlationUrn, {
      waveUrn: args.waveUrn,
      caseUrn: bookingCase.caseUrn,
      requestedBy: args.requestedBy,
    });
    const counts: Record<BookingState, number> = { BOOKING: 0, PENDING: 0, BOOKED: 0, FAILED: 0 };
    const bookings = await Promise.all(
      args.groupIds.map((groupId) => this.bookingOf(waveBookingKey(args.waveUrn, groupId))),
    );
    for (const booking of bookings) if (booking) counts[booking.state]++;
    return counts;
  }

  /**
   * Takes the group's booking for the caller. Refused when it is already BOOKED or FAILED (a
   * repeat books nothing) or another caller holds a live claim; a PENDING booking, or one whose
   * claim expired, is taken over with the plan it was first given. A wave never books a group that
   * already holds a reservation (spec 3.1: later demand never replaces existing reservations);
   * overrides and re-bookings do, and replace it.
   */
  async claim(args: ClaimArgs): Promise<ClaimResult> {
    const bookingCase = await this.caseFor(args.case);
    const now = this.context.clock.now();
    const existing = await this.bookingOf(args.key);
    if (existing?.state === "BOOKED") return { granted: false, reason: "booked" };
    if (existing?.state === "FAILED") return { granted: false, reason: "failed" };
    if (existing?.state === "BOOKING" && existing.claim && existing.claim.expiresAt > now) {
      return { granted: false, reason: "in-progress" };
    }
    if (args.source === "wave" && (await this.holdingOf(args.groupId))) {
      return { granted: false, reason: "group-holds-reservation" };
    }
    const token = randomUUID();
    const at = new Date(now).toISOString();
    const booking: GroupBooking = existing
      ? { ...existing, state: "BOOKING", claim: { token, expiresAt: now + args.leaseMs }, updatedAt: at }
      : {
          key: args.key,
          waveUrn: args.waveUrn,
          demandUrn: args.demandUrn,
          groupId: args.groupId,
          source: args.source,
          state: "BOOKING",
          plan: args.plan,
          claim: { token, expiresAt: now + args.leaseMs },
          attemptedHotels: [],
          staleOffers: [],
          retries: 0,
          reservationId: null,
          failure: null,
          reviewItemUrn: args.reviewItemUrn ?? null,
          requestedBy: args.requestedBy,
          correlationUrn: args.correlationUrn,
          createdAt: at,
          updatedAt: at,
        };
    this.putBooking(booking);
    if (!existing) await this.addToGroup(booking.groupId, { bookingKey: booking.key });
    if (existing?.state === "PENDING") await this.setPending(booking.key, false);
    this.commit(bookingCase);
    return { granted: true, token, booking };
  }

  /** The vendor confirmed: the reservation and its voucher exist from this turn on. */
  async confirm(args: ConfirmArgs): Promise<ConfirmResult> {
    const bookingCase = await this.requireCase();
    const booking = claimedBy(await this.bookingOf(args.key), args);
    if (!booking) return { accepted: false, ...this.turnOf(bookingCase) };
    const at = this.now().toISOString();
    const id = reservationIdFor(
      bookingCase.caseUrn,
      args.key,
      args.draft.vendor,
      args.draft.vendorReservationId ?? "",
    );
    const reservation: Reservation = {
      ...args.draft,
      id,
      urn: reservationUrn(id, args.draft.vendor, "CONFIRMED"),
      tenant: bookingCase.tenant,
      caseUrn: bookingCase.caseUrn,
      airport: bookingCase.airport,
      groupId: booking.groupId,
      waveUrn: booking.waveUrn,
      demandUrn: booking.demandUrn,
      status: "CONFIRMED",
      source: booking.source,
      attemptedHotels: args.attemptedHotels,
      voucher: {
        urn: voucherUrnFor(id),
        verificationCode: args.verificationCode,
        issuedAt: at,
        version: 1,
        amendedAt: null,
      },
      bookedBy: booking.source === "wave" ? BOOKING_SYSTEM_ACTOR : booking.requestedBy,
      reason: null,
      createdAt: at,
      updatedAt: at,
    };
    const settled: GroupBooking = {
      ...booking,
      state: "BOOKED",
      claim: null,
      attemptedHotels: args.attemptedHotels,
      staleOffers: args.staleOffers,
      reservationId: id,
      updatedAt: at,
    };
    this.putBooking(settled);
    this.putReservation(reservation);
    await this.addToGroup(settled.groupId, { reservationId: id });
    const next = this.commit(bookingCase);
    this.announceConfirmed(next, reservation, args.correlationUrn);
    if (settled.source === "manual-review") {
      this.answerReview(next, settled, BOOKING_EVENTS.groupBooked, args.correlationUrn, {
        reservationUrn: reservation.urn,
      });
    }
    return { accepted: true, reservation, ...this.turnOf(next, [reservation]) };
  }

  /** Every candidate refused (or the payment did): the group is given to an operator. */
  async fail(args: FailArgs): Promise<BookingTurn> {
    const bookingCase = await this.requireCase();
    const booking = claimedBy(await this.bookingOf(args.key), args);
    if (!booking) return this.turnOf(bookingCase);
    return this.failBooking(bookingCase, booking, args, args.failure);
  }

  /**
   * Some candidate sat behind an open circuit and none took the group: it waits and is tried again
   * on a reminder, so the request is not lost; after `maxRetries` rounds an operator gets it.
   */
  async defer(args: DeferArgs): Promise<BookingTurn & { state: BookingState }> {
    const bookingCase = await this.requireCase();
    const current = await this.bookingOf(args.key);
    const booking = claimedBy(current, args);
    if (!booking) return { state: current?.state ?? "PENDING", ...this.turnOf(bookingCase) };
    if (booking.retries + 1 > args.maxRetries) {
      const turn = this.failBooking(bookingCase, booking, args, {
        category: "BOOKING_FAILED",
        reason: `the vendors stayed unavailable through ${args.maxRetries} retries`,
        vendorErrorCode: null,
      });
      return { state: "FAILED", ...turn };
    }
    const pending: GroupBooking = {
      ...booking,
      state: "PENDING",
      claim: null,
      attemptedHotels: args.attemptedHotels,
      staleOffers: args.staleOffers,
      retries: booking.retries + 1,
      updatedAt: this.now().toISOString(),
    };
    this.putBooking(pending);
    await this.setPending(pending.key, true);
    const next = this.commit(bookingCase);
    await this.context.reminders.set(RETRY_REMINDER, { dueInMs: args.retryInMs });
    return { state: "PENDING", ...this.turnOf(next) };
  }

  async receiveReminder(name: string): Promise<void> {
    if (name !== RETRY_REMINDER) return;
    const bookingCase = await this.context.state.get<BookingCase>(KEYS.case);
    const bookingKeys = (await this.context.state.get<string[]>(KEYS.pending)) ?? [];
    if (!bookingCase || bookingKeys.length === 0) return;
    this.emit(bookingCase, BOOKING_EVENTS.retryDue, bookingCase.caseUrn, {
      caseUrn: bookingCase.caseUrn,
      bookingKeys,
    });
  }

  /**
   * Once every allocated group of the wave is booked or failed, the wave's outcome: FULFILLED when
   * every group holds a reservation, PARTIAL when some do, FAILED when none does. The first
   * settlement asks for the review items (PARTIAL_FULFILLMENT for the groups left without rooms,
   * or BOOKING_FAILED when nothing was booked, and PAYMENT_FAILED for payment refusals); a later
   * one (a group re-booked or booked by hand) only reports the new outcome.
   */
  async settleWave(args: SettleArgs): Promise<SettleResult> {
    const bookingCase = await this.context.state.get<BookingCase>(KEYS.case);
    if (!bookingCase) return { settled: false };
    const groups = [...args.allocated, ...args.unallocated];
    const holding = new Set<string>();
    const waveBookings = new Map<string, GroupBooking>();
    await Promise.all(
      groups.map(async ({ groupId }) => {
        const [held, booking] = await Promise.all([
          this.holdingOf(groupId),
          this.bookingOf(waveBookingKey(args.waveUrn, groupId)),
        ]);
        if (held) holding.add(groupId);
        if (booking) waveBookings.set(groupId, booking);
      }),
    );
    const waveBooking = (groupId: string) => waveBookings.get(groupId);
    const undecided = args.allocated.some((g) => {
      const state = waveBooking(g.groupId)?.state;
      return !holding.has(g.groupId) && state !== "FAILED";
    });
    if (undecided) return { settled: false };

    const booked = groups.filter((g) => holding.has(g.groupId));
    const notBooked = groups.filter((g) => !holding.has(g.groupId));
    const outcome: WaveOutcome =
      notBooked.length === 0 ? "FULFILLED" : booked.length > 0 ? "PARTIAL" : "FAILED";
    const previous = await this.context.state.get<WaveSettlement>(KEYS.settlement(args.waveUrn));
    if (previous?.outcome === outcome) return { settled: true, settlement: previous };

    const requests = previous ? [] : this.reviewRequests(bookingCase, args, outcome, notBooked, waveBooking);
    const reviewItemUrns = previous ? previous.reviewItemUrns : requests.map((r) => r.reviewItemUrn);
    const roomsBooked = booked.reduce((sum, g) => sum + g.rooms, 0);
    const settlement: WaveSettlement = {
      waveUrn: args.waveUrn,
      demandUrn: args.demandUrn,
      outcome,
      roomsBooked,
      reviewItemUrns,
      settledAt: this.now().toISOString(),
    };
    this.context.state.set(KEYS.settlement(args.waveUrn), settlement);
    const next = this.commit(bookingCase);
    for (const request of requests) {
      this.emit(next, BOOKING_EVENTS.reviewItemRequested, args.correlationUrn, request);
    }
    const settled: WaveSettledData = {
      waveUrn: args.waveUrn,
      caseUrn: next.caseUrn,
      demandUrn: args.demandUrn,
      outcome,
      roomsBooked,
      allGroupsBooked: outcome === "FULFILLED",
      reviewItemUrn: outcome === "FULFILLED" ? null : (reviewItemUrns[0] ?? null),
    };
    this.emit(next, BOOKING_EVENTS.waveSettled, args.correlationUrn, settled);
    return { settled: true, settlement };
  }

  /** POST /v1/booking/manual-reservations: a reservation the operator made out of band. */
  async recordManual(args: ManualReservationArgs): Promise<BookingTurn & { reservation: Reservation }> {
    const bookingCase = await this.caseFor(args.case);
    const id = reservationIdFor(bookingCase.caseUrn, "manual", args.requestId);
    const replayed = await this.reservationOf(id);
    if (replayed) return { reservation: replayed, ...this.turnOf(bookingCase, [replayed]) };
    const holding = await this.holdingOf(args.groupId);
    if (holding) {
      throw new DomainError(
        "conflict",
        "group-already-booked",
        `Group ${args.groupId} already holds reservation ${holding.urn}`,
        { reservationUrn: holding.urn },
      );
    }
    const at = this.now().toISOString();
    const reservation: Reservation = {
      id,
      urn: reservationUrn(id, "manual", "CONFIRMED"),
      tenant: bookingCase.tenant,
      caseUrn: bookingCase.caseUrn,
      airport: bookingCase.airport,
      groupId: args.groupId,
      waveUrn: args.waveUrn,
      demandUrn: args.demandUrn,
      status: "CONFIRMED",
      vendor: "manual",
      vendorReservationId: null,
      confirmationNumber: args.confirmationNumber,
      providerOfferId: null,
      hotel: args.hotel,
      checkIn: args.checkIn,
      checkOut: args.checkOut,
      rooms: args.rooms,
      guests: args.guests,
      payment: "OUT_OF_BAND",
      cost: args.cost,
      refundable: null,
      cancellationDeadline: null,
      source: "manual",
      attemptedHotels: [],
      voucher: {
        urn: voucherUrnFor(id),
        verificationCode: args.verificationCode,
        issuedAt: at,
        version: 1,
        amendedAt: null,
      },
      bookedBy: args.bookedBy,
      reason: args.reason,
      replaces: null,
      createdAt: at,
      updatedAt: at,
      vendorUpdatedAt: null,
    };
    this.putReservation(reservation);
    await this.addToGroup(reservation.groupId, { reservationId: id });
    const next = this.commit(bookingCase);
    this.announceConfirmed(next, reservation, args.correlationUrn);
    return { reservation, ...this.turnOf(next, [reservation]) };
  }

  /** The service cancelled the reservation (the group moved to another hotel). */
  async markCancelled(args: CancelArgs): Promise<BookingTurn> {
    const bookingCase = await this.requireCase();
    const reservation = await this.reservationOf(args.reservationId);
    if (!reservation) throw reservationNotFound(args.reservationId);
    if (reservation.status === "CANCELLED") return this.turnOf(bookingCase, [reservation]);
    const cancelled: Reservation = {
      ...reservation,
      status: "CANCELLED",
      updatedAt: this.now().toISOString(),
    };
    this.putReservation(cancelled);
    const next = this.commit(bookingCase);
    this.emit(next, BOOKING_EVENTS.reservationCancelled, args.correlationUrn, {
      ...reservationData(cancelled),
      cancelledBy: args.by,
      reason: args.reason,
    });
    return this.turnOf(next, [cancelled]);
  }

  /**
   * Reconciliation found the vendor's record different from ours: the reservation follows the
   * vendor, its voucher gets a new version (voucher.amended), and a hotel-side cancellation is
   * handed to an operator as BOOKING_FAILED.
   */
  async applyVendorChange(args: VendorChangeArgs): Promise<VendorChangeResult> {
    const bookingCase = await this.requireCase();
    const reservation = await this.reservationOf(args.reservationId);
    if (!reservation) throw reservationNotFound(args.reservationId);
    const outcome = applyVendorView(reservation, args.view, this.now());
    if (outcome.changes.length === 0) return { changed: false, ...this.turnOf(bookingCase) };
    const updated = outcome.reservation;
    this.putReservation(updated);
    const next = this.commit(bookingCase);
    this.emit(next, BOOKING_EVENTS.voucherAmended, args.correlationUrn, {
      ...voucherData(updated),
      version: updated.voucher.version,
      changes: outcome.changes,
    });
    if (outcome.cancelledByHotel) {
      this.emit(next, BOOKING_EVENTS.reservationCancelled, args.correlationUrn, {
        ...reservationData(updated),
        cancelledBy: "hotel",
        reason: "the hotel cancelled the reservation",
      });
      const request: ReviewItemRequestedData = {
        reviewItemUrn: reviewItemUrnFor(next.caseUrn, `cancelled:${updated.id}`),
        caseUrn: next.caseUrn,
        category: "BOOKING_FAILED",
        attemptedHotels: [
          { hotelUrn: updated.hotel.hotelUrn, reason: "cancelled-by-hotel", providerError: "CANCELLED" },
        ],
        affectedGroups: [updated.groupId],
        reason: `${updated.hotel.name} cancelled reservation ${updated.confirmationNumber} on its side`,
        ...(updated.demandUrn ? { demandUrn: updated.demandUrn } : {}),
        ...(updated.waveUrn ? { waveUrn: updated.waveUrn } : {}),
      };
      this.emit(next, BOOKING_EVENTS.reviewItemRequested, args.correlationUrn, request);
    }
    return { changed: true, ...this.turnOf(next, [updated]) };
  }

  /** One booking by its key (a PENDING one the retry reminder named). */
  async booking(key: string): Promise<GroupBooking | undefined> {
    return this.bookingOf(key);
  }

  /** The bookings and reservations of these groups; undefined before the case's first booking. */
  async groupLedger(groupIds: string[]): Promise<BookingLedger | undefined> {
    const bookingCase = await this.context.state.get<BookingCase>(KEYS.case);
    if (!bookingCase) return undefined;
    const groups = await Promise.all(
      groupIds.map(async (groupId) => {
        const entries = await this.entriesOf(groupId);
        return Promise.all([
          Promise.all(entries.bookingKeys.map((key) => this.bookingOf(key))),
          Promise.all(entries.reservationIds.map((id) => this.reservationOf(id))),
        ]);
      }),
    );
    const ledger: BookingLedger = { revision: bookingCase.revision, bookings: {}, reservations: {} };
    for (const [bookings, reservations] of groups) {
      for (const booking of bookings) ledger.bookings[booking!.key] = booking!;
      for (const reservation of reservations) ledger.reservations[reservation!.id] = reservation!;
    }
    return ledger;
  }

  private failBooking(
    bookingCase: BookingCase,
    booking: GroupBooking,
    turn: ClaimedTurn,
    failure: BookingFailure,
  ): BookingTurn {
    const failed: GroupBooking = {
      ...booking,
      state: "FAILED",
      claim: null,
      attemptedHotels: turn.attemptedHotels,
      staleOffers: turn.staleOffers,
      failure,
      updatedAt: this.now().toISOString(),
    };
    this.putBooking(failed);
    const next = this.commit(bookingCase);
    if (failed.source === "manual-review") {
      this.answerReview(next, failed, BOOKING_EVENTS.groupFailed, turn.correlationUrn, {
        ...(failure.vendorErrorCode ? { vendorErrorCode: failure.vendorErrorCode } : {}),
      });
    } else if (failed.source === "override") {
      // An override books one group outside any wave settlement: its failure is raised on its own.
      const request: ReviewItemRequestedData = {
        reviewItemUrn: reviewItemUrnFor(next.caseUrn, failed.key),
        caseUrn: next.caseUrn,
        category: failure.category,
        attemptedHotels: failed.attemptedHotels,
        affectedGroups: [failed.groupId],
        reason: `The overridden hotel could not be booked for group ${failed.groupId}: ${failure.reason}`,
        ...(failed.demandUrn ? { demandUrn: failed.demandUrn } : {}),
        ...(failed.waveUrn ? { waveUrn: failed.waveUrn } : {}),
      };
      this.emit(next, BOOKING_EVENTS.reviewItemRequested, turn.correlationUrn, request);
    }
    return this.turnOf(next);
  }

  private reviewRequests(
    bookingCase: CaseRef,
    args: SettleArgs,
    outcome: WaveOutcome,
    notBooked: { groupId: string }[],
    waveBooking: (groupId: string) => GroupBooking | undefined,
  ): ReviewItemRequestedData[] {
    const common = {
      caseUrn: bookingCase.caseUrn,
      waveUrn: args.waveUrn,
      ...(args.demandUrn ? { demandUrn: args.demandUrn } : {}),
    };
    const attemptsOf = (groups: readonly { groupId: string }[]) =>
      groups.flatMap((g) => waveBooking(g.groupId)?.attemptedHotels ?? []);
    const paymentRefused = notBooked.filter(
      (g) => waveBooking(g.groupId)?.failure?.category === "PAYMENT_FAILED",
    );
    const refused = notBooked.filter((g) => waveBooking(g.groupId)?.failure?.category === "BOOKING_FAILED");
    const requests: ReviewItemRequestedData[] = [];
    if (outcome === "PARTIAL") {
      requests.push({
        ...common,
        reviewItemUrn: reviewItemUrnFor(bookingCase.caseUrn, `${args.waveUrn}#PARTIAL_FULFILLMENT`),
        category: "PARTIAL_FULFILLMENT",
        attemptedHotels: attemptsOf(notBooked),
        affectedGroups: notBooked.map((g) => g.groupId),
        reason: `${notBooked.length} group(s) of the wave could not be booked: ${notBooked
          .map((g) => `${g.groupId} (${groupFailureReason(waveBooking(g.groupId))})`)
          .join(", ")}`,
      });
    }
    if (outcome === "FAILED" && refused.length > 0) {
      requests.push({
        ...common,
        reviewItemUrn: reviewItemUrnFor(bookingCase.caseUrn, `${args.waveUrn}#BOOKING_FAILED`),
        category: "BOOKING_FAILED",
        attemptedHotels: attemptsOf(refused),
        affectedGroups: refused.map((g) => g.groupId),
        reason: `Every attempted hotel refused or errored for ${refused.map((g) => g.groupId).join(", ")}`,
      });
    }
    if (paymentRefused.length > 0) {
      requests.push({
        ...common,
        reviewItemUrn: reviewItemUrnFor(bookingCase.caseUrn, `${args.waveUrn}#PAYMENT_FAILED`),
        category: "PAYMENT_FAILED",
        attemptedHotels: attemptsOf(paymentRefused),
        affectedGroups: paymentRefused.map((g) => g.groupId),
        reason: `The vendor refused the payment for ${paymentRefused.map((g) => g.groupId).join(", ")}; correct the payment details`,
      });
    }
    return requests;
  }

  private announceConfirmed(bookingCase: CaseRef, reservation: Reservation, correlationUrn: string): void {
    this.emit(bookingCase, BOOKING_EVENTS.reservationConfirmed, correlationUrn, reservationData(reservation));
    this.emit(bookingCase, BOOKING_EVENTS.voucherIssued, correlationUrn, voucherData(reservation));
  }

  private answerReview(
    bookingCase: CaseRef,
    booking: GroupBooking,
    type: string,
    correlationUrn: string,
    extra: Partial<GroupBookingAnswer>,
  ): void {
    const answer: GroupBookingAnswer = {
      caseUrn: bookingCase.caseUrn,
      groupId: booking.groupId,
      reviewItemUrn: booking.reviewItemUrn ?? "",
      ...extra,
    };
    this.emit(bookingCase, type, correlationUrn, answer);
  }

  private async caseFor(ref: CaseRef): Promise<BookingCase> {
    const bookingCase = await this.context.state.get<BookingCase>(KEYS.case);
    if (!bookingCase) return { ...ref, revision: 0 };
    if (bookingCase.tenant !== ref.tenant || bookingCase.caseUrn !== ref.caseUrn) {
      throw new DomainError(
        "conflict",
        "booking-case-collision",
        "This booking ledger belongs to another case",
      );
    }
    return bookingCase;
  }

  private async requireCase(): Promise<BookingCase> {
    const bookingCase = await this.context.state.get<BookingCase>(KEYS.case);
    if (!bookingCase) throw new DomainError("not-found", "booking-ledger", "No booking for this case yet");
    return bookingCase;
  }

  private bookingOf(key: string): Promise<GroupBooking | undefined> {
    return this.context.state.get<GroupBooking>(KEYS.booking(key));
  }

  private reservationOf(id: string): Promise<Reservation | undefined> {
    return this.context.state.get<Reservation>(KEYS.reservation(id));
  }

  private async entriesOf(groupId: string): Promise<GroupEntries> {
    return (
      (await this.context.state.get<GroupEntries>(KEYS.group(groupId))) ?? {
        bookingKeys: [],
        reservationIds: [],
      }
    );
  }

  /** The reservation that houses the group now, if any. */
  private async holdingOf(groupId: string): Promise<Reservation | undefined> {
    const { reservationIds } = await this.entriesOf(groupId);
    const reservations = await Promise.all(reservationIds.map((id) => this.reservationOf(id)));
    return reservations.find((r) => r && HOLDING_STATUSES.has(r.status));
  }

  private putBooking(booking: GroupBooking): void {
    this.context.state.set(KEYS.booking(booking.key), booking);
  }

  private putReservation(reservation: Reservation): void {
    this.context.state.set(KEYS.reservation(reservation.id), reservation);
  }

  private async addToGroup(
    groupId: string,
    entry: { bookingKey?: string; reservationId?: string },
  ): Promise<void> {
    const entries = await this.entriesOf(groupId);
    const next: GroupEntries = {
      bookingKeys: appendOnce(entries.bookingKeys, entry.bookingKey),
      reservationIds: appendOnce(entries.reservationIds, entry.reservationId),
    };
    this.context.state.set(KEYS.group(groupId), next);
  }

  private async setPending(key: string, pending: boolean): Promise<void> {
    const others = ((await this.context.state.get<string[]>(KEYS.pending)) ?? []).filter((k) => k !== key);
    const next = pending ? [...others, key] : others;
    if (next.length > 0) this.context.state.set(KEYS.pending, next);
    else this.context.state.delete(KEYS.pending);
  }

  /** Every turn that changes something ends here: the case's revision moves on. */
  private commit(bookingCase: BookingCase): BookingCase {
    const next = { ...bookingCase, revision: bookingCase.revision + 1 };
    this.context.state.set(KEYS.case, next);
    return next;
  }

  private turnOf(bookingCase: BookingCase, reservations: Reservation[] = []): BookingTurn {
    return { revision: bookingCase.revision, reservations };
  }

  private emit(bookingCase: CaseRef, type: string, correlationUrn: string, data: unknown): void {
    this.context.emit({
      type,
      tenant: bookingCase.tenant,
      caseUrn: bookingCase.caseUrn,
      correlationUrn,
      data,
    });
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}

/** The reservation that houses the group now, if any. */
export function holdingReservation(ledger: BookingLedger, groupId: string): Reservation | undefined {
  return Object.values(ledger.reservations).find(
    (r) => r.groupId === groupId && HOLDING_STATUSES.has(r.status),
  );
}

export function waveBookingKey(waveUrn: string, groupId: string): string {
  return `${waveUrn}#${groupId}`;
}

/** Review items booking asks for get URNs derived from their cause, so a replay asks for the same one. */
export function reviewItemUrnFor(caseUrn: string, cause: string): string {
  return `urn:review-item:${reservationIdFor("review-item", caseUrn, cause)}`;
}

export function reservationNotFound(reference: string): DomainError {
  return new DomainError("not-found", "reservation", `No reservation ${reference}`);
}

function groupFailureReason(booking: GroupBooking | undefined): string {
  if (!booking) return "not allocated";
  return booking.failure?.reason ?? booking.state.toLowerCase();
}

function reservationData(reservation: Reservation): ReservationEventData {
  return {
    reservationUrn: reservation.urn,
    groupId: reservation.groupId,
    status: reservation.status,
    checkIn: reservation.checkIn,
    checkOut: reservation.checkOut,
    vendor: reservation.vendor,
    hotelUrn: reservation.hotel.hotelUrn,
    waveUrn: reservation.waveUrn,
  };
}

function voucherData(reservation: Reservation): VoucherIssuedData {
  return {
    voucherUrn: reservation.voucher.urn,
    reservationUrn: reservation.urn,
    groupId: reservation.groupId,
    passengerUrns: reservation.guests.map((g) => `urn:passenger:${g.passengerId}`),
  };
}

function claimedBy(booking: GroupBooking | undefined, turn: ClaimedTurn): GroupBooking | undefined {
  return booking?.state === "BOOKING" && booking.claim?.token === turn.token ? booking : undefined;
}

function appendOnce(list: string[], value: string | undefined): string[] {
  return value === undefined || list.includes(value) ? list : [...list, value];
}

/** A fixed-length name for a state key that any key may be derived from. */
function digest(value: string): string {
  return createHash("sha256").update(value).digest("hex").slice(0, 32);
}
