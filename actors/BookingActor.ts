import type { DeepReadonly } from "../src/domain/deep-readonly.js";
import { createHash, randomUUID } from "node:crypto";
import {
  type BookingFailure,
  type BookingRequest,
  type BookingRound,
  type BookingState,
  type ClaimRefusal,
  type Confirmation,
  claimBooking,
  confirmBooking,
  countByState,
  deferBooking,
  type GroupBooking,
  heldBy,
  markFailed,
  waveBookingKey,
} from "../src/domain/booking/group-booking.js";
import {
  type ManualReservationRequest,
  manualReservationId,
  recordManualReservation,
} from "../src/domain/booking/manual-reservation.js";
import {
  cancellationEventData,
  cancelReservation,
  checkInEventData,
  checkInReservation,
  holdingReservationAmong,
  reservationEventData,
  reservationNotFound,
  voucherEventData,
} from "../src/domain/booking/reservation-lifecycle.js";
import {
  hotelCancellationReview,
  overrideFailureReview,
  reviewAnswer,
} from "../src/domain/booking/review-request.js";
import {
  amendedVoucherEventData,
  applyVendorView,
  type VendorView,
} from "../src/domain/booking/vendor-change.js";
import { settleWave, type WaveGroups, type WaveSettlement } from "../src/domain/booking/wave-settlement.js";
import { DomainError } from "../src/domain/domain-error.js";
import type { Incarnation } from "../src/domain/incarnation.js";
import { BOOKING_EVENTS } from "../src/domain/events/booking.js";
import type { EventDataByType, EventType } from "../src/domain/events/catalogue.js";
import type { Reservation } from "../src/domain/reservation.js";
import { reviewItemUrnFor } from "../src/domain/review-item.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** The case a command concerns; the first command of a case opens its ledger with it. */
export interface CaseRef {
  tenant: string;
  caseUrn: string;
  airport: string;
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

export interface ClaimArgs extends BookingRequest {
  case: CaseRef;
  leaseMs: number;
  /** The process claiming: a dead predecessor's claim is taken over at once. */
  holder: Incarnation;
}

export type ClaimResult =
  | { granted: true; token: string; booking: GroupBooking }
  | { granted: false; reason: ClaimRefusal };

interface ClaimedTurn extends BookingRound {
  key: string;
  correlationUrn: string;
}

export interface ConfirmArgs extends ClaimedTurn, Confirmation {}

export interface ConfirmResult extends BookingTurn {
  /** False when the claim was lost meanwhile: the caller must cancel what it booked. */
  accepted: boolean;
  reservation?: Reservation;
}

export interface FailArgs extends ClaimedTurn {
  failure: BookingFailure;
}

export interface DeferArgs extends ClaimedTurn {
  /** Rounds behind an open circuit after which the group is given to an operator. */
  maxRetries: number;
}

export interface SettleArgs extends WaveGroups {
  case: CaseRef;
  correlationUrn: string;
}

export interface SettleResult {
  settled: boolean;
  settlement?: WaveSettlement;
}

export interface ManualReservationArgs extends ManualReservationRequest {
  case: CaseRef;
  correlationUrn: string;
}

export interface CancelArgs {
  reservationId: string;
  by: string;
  reason: string;
  correlationUrn: string;
}

export interface CheckInArgs {
  groupId: string;
  /** The passenger session checking in. */
  by: string;
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
  booking: (key: string) => `booking:${digest(key)}`,
  reservation: (id: string) => `reservation:${id}`,
  group: (groupId: string) => `group:${digest(groupId)}`,
  settlement: (waveUrn: string) => `settlement:${digest(waveUrn)}`,
};

/**
 * The bookings of one case (actor id = case id), one turn at a time: claims keep two workers from
 * booking the same group, each wave group is booked once, reservations and their vouchers are
 * minted here, and a wave settles once every allocated group is booked or failed. The decisions
 * are the pure state machines of `src/domain/booking` (group booking, wave settlement, reservation
 * lifecycle, manual reservations, vendor changes, review requests); this actor loads, persists and
 * emits. Vendor calls happen outside, between turns (an actor turn holds no I/O but its own state):
 * the book-groups workflow claims a group, calls the vendor, then confirms, fails or defers the
 * claim, and books a deferred group again itself after a durable timer.
 *
 * Events (outbox): reservation.confirmed, voucher.issued, reservation.cancelled,
 * reservation.checked-in, voucher.amended,
 * booking.wave-requested, booking.wave-settled, booking.group-booked, booking.group-failed and
 * review-item.requested.
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
    this.emitter(bookingCase, args.correlationUrn)(BOOKING_EVENTS.waveRequested, {
      waveUrn: args.waveUrn,
      caseUrn: bookingCase.caseUrn,
      requestedBy: args.requestedBy,
    });
    return countByState(
      await Promise.all(
        args.groupIds.map((groupId) => this.bookingOf(waveBookingKey(args.waveUrn, groupId))),
      ),
    );
  }

  /** Takes the group's booking for the caller (`claimBooking` says when it is refused). */
  async claim(args: ClaimArgs): Promise<ClaimResult> {
    const bookingCase = await this.caseFor(args.case);
    const [existing, holding] = await Promise.all([this.bookingOf(args.key), this.holdingOf(args.groupId)]);
    const token = randomUUID();
    const decision = claimBooking(
      existing,
      args,
      { token, leaseMs: args.leaseMs, holder: args.holder, groupHoldsReservation: holding !== undefined },
      this.now(),
    );
    if (!decision.granted) return decision;
    const { booking } = decision;
    this.putBooking(booking);
    if (!existing) await this.addToGroup(booking.groupId, { bookingKey: booking.key });
    this.commit(bookingCase);
    return { granted: true, token, booking };
  }

