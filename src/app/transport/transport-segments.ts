import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { HOLDING_STATUSES } from "../../domain/reservation.js";
import {
  segmentNotFound,
  type TransportDirection,
  type TransportSegment,
  type VehicleType,
} from "../../domain/transport/transport-segment.js";
import { TOKENS } from "../../runtime/tokens.js";
import { type AuditLog, changeEntry } from "../audit-log.js";
import { assertAirport, assertTenant } from "../authorization.js";
import { ReservationReads } from "../booking/reservation-reads.js";
import { CaseChanges } from "../cases/case-changes.js";
import type { OperatorPrincipal } from "../principals.js";
import { GroupLegs, groupOf } from "./group-legs.js";
import { RideBooking } from "./ride-booking.js";

export interface SegmentInput {
  reservationUrn: string;
  direction: TransportDirection;
  scheduledAt: string;
  vehicleType?: VehicleType;
  specialRequirements?: string[];
}

interface Acting {
  principal: OperatorPrincipal;
  correlationUrn: string;
}

/**
 * The operators' transport segment routes (spec 4.2 `POST /transport/segments`, `/retime`,
 * `/vehicle`, `/cancel`; fields of 2.8). Each finds the segment for the caller (same tenant, same
 * airport for a scoped operator) and hands the ride work to RideBooking; the changes carry the
 * operator's reason into the segment's event and the route's audit entry.
 */
@injectable()
export class TransportSegments {
  constructor(
    @inject(ReservationReads) private readonly reservations: ReservationReads,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(GroupLegs) private readonly legs: GroupLegs,
    @inject(RideBooking) private readonly rides: RideBooking,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  /**
   * A leg for the reservation's group. The vehicle is the policy's for the group (a wheelchair van
   * for special requirements) unless given. The same request again answers the same segment.
   */
  async create({ principal, correlationUrn }: Acting, input: SegmentInput): Promise<TransportSegment> {
    const reservation = await this.reservations.reservation(principal, input.reservationUrn);
    if (!HOLDING_STATUSES.has(reservation.status) || reservation.status === "CHECKED_OUT") {
      throw new DomainError(
        "conflict",
        "reservation-not-holding",
        `Reservation ${reservation.urn} is ${reservation.status}: no transport to or from it`,
        { reservationUrn: reservation.urn, status: reservation.status },
      );
    }
    const snapshot = await this.cases.snapshot(reservation.caseUrn, principal);
    const group = groupOf(snapshot, reservation.groupId);
    const transport = await this.legs.transportOf(snapshot);
    const leg = this.legs.legOf(snapshot.case, group, reservation, input.direction, transport, {
      scheduledAt: input.scheduledAt,
      ...(input.vehicleType !== undefined ? { vehicleType: input.vehicleType } : {}),
      ...(input.specialRequirements !== undefined ? { specialRequirements: input.specialRequirements } : {}),
      requestedBy: principal.actorUrn,
    });
    const [segment] = await this.rides.order(
      { vehicleType: leg.vehicleType, pickupAt: leg.scheduledAt, poolId: null, legs: [leg] },
      { by: principal.actorUrn, correlationUrn },
    );
    return segment!;
  }

  async get(principal: OperatorPrincipal, segmentUrn: string): Promise<TransportSegment> {
    const segment = await this.rides.get(segmentUrn);
    if (!segment) throw segmentNotFound(segmentUrn);
    assertTenant(principal, segment.tenant);
    assertAirport(principal, segment.airport);
    return segment;
  }

  async retime(acting: Acting, segmentUrn: string, scheduledAt: string, reason: string) {
    const segment = await this.get(acting.principal, segmentUrn);
    const after = await this.rides.amend(
      segment,
      { pickupAt: new Date(scheduledAt).toISOString() },
      traced(acting, reason),
    );
    return this.audited("transport.segment.retime", acting, reason, segment, after);
  }

  async changeVehicle(acting: Acting, segmentUrn: string, vehicleType: VehicleType, reason: string) {
    const segment = await this.get(acting.principal, segmentUrn);
    const after = await this.rides.amend(segment, { vehicleType }, traced(acting, reason));
    return this.audited("transport.segment.vehicle", acting, reason, segment, after);
  }

  async cancel(acting: Acting, segmentUrn: string, reason: string) {
    const segment = await this.get(acting.principal, segmentUrn);
    const after = await this.rides.cancel(segment, traced(acting, reason));
    return this.audited("transport.segment.cancel", acting, reason, segment, after);
  }

  /** The change on the segment's trail with its reason and both states (spec 4.2 "reason required; audited"). */
  private async audited(
    action: string,
    { principal, correlationUrn }: Acting,
    reason: string,
    before: TransportSegment,
    after: TransportSegment,
  ): Promise<TransportSegment> {
    if (after.version !== before.version) {
      await this.audit.append(
        changeEntry(
          { action: `${action}.change`, by: principal.actorUrn, reason, before, after },
          { tenant: after.tenant, entityUrn: after.urn, caseUrn: after.caseUrn },
          { caller: principal, correlationUrn },
        ),
      );
    }
    return after;
  }
}

function traced({ principal, correlationUrn }: Acting, reason: string) {
  return { by: principal.actorUrn, correlationUrn, reason };
}
