import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { BookingActor, type CaseRef, holdingReservation } from "../../../actors/BookingActor.js";
import { CaseActor, type CaseSnapshot } from "../../../actors/CaseActor.js";
import type { PaymentMethod } from "../../domain/policy/policy.js";
import {
  attemptOf,
  type BookingPlan,
  type GroupBooking,
  waveBookingKey,
} from "../../domain/booking/group-booking.js";
import { vendorCancellationKey } from "../../domain/booking/vendor-idempotency.js";
import type { OfferCandidate } from "../../domain/booking/offer-candidate.js";
import type { ConfirmedDraft } from "../../domain/booking/reservation-lifecycle.js";
import type { PassengerGroup } from "../../domain/case.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { roomsNeededFor } from "../../domain/demand.js";
import { DomainError } from "../../domain/domain-error.js";
import type { Incarnation } from "../../domain/incarnation.js";
import type { GroupRequestedData } from "../../domain/events/booking.js";
import { type Reservation, verificationCodeFrom } from "../../domain/reservation.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { InventoryVendors } from "../../vendors/vendor-port.js";
import type {
  BookGroupsSteps,
  GroupStatus,
  LoadedGroups,
  PlannedGroup,
  SettleOrder,
} from "../../workflows/book-groups/model.js";
import type { HotelSearch } from "../hotel-search.js";
import { caseRefOf } from "../cases/case-changes.js";
import type { AcceptedPayments } from "./accepted-payments.js";
import { bookingCandidates } from "./booking-candidates.js";
import type { BookingSettings } from "./booking-settings.js";
import { type DirectContracts, isDirect } from "./direct-contracts.js";
import type { GroupBooker, GroupBookingOutcome } from "./group-booker.js";
import type { BookingCard } from "./payment-choice.js";
import type { ReservationIndex } from "./reservation-index.js";
import { SharedStayOffers, StayOffers } from "./stay-offers.js";
import type { GroupOverriddenData } from "../../domain/events/allocation.js";
import type { BookingWave, WaveReader } from "./wave-reader.js";

export interface BookingStepsDeps {
  actors: ActorRuntime;
  waves: WaveReader;
  reservations: ReservationIndex;
  search: HotelSearch;
  vendors: InventoryVendors;
  booker: GroupBooker;
  /** Where direct reservations give their rooms back when cancelled. */
  contracts: DirectContracts;
  payments: AcceptedPayments;
  cardOf: (tenant: string) => BookingCard | undefined;
  logger: Logger;
  settings: BookingSettings;
  /** This process, as its claims name it: a restart takes its dead predecessor's claims at once. */
  incarnation: Incarnation;
}

/** Who asked for a booking run, carried to every group it books. */
export interface Acting {
  requestedBy: string;
  correlationUrn: string;
}

/** What a booking run books: a wave's groups, one overridden group, or a group the review queue asks for. */
export type BookingRequest =
  | { kind: "wave"; waveUrn: string; acting: Acting }
  | { kind: "override"; data: GroupOverriddenData; eventId: string; acting: Acting }
  | { kind: "review"; data: GroupRequestedData; eventId: string; correlationUrn: string };

/** One group's booking as the load step hands it to the book step (it travels in the workflow's history). */
export interface GroupOrder {
  ref: CaseRef;
  request: GroupBookingRequest;
  /** The group's passengers; null when the case has no such group (nothing can be booked for it). */
  guests: Reservation["guests"] | null;
  acceptedPayments: PaymentMethod[];
  acting: Acting;
}

/** What a group booking is claimed with; a PENDING booking is claimed again with its own fields. */
type GroupBookingRequest = Pick<
  GroupBooking,
  "key" | "waveUrn" | "demandUrn" | "groupId" | "source" | "plan"
> & {
  reviewItemUrn?: string;
};

/**
 * The steps of the book-groups workflow (src/workflows/book-groups): what to book for a wave, an
 * override (spec 4.2) or a review-queue re-booking; one group booked through its claim in the
 * case's BookingActor, with the vendors called between turns, then confirmed, failed or deferred
 * there; the wave settled once every group is decided, which raises the review items and lets the
 * demand record its outcome.
 */