  /** The vendor confirmed: the reservation and its voucher exist from this turn on. */
  async confirm(args: ConfirmArgs): Promise<ConfirmResult> {
    const bookingCase = await this.requireCase();
    const claimed = heldBy(await this.bookingOf(args.key), args.token);
    if (!claimed) return { accepted: false, ...this.turnOf(bookingCase) };
    const { booking, reservation } = confirmBooking(claimed, bookingCase, args, this.now());
    this.putBooking(booking);
    this.putReservation(reservation);
    await this.addToGroup(booking.groupId, { reservationId: reservation.id });
    const next = this.commit(bookingCase);
    const emit = this.emitter(next, args.correlationUrn);
    announceConfirmed(emit, reservation);
    if (booking.source === "manual-review") {
      emit(
        BOOKING_EVENTS.groupBooked,
        reviewAnswer(next.caseUrn, booking, { reservationUrn: reservation.urn }),
      );
    }
    return { accepted: true, reservation, ...this.turnOf(next, [reservation]) };
  }

  /** Every candidate refused (or the payment did): the group is given to an operator. */
  async fail(args: FailArgs): Promise<BookingTurn> {
    const bookingCase = await this.requireCase();
    const claimed = heldBy(await this.bookingOf(args.key), args.token);
    if (!claimed) return this.turnOf(bookingCase);
    return this.recordFailed(bookingCase, markFailed(claimed, args, args.failure, this.now()), args);
  }

  /**
   * Some candidate sat behind an open circuit and none took the group: it waits PENDING, and the
   * book-groups run that deferred it books it again after the breaker's cool-down; after
   * `maxRetries` rounds an operator gets it.
   */
  async defer(args: DeferArgs): Promise<BookingTurn & { state: BookingState }> {
    const bookingCase = await this.requireCase();
    const current = await this.bookingOf(args.key);
    const claimed = heldBy(current, args.token);
    if (!claimed) return { state: current?.state ?? "PENDING", ...this.turnOf(bookingCase) };
    const deferred = deferBooking(claimed, args, args.maxRetries, this.now());
    if (deferred.state === "FAILED") {
      return { state: "FAILED", ...this.recordFailed(bookingCase, deferred, args) };
    }
    this.putBooking(deferred);
    const next = this.commit(bookingCase);
    return { state: "PENDING", ...this.turnOf(next) };
  }

  /**
   * Settles the wave once every allocated group is booked or failed (see `settleWave`). It may open
   * the case's ledger: a wave that allocated no group settles at once, with no claim made before.
   */
  async settleWave(args: SettleArgs): Promise<SettleResult> {
    const bookingCase = await this.caseFor(args.case);
    const holding = new Set<string>();
    const bookings = new Map<string, GroupBooking>();
    const [previous] = await Promise.all([
      this.context.state.peek<WaveSettlement>(KEYS.settlement(args.waveUrn)),
      ...[...args.allocated, ...args.unallocated].map(async ({ groupId }) => {
        const [held, booking] = await Promise.all([
          this.holdingOf(groupId),
          this.bookingOf(waveBookingKey(args.waveUrn, groupId)),
        ]);
        if (held) holding.add(groupId);
        if (booking) bookings.set(groupId, booking);
      }),
    ]);
    const decision = settleWave(
      bookingCase.caseUrn,
      args,
      { holding, bookings, previous },
      this.now(),
      bookingReviewItemUrn,
    );
    if (!decision.settled) return { settled: false };
    if (!decision.changed) return { settled: true, settlement: decision.settlement };
    this.context.state.set(KEYS.settlement(args.waveUrn), decision.settlement);
    const emit = this.emitter(this.commit(bookingCase), args.correlationUrn);
    for (const request of decision.reviewRequests) emit(BOOKING_EVENTS.reviewItemRequested, request);
    emit(BOOKING_EVENTS.waveSettled, decision.event);
    return { settled: true, settlement: decision.settlement };
  }

