import { DemandActor } from "../../../actors/DemandActor.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { AuditLog } from "../audit-log.js";
import { CaseStatusCommands } from "../cases/case-status.js";
import { demandAddress } from "../../domain/demand-addresses.js";
import { DemandIndex } from "../demand/demand-index.js";
import {
  BOOKING_SYSTEM_ACTOR,
  type ReservationEventData,
  type WaveSettledData,
} from "../../domain/events/booking.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * What booking's outcomes change in the other aggregates, run from booking's own events (outbox,
 * at least once): each reservation's status is reported to its case, and a settled wave moves its
 * demand to FULFILLED or PARTIAL (spec 3.1). Both are idempotent: the case ignores a status it
 * already has, and a demand that left APPROVED is not moved again.
 */
@injectable()
export class BookingOutcomes {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseStatusCommands) private readonly caseStatus: CaseStatusCommands,
    @inject(DemandIndex) private readonly demands: DemandIndex,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  async reportToCase(caseUrn: string, data: ReservationEventData, correlationUrn: string): Promise<void> {
    await this.caseStatus.recordReservationStatus(caseUrn, {
      reservationUrn: data.reservationUrn,
      groupId: data.groupId,
      status: data.status,
      checkIn: data.checkIn,
      checkOut: data.checkOut,
      correlationUrn,
    });
  }

  /**
   * FULFILLED when every group of the wave holds a reservation: rooms a demand asked for beyond what
   * its groups need have nobody to house, so they count as booked then. PARTIAL when some rooms are
   * booked, with the review item that explains the rest. A wave that booked nothing leaves the
   * demand APPROVED: its BOOKING_FAILED item is the operator's to work.
   */
  async recordOnDemand(data: WaveSettledData, correlationUrn: string): Promise<void> {
    const address = data.demandUrn ? demandAddress(data.demandUrn) : undefined;
    if (!data.demandUrn || !address || data.outcome === "FAILED") return;
    const ledger = await this.actors.invoke(DemandActor, address.caseId, "get");
    const demand = ledger?.demands.find((d) => d.urn === data.demandUrn);
    if (!ledger || demand?.state !== "APPROVED") return;
    const roomsBooked = data.allGroupsBooked
      ? Math.max(data.roomsBooked, demand.roomsRequested)
      : data.roomsBooked;
    if (roomsBooked < demand.roomsRequested && !data.reviewItemUrn) return;
    const turn = await this.actors.invoke(DemandActor, address.caseId, "recordBookingOutcome", {
      urn: demand.urn,
      by: BOOKING_SYSTEM_ACTOR,
      roomsBooked,
      ...(data.reviewItemUrn ? { reviewItemUrn: data.reviewItemUrn } : {}),
      correlationUrn,
    });
    await this.demands.record(turn.ledger);
    await this.audit.append({
      tenant: turn.ledger.tenant,
      actorUrn: BOOKING_SYSTEM_ACTOR,
      action: `demand.${turn.after.state.toLowerCase()}`,
      entityUrn: turn.after.urn,
      caseUrn: turn.after.caseUrn,
      correlationUrn,
      reason: turn.after.decisions.at(-1)?.reason ?? `wave ${data.waveUrn} settled ${data.outcome}`,
      before: turn.before ?? null,
      after: turn.after,
    });
  }
}