export class BookingSteps implements BookGroupsSteps<BookingRequest, GroupOrder> {
  private readonly stays: SharedStayOffers;

  constructor(private readonly deps: BookingStepsDeps) {
    this.stays = new SharedStayOffers(deps.search);
  }

  load(request: BookingRequest): Promise<LoadedGroups<GroupOrder>> {
    if (request.kind === "wave") return this.loadWave(request.waveUrn, request.acting);
    if (request.kind === "override") return this.loadOverride(request.data, request.eventId, request.acting);
    return this.loadReview(request.data, request.eventId, request.correlationUrn);
  }

  async settle(order: SettleOrder): Promise<void> {
    const wave = await this.deps.waves.get(order.waveUrn);
    if (wave) await this.settleWave(wave, await this.caseOf(order.caseUrn), order.correlationUrn);
  }

  /** Settles the wave in the case's actor when every group is decided (see BookingActor.settleWave). */
  async settleWave(
    wave: DeepReadonly<BookingWave>,
    snapshot: CaseSnapshot,
    correlationUrn: string,
  ): Promise<void> {
    const groups = new Map(snapshot.case.passengerGroups.map((g) => [g.id, g]));
    const allocated = wave.allocations
      .filter((a) => groups.has(a.groupId))
      .map((a) => ({ groupId: a.groupId, rooms: a.rooms }));
    const unallocated = wave.unallocated
      .filter((u) => groups.has(u.groupId))
      .map((u) => ({ groupId: u.groupId, rooms: roomsNeededFor(groups.get(u.groupId)!) }));
    if (allocated.length + unallocated.length === 0) return;
    await this.deps.actors.invoke(BookingActor, caseRefOf(wave.caseUrn).id, "settleWave", {
      case: caseRefFor(snapshot),
      waveUrn: wave._id,
      demandUrn: wave.demandUrn,
      allocated,
      unallocated,
      correlationUrn,
    });
  }

  /** Every group of the wave that is not booked or failed yet (a second run books nothing twice). */
  private async loadWave(waveUrn: string, acting: Acting): Promise<LoadedGroups<GroupOrder>> {
    const wave = await this.deps.waves.get(waveUrn);
    if (!wave) throw new DomainError("not-found", "wave", `No wave ${waveUrn}`);
    const snapshot = await this.caseOf(wave.caseUrn);
    if (snapshot.case.tenant !== wave.tenant) {
      throw new DomainError("conflict", "wave-case-mismatch", `Wave ${waveUrn} is not of ${wave.caseUrn}`);
    }
    const ref = caseRefFor(snapshot);
    if (snapshot.case.status === "CLOSED") return { caseUrn: ref.caseUrn, groups: [], settle: null };
    const acceptedPayments = await this.deps.payments.of(wave, snapshot.case);
    const groups = new Map(snapshot.case.passengerGroups.map((g) => [g.id, g]));
    const planned = wave.allocations.map((allocation): PlannedGroup<GroupOrder> => {
      const group = groups.get(allocation.groupId);
      if (!group) {
        // The group was split or merged after the wave ran; a new wave houses its passengers.
        return {
          groupId: allocation.groupId,
          decided: { groupId: allocation.groupId, state: "SKIPPED", reservationUrn: null },
        };
      }
      return {
        groupId: allocation.groupId,
        lane: allocation.vendor,
        order: {
          ref,
          request: {
            key: waveBookingKey(wave._id, allocation.groupId),
            waveUrn: wave._id,
            demandUrn: wave.demandUrn,
            groupId: allocation.groupId,
            source: "wave",
            plan: {
              candidates: bookingCandidates(allocation, wave),
              checkIn: allocation.checkIn,
              checkOut: allocation.checkOut,
              rooms: allocation.rooms,
              allocatedCost: allocation.cost,
            },
          },
          guests: guestsOf(group),
          acceptedPayments,
          acting,
        },
      };
    });
    return { caseUrn: ref.caseUrn, groups: planned, settle: settleOrder(wave, acting.correlationUrn) };
  }