  /** POST /v1/booking/manual-reservations: a reservation the operator made out of band. */
  async recordManual(args: ManualReservationArgs): Promise<BookingTurn & { reservation: Reservation }> {
    const bookingCase = await this.caseFor(args.case);
    const replayed = await this.reservationOf(manualReservationId(bookingCase.caseUrn, args.requestId));
    if (replayed) return { reservation: replayed, ...this.turnOf(bookingCase, [replayed]) };
    const reservation = recordManualReservation(
      bookingCase,
      args,
      await this.holdingOf(args.groupId),
      this.now(),
    );
    this.putReservation(reservation);
    await this.addToGroup(reservation.groupId, { reservationId: reservation.id });
    const next = this.commit(bookingCase);
    announceConfirmed(this.emitter(next, args.correlationUrn), reservation);
    return { reservation, ...this.turnOf(next, [reservation]) };
  }

  /** The service cancelled the reservation (the group moved to another hotel). */
  async markCancelled(args: CancelArgs): Promise<BookingTurn> {
    const bookingCase = await this.requireCase();
    const { reservation, changed } = cancelReservation(
      await this.reservationIn(args.reservationId),
      this.now(),
    );
    if (!changed) return this.turnOf(bookingCase, [reservation]);
    this.putReservation(reservation);
    const next = this.commit(bookingCase);
    this.emitter(next, args.correlationUrn)(
      BOOKING_EVENTS.reservationCancelled,
      cancellationEventData(reservation, args.by, args.reason),
    );
    return this.turnOf(next, [reservation]);
  }

  /**
   * The passenger checked in at the hotel: the reservation that houses the group now becomes
   * CHECKED_IN (`checkInReservation`); again, it stays so and nothing is emitted.
   */
  async checkIn(args: CheckInArgs): Promise<BookingTurn & { changed: boolean }> {
    const bookingCase = await this.requireCase();
    const holding = await this.holdingOf(args.groupId);
    if (!holding) {
      throw new DomainError(
        "not-found",
        "reservation",
        "Your group holds no hotel reservation to check into",
      );
    }
    const { reservation, changed } = checkInReservation(holding, this.now());
    if (!changed) return { changed, ...this.turnOf(bookingCase, [reservation]) };
    this.putReservation(reservation);
    const next = this.commit(bookingCase);
    this.emitter(next, args.correlationUrn)(
      BOOKING_EVENTS.reservationCheckedIn,
      checkInEventData(reservation, args.by),
    );
    return { changed, ...this.turnOf(next, [reservation]) };
  }

  /**
   * Reconciliation found the vendor's record different from ours: the reservation follows the
   * vendor, its voucher gets a new version (voucher.amended), and a hotel-side cancellation is
   * handed to an operator as BOOKING_FAILED.
   */
  async applyVendorChange(args: VendorChangeArgs): Promise<VendorChangeResult> {
    const bookingCase = await this.requireCase();
    const outcome = applyVendorView(await this.reservationIn(args.reservationId), args.view, this.now());
    if (outcome.changes.length === 0) return { changed: false, ...this.turnOf(bookingCase) };
    const updated = outcome.reservation;
    this.putReservation(updated);
    const next = this.commit(bookingCase);
    const emit = this.emitter(next, args.correlationUrn);
    emit(BOOKING_EVENTS.voucherAmended, amendedVoucherEventData(updated, outcome.changes));
    if (outcome.cancelledByHotel) {
      const reason = "the hotel cancelled the reservation";
      emit(BOOKING_EVENTS.reservationCancelled, cancellationEventData(updated, "hotel", reason));
      emit(
        BOOKING_EVENTS.reviewItemRequested,
        hotelCancellationReview(next.caseUrn, updated, bookingReviewItemUrn),
      );
    }
    return { changed: true, ...this.turnOf(next, [updated]) };
  }

