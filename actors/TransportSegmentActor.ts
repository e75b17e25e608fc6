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

/**
 * One ground-transport leg of one passenger group (spec 2.8), `urn:transport-segment:<actor id>`.
 * The rules are those of src/domain/transport/transport-segment.ts; this class loads, applies,
 * stores and emits one event per change. The ride provider is called by the use cases
 * (src/app/transport/), which hand the outcome in: an actor turn does no I/O.
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
    const segment = await this.required();
    return this.commit(confirmRide(segment, command.ride, this.now()), TRANSPORT_EVENT.booked, command);
  }

  async decline(command: ByCommand & { providerError: string }): Promise<SegmentTurn> {
    const segment = await this.required();
    return this.commit(
      declineRide(segment, command.providerError, this.now()),
      TRANSPORT_EVENT.declined,
      command,
    );
  }

  async providerFailed(command: ByCommand & { providerError: string }): Promise<SegmentTurn> {
    const segment = await this.required();
    return this.commit(
      noteProviderFailure(segment, command.providerError, this.now()),
      TRANSPORT_EVENT.providerFailed,
      command,
    );
  }

  async retime(
    command: ReasonedCommand & { scheduledAt: string; ride: SegmentRide | null },
  ): Promise<SegmentTurn> {
    const segment = await this.required();
    return this.commit(
      retime(segment, command.scheduledAt, command.ride, this.now()),
      TRANSPORT_EVENT.amended,
      command,
    );
  }

  async changeVehicle(
    command: ReasonedCommand & { vehicleType: VehicleType; ride: SegmentRide | null },
  ): Promise<SegmentTurn> {
    const segment = await this.required();
    return this.commit(
      changeVehicle(segment, command.vehicleType, command.ride, this.now()),
      TRANSPORT_EVENT.amended,
      command,
    );
  }

  async cancel(command: ReasonedCommand): Promise<SegmentTurn> {
    const segment = await this.required();
    const at = this.now();
    return this.commit(
      cancelSegment(segment, { by: command.by, reason: command.reason, at: at.toISOString() }, at),
      TRANSPORT_EVENT.cancelled,
      command,
    );
  }

  /** A report of the ride provider about the booked ride: ETA, completion, or its own cancellation. */
  async progress(command: ByCommand & { progress: RideProgress }): Promise<SegmentTurn> {
    const segment = await this.required();
    const type =
      command.progress.kind === "eta"
        ? TRANSPORT_EVENT.etaUpdated
        : command.progress.kind === "completed"
          ? TRANSPORT_EVENT.completed
          : TRANSPORT_EVENT.declined;
    return this.commit(recordProgress(segment, command.progress, this.now()), type, command);
  }

  private async required(): Promise<TransportSegment> {
    const segment = await this.get();
    if (!segment) throw segmentNotFound(`urn:transport-segment:${this.context.actorId}`);
    return segment;
  }

  /** Stores a changed segment and emits `type` with it; an unchanged one stores nothing. */
  private commit(
    turn: SegmentTransition,
    type: TransportEventType,
    command: ByCommand & { reason?: string },
  ): SegmentTurn {
    if (!turn.changed) return turn;
    const { segment } = turn;
    this.context.state.set(RECORD, segment);
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
