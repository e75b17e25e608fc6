import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { BookingActor, type CaseRef, holdingReservation } from "../../../actors/BookingActor.js";
import { CaseActor, type CaseSnapshot } from "../../../actors/CaseActor.js";
import type { PaymentMethod } from "../../domain/policy/policy.js";
import {
  type BookingPlan,
  type BookingState,
  type GroupBooking,
  waveBookingKey,
} from "../../domain/booking/group-booking.js";
import type { OfferCandidate } from "../../domain/booking/offer-candidate.js";
import type { ConfirmedDraft } from "../../domain/booking/reservation-lifecycle.js";
import type { PassengerGroup } from "../../domain/case.js";
import { roomsNeededFor } from "../../domain/demand.js";
import { DomainError } from "../../domain/domain-error.js";
import { type Reservation, verificationCodeFrom } from "../../domain/reservation.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { InventoryVendors } from "../../vendors/vendor-port.js";
import type { HotelSearch } from "../hotel-search.js";
import { caseRefOf } from "../cases/case-changes.js";
import type { AcceptedPayments } from "./accepted-payments.js";
import { bookingCandidates } from "./booking-candidates.js";
import type { GroupRequestedData } from "../../domain/events/booking.js";
import { type DirectContracts, isDirect } from "./direct-contracts.js";
import type { GroupBooker, GroupBookingOutcome } from "./group-booker.js";
import type { BookingCard } from "./payment-choice.js";
import type { ReservationIndex } from "./reservation-index.js";
import { StayOffers } from "./stay-offers.js";
import type { GroupOverriddenData } from "../../domain/events/allocation.js";
import type { BookingAllocation, BookingWave, WaveReader } from "./wave-reader.js";

export interface BookingSettings {
  /** How long a claim protects a group being booked before another worker may take it over. */
  claimLeaseMs: number;
  /** Wait before a group left behind an open circuit is tried again (the breaker's cool-down). */
  retryInMs: number;
  /** Rounds behind open circuits before the group goes to an operator. */
  maxRetries: number;
  /**
   * Groups of a wave booked at the same time per vendor (the vendor of each group's allocated
   * offer). Each vendor's booking bucket paces its own calls, so a wave spread over several vendors
   * is only as slow as its busiest vendor, provided every vendor always has a call waiting: a few
   * in flight per vendor cover a vendor that answers slower than its bucket refills. The bound
   * keeps each claim close to its vendor call (the claim lease) instead of claiming a large wave's
   * groups long before their turn.
   */
  concurrentGroupsPerVendor: number;
}

export const DEFAULT_BOOKING_SETTINGS: BookingSettings = {
  claimLeaseMs: 10 * 60_000,
  retryInMs: 30_000,
  maxRetries: 10,
  concurrentGroupsPerVendor: 8,
};

export interface BookingFlowDeps {
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
  settings?: Partial<BookingSettings>;
}

export interface GroupStatus {
  groupId: string;
  state: BookingState | "SKIPPED";
  reservationUrn: string | null;
}

export interface WaveBookingSummary {
  waveUrn: string;
  caseUrn: string;
  groups: GroupStatus[];
}

interface Acting {
  requestedBy: string;
  correlationUrn: string;
}

/**
 * Books what allocation decided (spec 4.1 book-rooms, 3.1 FULFILLED / PARTIAL): a wave's groups
 * one after another, a group overridden to another hotel, or a group an operator re-books from
 * the review queue. Each group is claimed in the case's BookingActor, booked with the vendors
 * between turns, then confirmed, failed or deferred there; the wave settles in the actor once
 * every group is decided, which raises the review items and lets the demand record its outcome.
 * A wave's groups are booked several at a time, in the wave's order within each vendor (see
 * concurrentGroupsPerVendor): the vendors' booking buckets, not this flow, set the pace.
 */
export class BookingFlow {
  private readonly settings: BookingSettings;

  constructor(private readonly deps: BookingFlowDeps) {
    this.settings = { ...DEFAULT_BOOKING_SETTINGS, ...deps.settings };
  }

  /** Books every group of the wave that is not booked or failed yet; a second run books nothing twice. */
  async bookWave(waveUrn: string, acting: Acting): Promise<WaveBookingSummary> {
    const wave = await this.deps.waves.get(waveUrn);
    if (!wave) throw new DomainError("not-found", "wave", `No wave ${waveUrn}`);
    const snapshot = await this.caseOf(wave.caseUrn);
    if (snapshot.case.tenant !== wave.tenant) {
      throw new DomainError("conflict", "wave-case-mismatch", `Wave ${waveUrn} is not of ${wave.caseUrn}`);
    }
    const ref = caseRefFor(snapshot);
    const summary: WaveBookingSummary = { waveUrn, caseUrn: ref.caseUrn, groups: [] };
    if (snapshot.case.status === "CLOSED") return summary;
    const context = await this.contextFor(ref, snapshot, wave);
    summary.groups = await perVendorQueues(
      wave.allocations,
      this.settings.concurrentGroupsPerVendor,
      (allocation) => this.bookAllocation(context, wave, allocation, acting),
    );
    await this.settle(wave, snapshot, acting.correlationUrn);
    return summary;
  }