  /** The bookings and reservations of these groups; undefined before the case's first booking. */
  async groupLedger(groupIds: string[]): Promise<BookingLedger | undefined> {
    const bookingCase = await this.context.state.peek<BookingCase>(KEYS.case);
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

  /** Stores a FAILED booking and raises what its source asks for. */
  private recordFailed(bookingCase: BookingCase, failed: GroupBooking, turn: ClaimedTurn): BookingTurn {
    this.putBooking(failed);
    const next = this.commit(bookingCase);
    const emit = this.emitter(next, turn.correlationUrn);
    const failure = failed.failure!;
    if (failed.source === "manual-review") {
      const { vendorErrorCode } = failure;
      emit(
        BOOKING_EVENTS.groupFailed,
        reviewAnswer(next.caseUrn, failed, vendorErrorCode ? { vendorErrorCode } : {}),
      );
    } else if (failed.source === "override") {
      emit(
        BOOKING_EVENTS.reviewItemRequested,
        overrideFailureReview(next.caseUrn, failed, failure, bookingReviewItemUrn),
      );
    }
    return this.turnOf(next);
  }

  private async caseFor(ref: CaseRef): Promise<BookingCase> {
    const bookingCase = await this.context.state.peek<BookingCase>(KEYS.case);
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
    const bookingCase = await this.context.state.peek<BookingCase>(KEYS.case);
    if (!bookingCase) throw new DomainError("not-found", "booking-ledger", "No booking for this case yet");
    return bookingCase;
  }

  private bookingOf(key: string): Promise<GroupBooking | undefined> {
    return this.context.state.peek<GroupBooking>(KEYS.booking(key));
  }

  private reservationOf(id: string): Promise<Reservation | undefined> {
    return this.context.state.peek<Reservation>(KEYS.reservation(id));
  }

  private async reservationIn(id: string): Promise<Reservation> {
    const reservation = await this.reservationOf(id);
    if (!reservation) throw reservationNotFound(id);
    return reservation;
  }

  private async entriesOf(groupId: string): Promise<GroupEntries> {
    return (
      (await this.context.state.peek<GroupEntries>(KEYS.group(groupId))) ?? {
        bookingKeys: [],
        reservationIds: [],
      }
    );
  }

  /** The reservation that houses the group now, if any. */
  private async holdingOf(groupId: string): Promise<Reservation | undefined> {
    const { reservationIds } = await this.entriesOf(groupId);
    const reservations = await Promise.all(reservationIds.map((id) => this.reservationOf(id)));
    return holdingReservationAmong(reservations, groupId);
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

  /** Every turn that changes something ends here: the case's revision moves on. */
  private commit(bookingCase: BookingCase): BookingCase {
    const next = { ...bookingCase, revision: bookingCase.revision + 1 };
    this.context.state.set(KEYS.case, next);
    return next;
  }

  private turnOf(bookingCase: BookingCase, reservations: Reservation[] = []): BookingTurn {
    return { revision: bookingCase.revision, reservations };
  }

  /** Emits the turn's events for the case, under one correlation. */
  private emitter(bookingCase: CaseRef, correlationUrn: string): Emit {
    const { tenant, caseUrn } = bookingCase;
    return (type, data) => this.context.emit({ type, tenant, caseUrn, correlationUrn, data });
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}

type Emit = <T extends EventType>(type: T, data: EventDataByType[T]) => void;

function announceConfirmed(emit: Emit, reservation: Reservation): void {
  emit(BOOKING_EVENTS.reservationConfirmed, reservationEventData(reservation));
  emit(BOOKING_EVENTS.voucherIssued, voucherEventData(reservation));
}

/** The reservation that houses the group now, if any. */
export function holdingReservation(ledger: BookingLedger, groupId: string): Reservation | undefined;
/** As the ledger is handed out: read-only when it was looked at (ActorRuntime.peek). */
export function holdingReservation(
  ledger: DeepReadonly<BookingLedger>,
  groupId: string,
): DeepReadonly<Reservation> | undefined;
export function holdingReservation(
  ledger: DeepReadonly<BookingLedger>,
  groupId: string,
): DeepReadonly<Reservation> | undefined {
  return holdingReservationAmong(Object.values(ledger.reservations), groupId);
}

/** Review items booking asks for get URNs derived from their cause, so a replay asks for the same one. */
function bookingReviewItemUrn(caseUrn: string, cause: string): string {
  return reviewItemUrnFor("review-item", caseUrn, cause);
}

function appendOnce(list: string[], value: string | undefined): string[] {
  return value === undefined || list.includes(value) ? list : [...list, value];
}

/** A fixed-length name for a state key that any key may be derived from. */
function digest(value: string): string {
  return createHash("sha256").update(value).digest("hex").slice(0, 32);
}
