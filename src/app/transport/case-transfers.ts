import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { inject, injectable } from "tsyringe";
import type { CaseGroupView } from "../../../actors/CaseActor.js";
import type { PassengerGroup } from "../../domain/case.js";
import type { PolicyTransport } from "../../domain/policy/policy.js";
import { DomainError } from "../../domain/domain-error.js";
import {
  DEFAULT_SHUTTLE_CAPACITY,
  pickupTimeFor,
  planRides,
  type TransferLeg,
} from "../../domain/transport/transfer-plan.js";
import {
  ACTIVE_SEGMENT_STATUSES,
  type SegmentRequest,
  segmentUrnFor,
  TRANSPORT_DIRECTIONS,
  type TransportDirection,
  type TransportSegment,
} from "../../domain/transport/transport-segment.js";
import type { Clock } from "../../runtime/clock.js";
import { TOKENS } from "../../runtime/tokens.js";
import { CaseChanges } from "../cases/case-changes.js";
import type { OperatorPrincipal } from "../principals.js";
import { GroupLegs, type LegCase } from "./group-legs.js";
import { RideBooking, TRANSPORT_SYSTEM_ACTOR } from "./ride-booking.js";

export interface TransferRequest {
  /** Both directions when absent; the return leg needs the case's next flight. */
  directions?: TransportDirection[];
  /** Every group of the case when absent. */
  groupIds?: string[];
}

/** A leg the request could not ask for, and why. */
export interface SkippedLeg {
  groupId: string;
  direction: TransportDirection;
  reason: "no-reservation" | "no-next-flight";
}

export interface TransferOutcome {
  caseUrn: string;
  segments: TransportSegment[];
  skipped: SkippedLeg[];
  /** Rides asked of the provider by this request (a shuttle run counts once). */
  ridesRequested: number;
}

interface Run {
  by: string;
  correlationUrn: string;
}

/**
 * Transfers for a whole case (spec 4.1 `POST /v1/transport/cases/{urn}/transfers/request`), and the
 * two idempotent legs a saga activity calls for one group. Each group's vehicle and pickup come
 * from the case's policy (src/domain/transport/transfer-plan.ts): a mode per tier, a wheelchair van
 * for special requirements, `minutesBeforePickup`; shuttle groups share runs up to
 * `shuttleCapacity`. A leg that stands already (PENDING or BOOKED) is not asked again: a PENDING
 * one has its booking retried, a BOOKED one is answered as it is.
 */