  /** A reminder came round for groups left behind an open circuit: try them again. */
  async retryPending(caseUrn: string, bookingKeys: readonly string[], correlationUrn: string): Promise<void> {
    const snapshot = await this.caseOf(caseUrn);
    if (snapshot.case.status === "CLOSED") return;
    const ref = caseRefFor(snapshot);
    const actorId = caseRefOf(caseUrn).id;
    const waves = new Map<string, BookingWave | undefined>();
    for (const key of bookingKeys) {
      const booking = await this.deps.actors.invoke(BookingActor, actorId, "booking", key);
      if (booking?.state !== "PENDING") continue;
      if (booking.waveUrn && !waves.has(booking.waveUrn)) {
        waves.set(booking.waveUrn, await this.deps.waves.get(booking.waveUrn));
      }
      const wave = booking.waveUrn ? waves.get(booking.waveUrn) : undefined;
      const context = await this.contextFor(ref, snapshot, wave);
      await this.claimAndBook(
        context,
        {
          key: booking.key,
          waveUrn: booking.waveUrn,
          demandUrn: booking.demandUrn,
          groupId: booking.groupId,
          source: booking.source,
          plan: booking.plan,
          ...(booking.reviewItemUrn ? { reviewItemUrn: booking.reviewItemUrn } : {}),
        },
        { requestedBy: booking.requestedBy, correlationUrn },
      );
    }
    for (const wave of waves.values()) {
      if (wave) await this.settle(wave, await this.caseOf(caseUrn), correlationUrn);
    }
  }

  /**
   * An operator moved one group to another hotel (spec 4.2 wave override): only that group is
   * booked again, and the reservation it held elsewhere is cancelled once the new one is confirmed.
   */
  async bookOverride(data: GroupOverriddenData, eventId: string, acting: Acting): Promise<GroupStatus> {
    const snapshot = await this.caseOf(data.caseUrn);
    const ref = caseRefFor(snapshot);
    const ledger = await this.deps.actors.invoke(BookingActor, caseRefOf(ref.caseUrn).id, "groupLedger", [
      data.groupId,
    ]);
    const holding = ledger && holdingReservation(ledger, data.groupId);
    if (holding && holding.hotel.hotelUrn === data.allocation.hotelUrn) {
      return { groupId: data.groupId, state: "BOOKED", reservationUrn: holding.urn };
    }
    const wave = await this.deps.waves.get(data.waveUrn);
    const context = await this.contextFor(ref, snapshot, wave);
    const status = await this.claimAndBook(
      context,
      {
        key: `override:${eventId}`,
        waveUrn: data.waveUrn,
        demandUrn: wave?.demandUrn ?? null,
        groupId: data.groupId,
        source: "override",
        plan: {
          candidates: bookingCandidates(data.allocation, [], 1),
          checkIn: data.allocation.checkIn,
          checkOut: data.allocation.checkOut,
          rooms: data.allocation.rooms,
        },
      },
      acting,
    );
    if (wave) await this.settle(wave, await this.caseOf(data.caseUrn), acting.correlationUrn);
    return status;
  }

  /**
   * The review queue asks for a group to be booked at a given hotel (its `rebook` and `override`
   * actions): the named offer first when given, then the hotel's other vendors; the answer is
   * `booking.group-booked` or `booking.group-failed`.
   */
  async bookRequested(
    data: GroupRequestedData,
    eventId: string,
    correlationUrn: string,
  ): Promise<GroupStatus> {
    const snapshot = await this.caseOf(data.caseUrn);
    const ref = caseRefFor(snapshot);
    const wave = await this.deps.waves.latest(ref.tenant, ref.caseUrn);
    const group = snapshot.case.passengerGroups.find((g) => g.id === data.groupId);
    const stay = stayFor(snapshot, wave, data.groupId, group);
    const context = await this.contextFor(ref, snapshot, wave);
    const offers = await context.offersFor(stay);
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
    const status = await this.claimAndBook(
      context,
      {
        key: `review:${eventId}`,
        waveUrn: wave?._id ?? null,
        demandUrn: wave?.demandUrn ?? null,
        groupId: data.groupId,
        source: "manual-review",
        plan: { candidates, ...stay },
        reviewItemUrn: data.reviewItemUrn,
      },
      { requestedBy: data.requestedBy, correlationUrn },
    );
    if (wave) await this.settle(wave, await this.caseOf(data.caseUrn), correlationUrn);
    return status;
  }