  /**
   * An operator moved one group to another hotel (spec 4.2 wave override): only that group is
   * booked again, and the reservation it held elsewhere is cancelled once the new one is confirmed.
   */
  private async loadOverride(
    data: GroupOverriddenData,
    eventId: string,
    acting: Acting,
  ): Promise<LoadedGroups<GroupOrder>> {
    const snapshot = await this.caseOf(data.caseUrn);
    const ref = caseRefFor(snapshot);
    const ledger = await this.deps.actors.peek(BookingActor, caseRefOf(ref.caseUrn).id, "groupLedger", [
      data.groupId,
    ]);
    const holding = ledger && holdingReservation(ledger, data.groupId);
    if (holding && holding.hotel.hotelUrn === data.allocation.hotelUrn) {
      const decided: GroupStatus = { groupId: data.groupId, state: "BOOKED", reservationUrn: holding.urn };
      return { caseUrn: ref.caseUrn, groups: [{ groupId: data.groupId, decided }], settle: null };
    }
    const wave = await this.deps.waves.get(data.waveUrn);
    const request: GroupBookingRequest = {
      key: `override:${eventId}`,
      waveUrn: data.waveUrn,
      demandUrn: wave?.demandUrn ?? null,
      groupId: data.groupId,
      source: "override",
      plan: {
        candidates: bookingCandidates(data.allocation, { rankingInputs: [] }, 1),
        checkIn: data.allocation.checkIn,
        checkOut: data.allocation.checkOut,
        rooms: data.allocation.rooms,
        allocatedCost: data.allocation.cost,
      },
    };
    const order = await this.orderFor(ref, snapshot, wave, request, acting);
    return {
      caseUrn: ref.caseUrn,
      groups: [{ groupId: data.groupId, lane: data.allocation.vendor, order }],
      settle: wave ? settleOrder(wave, acting.correlationUrn) : null,
    };
  }

  /**
   * The review queue asks for a group to be booked at a given hotel (its `rebook` and `override`
   * actions): the named offer first when given, then the hotel's other vendors; the answer is
   * `booking.group-booked` or `booking.group-failed`.
   */
  private async loadReview(
    data: GroupRequestedData,
    eventId: string,
    correlationUrn: string,
  ): Promise<LoadedGroups<GroupOrder>> {
    const snapshot = await this.caseOf(data.caseUrn);
    const ref = caseRefFor(snapshot);
    const wave = await this.deps.waves.latest(ref.tenant, ref.caseUrn);
    const group = snapshot.case.passengerGroups.find((g) => g.id === data.groupId);
    const stay = stayFor(snapshot, wave, data.groupId, group);
    const offers = await this.offersFor(ref, stay);
    const named = data.providerOfferId
      ? namedOffer(data.providerOfferId, data.hotelUrn, offers, wave)
      : undefined;
    const candidates: OfferCandidate[] = [
      ...(named ? [named] : []),
      ...offers
        .offersOf(data.hotelUrn)
        .map((o) => ({ hotelUrn: data.hotelUrn, vendor: o.provider, providerOfferId: o.providerOfferId }))
        .filter((o) => !(named && o.vendor === named.vendor && o.providerOfferId === named.providerOfferId)),
    ];
    const acting = { requestedBy: data.requestedBy, correlationUrn };
    const request: GroupBookingRequest = {
      key: `review:${eventId}`,
      waveUrn: wave?._id ?? null,
      demandUrn: wave?.demandUrn ?? null,
      groupId: data.groupId,
      source: "manual-review",
      plan: { candidates, ...stay },
      reviewItemUrn: data.reviewItemUrn,
    };
    const order = await this.orderFor(ref, snapshot, wave, request, acting);
    return {
      caseUrn: ref.caseUrn,
      groups: [{ groupId: data.groupId, lane: candidates[0]?.vendor ?? data.hotelUrn, order }],
      settle: wave ? settleOrder(wave, correlationUrn) : null,
    };
  }

