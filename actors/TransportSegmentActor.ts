import { DomainError } from "../src/domain/domain-error.js";
import { TRANSPORT_EVENT, type TransportEventType } from "../src/domain/events/transport.js";
import {
  cancelSegment,
  changeVehicle,
  confirmRide,
  declineRide,
  noteProviderFailure,
  type RideProgress,
  recordProgress,
  requestSegment,
  returnLegReminderAt,
  retime,
  type SegmentRequest,
  type SegmentRide,
  type SegmentTransition,
  segmentIdOf,
  segmentNotFound,
  type TransportSegment,
  type VehicleType,
} from "../src/domain/transport/transport-segment.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

interface Traced {
  correlationUrn: string;
}

export interface SegmentTurn {
  segment: TransportSegment;
  /** False when the command repeated what was already so: nothing was stored or published. */
  changed: boolean;
}

export interface ByCommand extends Traced {
  by: string;
}

export interface ReasonedCommand extends ByCommand {
  reason: string;
}

const RECORD = "segment";
/** The return leg's reminder e-mail (spec 8.2), set when the ride is booked. */
const RETURN_LEG_REMINDER = "return-leg-email";

/** Who the reminder's event names. */
const TRANSPORT_SYSTEM = "urn:system:transport";

/**
 * One ground-transport leg of one passenger group (spec 2.8), `urn:transport-segment:<actor id>`.
 * The rules are those of src/domain/transport/transport-segment.ts; this class loads, applies,
 * stores and emits one event per change. The ride provider is called by the use cases
 * (src/app/transport/), which hand the outcome in: an actor turn does no I/O. A booked return
 * leg sets a reminder for about 12 hours before its flight (spec 8.2); when it fires on a leg that
 * still stands, `transport.return-leg-due` asks notifications for the e-mail.
 */
export class TransportSegmentActor {
  constructor(private readonly context: ActorContext) {}

  async get(): Promise<TransportSegment | undefined> {
    return this.context.state.get<TransportSegment>(RECORD);
  }

  async request(command: SegmentRequest & Traced): Promise<SegmentTurn> {
    const { correlationUrn, ...request } = command;
    const existing = await this.get();
    const turn = requestSegment(existing, request, this.now());
    if (turn.changed && segmentIdOf(turn.segment.urn) !== this.context.actorId) {
      throw new DomainError(
        "invalid",
        "transport-segment-id-mismatch",
        `Segment ${turn.segment.urn} does not belong to actor ${this.context.actorId}`,
      );
    }
    return this.commit(turn, TRANSPORT_EVENT.requested, { by: request.requestedBy, correlationUrn });
  }

  async confirm(command: ByCommand & { ride: SegmentRide }): Promise<SegmentTurn> {
    const turn = await this.transition(command, TRANSPORT_EVENT.booked, (segment, now) =>
      confirmRide(segment, command.ride, now),
    );
    const remindAt = turn.changed ? returnLegReminderAt(turn.segment, this.now()) : undefined;
    if (remindAt) {
      await this.context.reminders.set(RETURN_LEG_REMINDER, {
        dueInMs: remindAt.getTime() - this.context.clock.now(),
      });
    }
    return turn;
  }

  async receiveReminder(name: string): Promise<void> {
    if (name !== RETURN_LEG_REMINDER) return;
    const segment = await this.get();
    if (segment?.status !== "BOOKED" || segment.direction !== "HOTEL_TO_AIRPORT") return;
    this.context.emit({
      type: TRANSPORT_EVENT.returnLegDue,
      tenant: segment.tenant,
      correlationUrn: segment.urn,
      caseUrn: segment.caseUrn,
      data: {
        segmentUrn: segment.urn,
        caseUrn: segment.caseUrn,
        groupId: segment.groupId,
        segment,
        by: TRANSPORT_SYSTEM,
      },
    });
  }

  async decline(command: ByCommand & { providerError: string }): Promise<SegmentTurn> {
    return this.transition(command, TRANSPORT_EVENT.declined, (segment, now) =>
      declineRide(segment, command.providerError, now),
    );
  }

  async providerFailed(command: ByCommand & { providerError: string }): Promise<SegmentTurn> {
    return this.transition(command, TRANSPORT_EVENT.providerFailed, (segment, now) =>
      noteProviderFailure(segment, command.providerError, now),
    );
  }

  async retime(
    command: ReasonedCommand & { scheduledAt: string; ride: SegmentRide | null },
  ): Promise<SegmentTurn> {
    return this.transition(command, TRANSPORT_EVENT.amended, (segment, now) =>
      retime(segment, command.scheduledAt, command.ride, now),
    );
  }

  async changeVehicle(
    command: ReasonedCommand & { vehicleType: VehicleType; ride: SegmentRide | null },
  ): Promise<SegmentTurn> {
    return this.transition(command, TRANSPORT_EVENT.amended, (segment, now) =>
      changeVehicle(segment, command.vehicleType, command.ride, now),
    );
  }

  async cancel(command: ReasonedCommand): Promise<SegmentTurn> {
    return this.transition(command, TRANSPORT_EVENT.cancelled, (segment, now) =>
      cancelSegment(segment, { by: command.by, reason: command.reason, at: now.toISOString() }, now),
    );
  }

  /** A report of the ride provider about the booked ride: ETA, completion, or its own cancellation. */
  async progress(command: ByCommand & { progress: RideProgress }): Promise<SegmentTurn> {
    const type =
      command.progress.kind === "eta"
        ? TRANSPORT_EVENT.etaUpdated
        : command.progress.kind === "completed"
          ? TRANSPORT_EVENT.completed
          : TRANSPORT_EVENT.declined;
    return this.transition(command, type, (segment, now) => recordProgress(segment, command.progress, now));
  }

  /** Every change of a stored segment: the rule decides from the segment and the time, then commit. */
  private async transition(
    command: ByCommand & { reason?: string },
    type: TransportEventType,
    decide: (segment: TransportSegment, now: Date) => SegmentTransition,
  ): Promise<SegmentTurn> {
    return this.commit(decide(await this.required(), this.now()), type, command);
  }

  private async required(): Promise<TransportSegment> {
    const segment = await this.get();
    if (!segment) throw segmentNotFound(`urn:transport-segment:${this.context.actorId}`);
    return segment;
  }

  /** Stores a changed segment and emits `type` with it; an unchanged one stores nothing. */
  private async commit(
    turn: SegmentTransition,
    type: TransportEventType,
    command: ByCommand & { reason?: string },
  ): Promise<SegmentTurn> {
    if (!turn.changed) return turn;
    const { segment } = turn;
    this.context.state.set(RECORD, segment);
    // A leg that no longer stands sends no reminder (a stale one finds it not BOOKED anyway).
    if (
      ["CANCELLED", "DECLINED", "COMPLETED"].includes(segment.status) &&
      segment.direction === "HOTEL_TO_AIRPORT"
    ) {
      await this.context.reminders.cancel(RETURN_LEG_REMINDER);
    }
    this.context.emit({
      type,
      tenant: segment.tenant,
      correlationUrn: command.correlationUrn,
      caseUrn: segment.caseUrn,
      data: {
        segmentUrn: segment.urn,
        caseUrn: segment.caseUrn,
        groupId: segment.groupId,
        segment,
        by: command.by,
        ...(command.reason !== undefined ? { reason: command.reason } : {}),
      },
    });
    return turn;
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}