  /** Settles the wave in the case's actor when every group is decided (see BookingActor.settleWave). */
  async settle(wave: BookingWave, snapshot: CaseSnapshot, correlationUrn: string): Promise<void> {
    const groups = new Map(snapshot.case.passengerGroups.map((g) => [g.id, g]));
    const allocated = wave.allocations
      .filter((a) => groups.has(a.groupId))
      .map((a) => ({ groupId: a.groupId, rooms: a.rooms }));
    const unallocated = wave.unallocated
      .filter((u) => groups.has(u.groupId))
      .map((u) => ({ groupId: u.groupId, rooms: roomsNeededFor(groups.get(u.groupId)!) }));
    if (allocated.length + unallocated.length === 0) return;
    await this.deps.actors.invoke(BookingActor, caseRefOf(wave.caseUrn).id, "settleWave", {
      waveUrn: wave._id,
      demandUrn: wave.demandUrn,
      allocated,
      unallocated,
      correlationUrn,
    });
  }

  private async bookAllocation(
    context: FlowContext,
    wave: BookingWave,
    allocation: BookingAllocation,
    acting: Acting,
  ): Promise<GroupStatus> {
    if (!context.snapshot.case.passengerGroups.some((g) => g.id === allocation.groupId)) {
      // The group was split or merged after the wave ran; a new wave houses its passengers.
      return { groupId: allocation.groupId, state: "SKIPPED", reservationUrn: null };
    }
    return this.claimAndBook(
      context,
      {
        key: waveBookingKey(wave._id, allocation.groupId),
        waveUrn: wave._id,
        demandUrn: wave.demandUrn,
        groupId: allocation.groupId,
        source: "wave",
        plan: {
          candidates: bookingCandidates(allocation, wave.rankingInputs),
          checkIn: allocation.checkIn,
          checkOut: allocation.checkOut,
          rooms: allocation.rooms,
        },
      },
      acting,
    );
  }

  private async claimAndBook(
    context: FlowContext,
    request: BookingRequest,
    acting: Acting,
  ): Promise<GroupStatus> {
    const actorId = caseRefOf(context.ref.caseUrn).id;
    const claim = await this.deps.actors.invoke(BookingActor, actorId, "claim", {
      case: context.ref,
      key: request.key,
      waveUrn: request.waveUrn,
      demandUrn: request.demandUrn,
      groupId: request.groupId,
      source: request.source,
      plan: request.plan,
      requestedBy: acting.requestedBy,
      ...(request.reviewItemUrn ? { reviewItemUrn: request.reviewItemUrn } : {}),
      leaseMs: this.settings.claimLeaseMs,
      correlationUrn: acting.correlationUrn,
    });
    if (!claim.granted) return this.statusOf(actorId, request.key, request.groupId, claim.reason);
    const { booking, token } = claim;
    const group = context.snapshot.case.passengerGroups.find((g) => g.id === booking.groupId);
    const guests = (group?.passengers ?? []).map((p) => ({
      passengerId: p.id,
      name: [p.firstName, p.lastName].filter(Boolean).join(" "),
    }));
    const offers = await context.offersFor(booking.plan);
    const outcome = await this.deps.booker.book({
      tenant: context.ref.tenant,
      plan: group ? booking.plan : { ...booking.plan, candidates: [] },
      guestNames: guests.map((g) => g.name),
      acceptedPayments: context.acceptedPayments,
      card: this.deps.cardOf(context.ref.tenant),
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
        retryInMs: this.settings.retryInMs,
        maxRetries: this.settings.maxRetries,
      });
      return { groupId: booking.groupId, state: deferred.state, reservationUrn: null };
    }
    const confirmed = await this.deps.actors.invoke(BookingActor, actorId, "confirm", {
      ...claimed,
      draft: draftOf(outcome, offers, guests),
      verificationCode: verificationCodeFrom(randomBytes(8)),
    });
    if (!confirmed.accepted || !confirmed.reservation) {
      // Another worker took the group over meanwhile and books it: give this booking back.
      await this.cancelBooked(context.ref.tenant, {
        vendor: outcome.reservation.provider,
        vendorReservationId: outcome.reservation.reservationId,
        providerOfferId: outcome.reservation.providerOfferId,
      });
      return this.statusOf(actorId, booking.key, booking.groupId, "in-progress");
    }
    await this.deps.reservations.record(confirmed);
    if (booking.source !== "wave") await this.releaseReplaced(context.ref, confirmed.reservation, acting);
    return { groupId: booking.groupId, state: "BOOKED", reservationUrn: confirmed.reservation.urn };
  }

  /** The group's other reservations, now that it holds a new one: cancelled at the vendor, then here. */
  private async releaseReplaced(ref: CaseRef, reservation: Reservation, acting: Acting): Promise<void> {
    const actorId = caseRefOf(ref.caseUrn).id;
    const ledger = await this.deps.actors.invoke(BookingActor, actorId, "groupLedger", [reservation.groupId]);
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
      await vendor.cancel({ reservationId: vendorReservationId });
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
    const ledger = await this.deps.actors.invoke(BookingActor, actorId, "groupLedger", [groupId]);
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

  private async contextFor(
    ref: CaseRef,
    snapshot: CaseSnapshot,
    wave: BookingWave | undefined,
  ): Promise<FlowContext> {
    const acceptedPayments = await this.deps.payments.of(wave, snapshot.case);
    const searches = new Map<string, Promise<StayOffers>>();
    return {
      ref,
      snapshot,
      acceptedPayments,
      offersFor: (stay) => {
        const key = `${stay.checkIn}|${stay.checkOut}`;
        let found = searches.get(key);
        if (!found) {
          found = StayOffers.search(this.deps.search, {
            tenant: ref.tenant,
            airport: ref.airport,
            ...stay,
          }).catch((error: unknown) => {
            // Without the search, booking still works; the hotel's name comes from the wave's URN.
            this.deps.logger.warn({ err: error, caseUrn: ref.caseUrn }, "hotel search for booking failed");
            return new StayOffers([]);
          });
          searches.set(key, found);
        }
        return found;
      },
    };
  }
}