  private async orderFor(
    ref: CaseRef,
    snapshot: CaseSnapshot,
    wave: DeepReadonly<BookingWave> | undefined,
    request: GroupBookingRequest,
    acting: Acting,
  ): Promise<GroupOrder> {
    const group = snapshot.case.passengerGroups.find((g) => g.id === request.groupId);
    return {
      ref,
      request,
      guests: group ? guestsOf(group) : null,
      acceptedPayments: await this.deps.payments.of(wave, snapshot.case),
      acting,
    };
  }

  /** Claims the group in the case's BookingActor, books it with the vendors, and records the outcome there. */
  async book(order: GroupOrder): Promise<GroupStatus> {
    const { ref, request, acting } = order;
    const actorId = caseRefOf(ref.caseUrn).id;
    const claim = await this.deps.actors.invoke(BookingActor, actorId, "claim", {
      case: ref,
      key: request.key,
      waveUrn: request.waveUrn,
      demandUrn: request.demandUrn,
      groupId: request.groupId,
      source: request.source,
      plan: request.plan,
      requestedBy: acting.requestedBy,
      ...(request.reviewItemUrn ? { reviewItemUrn: request.reviewItemUrn } : {}),
      leaseMs: this.deps.settings.claimLeaseMs,
      holder: this.deps.incarnation,
      correlationUrn: acting.correlationUrn,
    });
    if (!claim.granted) return this.statusOf(actorId, request.key, request.groupId, claim.reason);
    const { booking, token } = claim;
    const guests = order.guests ?? [];
    const offers = await this.offersFor(ref, booking.plan);
    const outcome = await this.deps.booker.book({
      tenant: ref.tenant,
      attempt: {
        caseUrn: ref.caseUrn,
        groupId: booking.groupId,
        bookingKey: booking.key,
        attempt: attemptOf(booking),
      },
      plan: order.guests ? booking.plan : { ...booking.plan, candidates: [] },
      guestNames: guests.map((g) => g.name),
      acceptedPayments: order.acceptedPayments,
      card: this.deps.cardOf(ref.tenant),
      offers,
      staleOffers: booking.staleOffers,
      attemptedHotels: booking.attemptedHotels,
    });
    const claimed = {
      key: booking.key,
      token,
      attemptedHotels: outcome.attemptedHotels,
      staleOffers: outcome.staleOffers,
      correlationUrn: acting.correlationUrn,
    };
    if (outcome.kind === "failed") {
      await this.deps.actors.invoke(BookingActor, actorId, "fail", { ...claimed, failure: outcome.failure });
      return { groupId: booking.groupId, state: "FAILED", reservationUrn: null };
    }
    if (outcome.kind === "pending") {
      const deferred = await this.deps.actors.invoke(BookingActor, actorId, "defer", {
        ...claimed,
        maxRetries: this.deps.settings.maxRetries,
      });
      return { groupId: booking.groupId, state: deferred.state, reservationUrn: null };
    }
    const confirmed = await this.deps.actors.invoke(BookingActor, actorId, "confirm", {
      ...claimed,
      draft: draftOf(outcome, booking.plan, offers, guests),
      verificationCode: verificationCodeFrom(randomBytes(8)),
    });
    if (!confirmed.accepted || !confirmed.reservation) {
      // Another worker took the group over meanwhile and books it: give this booking back.
      await this.cancelBooked(ref.tenant, {
        vendor: outcome.reservation.provider,
        vendorReservationId: outcome.reservation.reservationId,
        providerOfferId: outcome.reservation.providerOfferId,
      });
      return this.statusOf(actorId, booking.key, booking.groupId, "in-progress");
    }
    await this.deps.reservations.record(confirmed);
    if (booking.source !== "wave") await this.releaseReplaced(ref, confirmed.reservation, acting);
    return { groupId: booking.groupId, state: "BOOKED", reservationUrn: confirmed.reservation.urn };
  }