@injectable()
export class CaseTransfers {
  constructor(
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(GroupLegs) private readonly legs: GroupLegs,
    @inject(RideBooking) private readonly rides: RideBooking,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  /** The operator's request for the case (AIRPORT_OPERATOR+, airport-scoped). */
  async request(
    principal: OperatorPrincipal,
    caseUrn: string,
    request: TransferRequest,
    correlationUrn: string,
  ): Promise<TransferOutcome> {
    const snapshot = await this.cases.snapshot(caseUrn, principal);
    const transport = await this.legs.transportOf(snapshot);
    return this.transfer(snapshot.case, snapshot.case.passengerGroups, transport, request, {
      by: principal.actorUrn,
      correlationUrn,
    });
  }

  /**
   * Saga leg: books the group's transfer in one direction. Idempotent: a standing leg is answered
   * as it is (a PENDING one retried), so the activity may run again safely; answers undefined when
   * the group holds no reservation (nothing to ride to) or, for the return leg, the case has no
   * next flight.
   */
  async bookTransferForGroup(command: {
    caseUrn: string;
    groupId: string;
    direction: TransportDirection;
    correlationUrn: string;
    /** The saga's system URN by default; a passenger's session when the passenger asks. */
    requestedBy?: string;
    /**
     * The group's view of the case and its policy's transport block as the caller just read them:
     * a caller booking both directions reads them once (booking a ride changes neither).
     */
    within?: { view: DeepReadonly<CaseGroupView>; transport: PolicyTransport };
  }): Promise<TransportSegment | undefined> {
    const view = command.within?.view ?? (await this.cases.groupView(command.caseUrn, command.groupId));
    const transport = command.within?.transport ?? (await this.legs.transportIn(view));
    const outcome = await this.transfer(
      view.case,
      view.group ? [view.group] : [],
      transport,
      { directions: [command.direction], groupIds: [command.groupId] },
      { by: command.requestedBy ?? TRANSPORT_SYSTEM_ACTOR, correlationUrn: command.correlationUrn },
    );
    return outcome.segments[0];
  }

  /**
   * Saga compensation: cancels the group's legs (one direction, or both), with the reason.
   * Idempotent: a cancelled or never-asked leg changes nothing. Answers the legs that exist.
   */
  async cancelTransferForGroup(command: {
    caseUrn: string;
    groupId: string;
    direction?: TransportDirection;
    reason: string;
    correlationUrn: string;
  }): Promise<TransportSegment[]> {
    const directions = command.direction ? [command.direction] : [...TRANSPORT_DIRECTIONS];
    const found = await Promise.all(
      directions.map((d) => this.rides.get(segmentUrnFor(command.caseUrn, command.groupId, d))),
    );
    const traced = {
      by: TRANSPORT_SYSTEM_ACTOR,
      correlationUrn: command.correlationUrn,
      reason: command.reason,
    };
    return Promise.all(
      found
        .filter((s): s is TransportSegment => s !== undefined)
        .map((s) => (ACTIVE_SEGMENT_STATUSES.has(s.status) ? this.rides.cancel(s, traced) : s)),
    );
  }

  /** The legs `request` asks for, among `caseGroups` (the case's groups, or the one group a leg reads). */
  private async transfer(
    record: DeepReadonly<LegCase>,
    caseGroups: readonly DeepReadonly<PassengerGroup>[],
    transport: PolicyTransport,
    request: TransferRequest,
    run: Run,
  ): Promise<TransferOutcome> {
    const groups = request.groupIds
      ? request.groupIds.map((id) => caseGroups.find((g) => g.id === id) ?? id)
      : caseGroups;
    const unknown = groups.filter((g): g is string => typeof g === "string");
    if (unknown.length > 0) {
      throw new DomainError("not-found", "group-not-found", `The case has no group ${unknown.join(", ")}`, {
        groupIds: unknown,
      });
    }
    const known = groups.filter((g) => typeof g !== "string");
    const directions = [...new Set(request.directions ?? TRANSPORT_DIRECTIONS)];
    const holding = await this.legs.holdingReservations(
      record.urn,
      known.map((g) => g.id),
    );
    const now = new Date(this.clock.now());
    // Every leg's segment as it stands, read together (one actor each).
    const legKeys = known.flatMap((group) =>
      directions.map((direction) => segmentUrnFor(record.urn, group.id, direction)),
    );
    const existingLegs = new Map(
      await Promise.all(legKeys.map(async (urn) => [urn, await this.rides.get(urn)] as const)),
    );
    const skipped: SkippedLeg[] = [];
    const retried: Promise<TransportSegment>[] = [];
    const toPlan: { leg: TransferLeg; request: SegmentRequest }[] = [];
    for (const group of known) {
      for (const direction of directions) {
        const reservation = holding.get(group.id);
        if (!reservation) {
          skipped.push({ groupId: group.id, direction, reason: "no-reservation" });
          continue;
        }
        if (direction === "HOTEL_TO_AIRPORT" && !record.nextFlight) {
          skipped.push({ groupId: group.id, direction, reason: "no-next-flight" });
          continue;
        }
        const existing = existingLegs.get(segmentUrnFor(record.urn, group.id, direction));
        if (existing && (ACTIVE_SEGMENT_STATUSES.has(existing.status) || existing.status === "COMPLETED")) {
          retried.push(this.rides.retry(existing, run));
          continue;
        }
        const pickupAt = pickupTimeFor(direction, transport, now, record.nextFlight?.scheduledDeparture);
        const leg = this.legs.legOf(record, group, reservation, direction, transport, {
          scheduledAt: pickupAt.toISOString(),
          requestedBy: run.by,
        });
        toPlan.push({
          request: leg,
          leg: {
            groupId: group.id,
            direction,
            vehicleType: leg.vehicleType,
            passengers: leg.passengers,
            pickupLocation: leg.pickupLocation,
            dropoffLocation: leg.dropoffLocation,
            pickupAt: leg.scheduledAt,
          },
        });
      }
    }
    const planned = planRides(
      record.urn,
      toPlan.map((p) => p.leg),
      transport.shuttleCapacity ?? DEFAULT_SHUTTLE_CAPACITY,
    );
    const standing = await Promise.all(retried);
    const booked = await Promise.all(
      planned.map((ride) =>
        this.rides.order(
          {
            vehicleType: ride.vehicleType,
            pickupAt: ride.pickupAt,
            poolId: ride.legs.length > 1 ? ride.poolId : null,
            legs: ride.legs.map((leg) => ({
              ...toPlan.find((p) => p.leg === leg)!.request,
              scheduledAt: ride.pickupAt,
            })),
          },
          run,
          { standingLegKept: true },
        ),
      ),
    );
    return {
      caseUrn: record.urn,
      segments: [...standing, ...booked.flat()].sort(
        (a, b) => a.groupId.localeCompare(b.groupId) || a.direction.localeCompare(b.direction),
      ),
      skipped,
      ridesRequested: planned.length,
    };
  }
}