/** What a group booking is claimed with; a PENDING booking is claimed again with its own fields. */
type BookingRequest = Pick<GroupBooking, "key" | "waveUrn" | "demandUrn" | "groupId" | "source" | "plan"> & {
  reviewItemUrn?: string;
};

interface FlowContext {
  ref: CaseRef;
  snapshot: CaseSnapshot;
  acceptedPayments: PaymentMethod[];
  offersFor(stay: Pick<BookingPlan, "checkIn" | "checkOut">): Promise<StayOffers>;
}

function caseRefFor(snapshot: CaseSnapshot): CaseRef {
  return { tenant: snapshot.case.tenant, caseUrn: snapshot.case.urn, airport: snapshot.case.flight.origin };
}

function draftOf(
  outcome: Extract<GroupBookingOutcome, { kind: "booked" }>,
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
    refundable: reservation.refundable,
    cancellationDeadline: reservation.cancellationDeadline,
    replaces: null,
    vendorUpdatedAt: reservation.updatedAt,
  };
}

/**
 * Where and for how long a re-booked group stays: its allocation in the case's latest wave, else
 * the wave's stay for another group, else the night of the disruption until the next flight.
 */
function stayFor(
  snapshot: CaseSnapshot,
  wave: BookingWave | undefined,
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
  wave: BookingWave | undefined,
): OfferCandidate | undefined {
  const vendor =
    offers.offersOf(hotelUrn).find((o) => o.providerOfferId === providerOfferId)?.provider ??
    wave?.hotels?.flatMap((h) => h.offers).find((o) => o.providerOfferId === providerOfferId)?.provider ??
    wave?.rankingInputs.find((r) => r.providerOfferId === providerOfferId)?.provider;
  return vendor ? { hotelUrn, vendor, providerOfferId } : undefined;
}

/**
 * `book` for every allocation: one queue per vendor in the wave's order, each worked off `limit`
 * at a time, all queues at once; the results in the wave's order. A failure stops every queue
 * from starting more and is thrown once the bookings under way are done, so a redelivery never
 * races bookings still in flight.
 */
async function perVendorQueues<R>(
  allocations: readonly BookingAllocation[],
  limit: number,
  book: (allocation: BookingAllocation) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(allocations.length);
  const queues = new Map<string, number[]>();
  allocations.forEach((allocation, index) => {
    const queue = queues.get(allocation.vendor);
    if (queue) queue.push(index);
    else queues.set(allocation.vendor, [index]);
  });
  let failure: { error: unknown } | undefined;
  const lane = async (queue: number[]) => {
    for (let index = queue.shift(); index !== undefined && !failure; index = queue.shift()) {
      try {
        results[index] = await book(allocations[index]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(
    [...queues.values()].flatMap((queue) =>
      Array.from({ length: Math.max(1, Math.min(limit, queue.length)) }, () => lane(queue)),
    ),
  );
  if (failure) throw failure.error;
  return results;
}