  /** The group's other reservations, now that it holds a new one: cancelled at the vendor, then here. */
  private async releaseReplaced(ref: CaseRef, reservation: Reservation, acting: Acting): Promise<void> {
    const actorId = caseRefOf(ref.caseUrn).id;
    const ledger = await this.deps.actors.peek(BookingActor, actorId, "groupLedger", [reservation.groupId]);
    const replaced = Object.values(ledger?.reservations ?? {}).filter(
      (r) => r.id !== reservation.id && r.status === "CONFIRMED",
    );
    for (const old of replaced) {
      if (
        old.vendorReservationId &&
        !(await this.cancelBooked(ref.tenant, {
          vendor: old.vendor,
          vendorReservationId: old.vendorReservationId,
          providerOfferId: old.providerOfferId,
        }))
      ) {
        continue;
      }
      const turn = await this.deps.actors.invoke(BookingActor, actorId, "markCancelled", {
        reservationId: old.id,
        by: acting.requestedBy,
        reason: `group ${old.groupId} moved to ${reservation.urn}`,
        correlationUrn: acting.correlationUrn,
      });
      await this.deps.reservations.record(turn);
    }
  }

  /**
   * Cancels a booked reservation at its vendor, or gives a direct one's rooms back to its contract.
   * Best effort: a refusal (NON_REFUNDABLE, past the deadline) or an outage leaves the old
   * reservation standing, and the log says so for manual reconciliation.
   */
  private async cancelBooked(
    tenant: string,
    booked: { vendor: string; vendorReservationId: string; providerOfferId: string | null },
  ): Promise<boolean> {
    const { vendor: vendorId, vendorReservationId, providerOfferId } = booked;
    try {
      if (isDirect(vendorId)) {
        if (!providerOfferId) throw new Error(`direct reservation ${vendorReservationId} names no contract`);
        await this.deps.contracts.release({ contractUrn: providerOfferId, holdId: vendorReservationId });
        return true;
      }
      const vendor = this.deps.vendors.forTenant(tenant).find((v) => v.id === vendorId);
      if (!vendor) throw new Error(`vendor ${vendorId} is not enabled for ${tenant}`);
      await vendor.cancel({
        reservationId: vendorReservationId,
        idempotencyKey: vendorCancellationKey(vendorId, vendorReservationId),
      });
      return true;
    } catch (error) {
      this.deps.logger.warn(
        { err: error, tenant, vendor: vendorId, vendorReservationId },
        "could not cancel a replaced reservation at the vendor; it needs manual reconciliation",
      );
      return false;
    }
  }

  private async statusOf(
    actorId: string,
    key: string,
    groupId: string,
    reason: string,
  ): Promise<GroupStatus> {
    const ledger = await this.deps.actors.peek(BookingActor, actorId, "groupLedger", [groupId]);
    const booking = ledger?.bookings[key];
    const holding = ledger && holdingReservation(ledger, groupId);
    // A delivery that failed after the confirmation may not have indexed the reservation: its retry comes here.
    if (ledger && holding)
      await this.deps.reservations.record({ revision: ledger.revision, reservations: [holding] });
    if (reason === "group-holds-reservation" || !booking) {
      return { groupId, state: holding ? "BOOKED" : "SKIPPED", reservationUrn: holding?.urn ?? null };
    }
    const reservation = booking.reservationId ? ledger?.reservations[booking.reservationId] : undefined;
    return { groupId, state: booking.state, reservationUrn: reservation?.urn ?? null };
  }

  private async caseOf(caseUrn: string): Promise<CaseSnapshot> {
    const { id } = caseRefOf(caseUrn);
    const snapshot = await this.deps.actors.invoke(CaseActor, id, "snapshot");
    if (!snapshot) throw new DomainError("not-found", "case-not-found", `No case ${caseUrn}`);
    return snapshot;
  }

  /** Without the search, booking still works; the hotel's name comes from the wave's URN. */
  private offersFor(ref: CaseRef, stay: Pick<BookingPlan, "checkIn" | "checkOut">): Promise<StayOffers> {
    return this.stays
      .find({ tenant: ref.tenant, airport: ref.airport, checkIn: stay.checkIn, checkOut: stay.checkOut })
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error, caseUrn: ref.caseUrn }, "hotel search for booking failed");
        return new StayOffers([]);
      });
  }
}

function caseRefFor(snapshot: CaseSnapshot): CaseRef {
  return { tenant: snapshot.case.tenant, caseUrn: snapshot.case.urn, airport: snapshot.case.flight.origin };
}

function draftOf(
  outcome: Extract<GroupBookingOutcome, { kind: "booked" }>,
  plan: BookingPlan,
  offers: StayOffers,
  guests: Reservation["guests"],
): ConfirmedDraft {
  const { candidate, reservation } = outcome;
  const described = offers.describe(candidate.hotelUrn, candidate.vendor, candidate.providerOfferId);
  return {
    vendor: reservation.provider,
    vendorReservationId: reservation.reservationId,
    confirmationNumber: reservation.confirmationCode,
    providerOfferId: reservation.providerOfferId,
    hotel: {
      hotelUrn: candidate.hotelUrn,
      name: described?.name ?? outcome.hotelName ?? `Hotel ${reservation.providerHotelId}`,
      address: described?.address ?? "",
      providerHotelId: reservation.providerHotelId,
    },
    checkIn: reservation.checkIn,
    checkOut: reservation.checkOut,
    rooms: reservation.rooms,
    guests,
    payment: outcome.payment,
    cost: reservation.total,
    allocatedCost: bookedAsAllocated(candidate, plan) ? (plan.allocatedCost ?? null) : null,
    refundable: reservation.refundable,
    cancellationDeadline: reservation.cancellationDeadline,
    replaces: null,
    vendorUpdatedAt: reservation.updatedAt,
  };
}

/** The group got the very offer its allocation priced (the plan's first candidate). */
function bookedAsAllocated(booked: OfferCandidate, plan: BookingPlan): boolean {
  const allocated = plan.candidates[0];
  return allocated?.vendor === booked.vendor && allocated.providerOfferId === booked.providerOfferId;
}

/**
 * Where and for how long a re-booked group stays: its allocation in the case's latest wave, else
 * the wave's stay for another group, else the night of the disruption until the next flight.
 */
function stayFor(
  snapshot: CaseSnapshot,
  wave: DeepReadonly<BookingWave> | undefined,
  groupId: string,
  group: PassengerGroup | undefined,
): Pick<BookingPlan, "checkIn" | "checkOut" | "rooms"> {
  const own = wave?.allocations.find((a) => a.groupId === groupId);
  const rooms = own?.rooms ?? (group ? roomsNeededFor(group) : 1);
  const dates = own ?? wave?.allocations[0];
  if (dates) return { checkIn: dates.checkIn, checkOut: dates.checkOut, rooms };
  const checkIn = snapshot.case.flight.scheduledDeparture.slice(0, 10);
  const next = snapshot.case.nextFlight?.scheduledDeparture.slice(0, 10);
  const dayAfter = new Date(Date.parse(`${checkIn}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { checkIn, checkOut: next && next > checkIn ? next : dayAfter, rooms };
}

/** The vendor of an offer the review queue names: as the vendors list it now, else as the wave saw it. */
function namedOffer(
  providerOfferId: string,
  hotelUrn: string,
  offers: StayOffers,
  wave: DeepReadonly<BookingWave> | undefined,
): OfferCandidate | undefined {
  const vendor =
    offers.offersOf(hotelUrn).find((o) => o.providerOfferId === providerOfferId)?.provider ??
    wave?.hotels?.flatMap((h) => h.offers).find((o) => o.providerOfferId === providerOfferId)?.provider ??
    wave?.rankingInputs.find((r) => r.providerOfferId === providerOfferId)?.provider;
  return vendor ? { hotelUrn, vendor, providerOfferId } : undefined;
}

function guestsOf(group: PassengerGroup): Reservation["guests"] {
  return group.passengers.map((p) => ({
    passengerId: p.id,
    name: [p.firstName, p.lastName].filter(Boolean).join(" "),
  }));
}

function settleOrder(wave: DeepReadonly<BookingWave>, correlationUrn: string): SettleOrder {
  return { waveUrn: wave._id, caseUrn: wave.caseUrn, correlationUrn };
}
