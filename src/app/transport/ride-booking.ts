import { inject, injectable } from "tsyringe";
import { TransportSegmentActor } from "../../../actors/TransportSegmentActor.js";
import { DomainError } from "../../domain/domain-error.js";
import { money } from "../../domain/money.js";
import {
  ACTIVE_SEGMENT_STATUSES,
  type SegmentRequest,
  type SegmentRide,
  segmentIdFor,
  segmentIdOf,
  type TransportSegment,
  type VehicleType,
} from "../../domain/transport/transport-segment.js";
import { uuidFromParts } from "../../domain/uuid.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { CircuitOpenError } from "../../vendors/circuit-open-error.js";
import type { Ride, RideChange, RideProvider } from "../../vendors/ride-provider.js";
import { VendorError } from "../../vendors/vendor-error.js";
import { TransportSegmentIndex } from "./transport-segment-index.js";

/** The ride provider main chose, with where its callbacks come back and the secret they are signed with. */
export interface RideProviderBinding {
  provider: RideProvider;
  /** `{base_url}/v1/transport/callbacks/<provider id>`. */
  callbackUrl: string;
  callbackSecret: string;
}

/** Who books on the service's own account (the case-wide request, the saga's legs). */
export const TRANSPORT_SYSTEM_ACTOR = "urn:system:transport";

/** One ride to book for some legs: a group's own vehicle, or a shuttle run several groups share. */
export interface RideOrder {
  vehicleType: VehicleType;
  pickupAt: string;
  /** The run's id when several groups share it (src/domain/transport/transfer-plan.ts). */
  poolId: string | null;
  legs: SegmentRequest[];
}

interface Traced {
  by: string;
  correlationUrn: string;
}

/**
 * Between the segment actors and the ride provider: asks for legs, books their ride, amends and
 * cancels it, and records each outcome on the segments (and their index). Booking is idempotent:
 * a leg already BOOKED is left as it is, and the provider is asked with a reference derived from
 * the legs still PENDING and their generation, so a repeat (a retry, a saga activity run twice)
 * gets the ride booked the first time back.
 */
@injectable()
export class RideBooking {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TransportSegmentIndex) private readonly index: TransportSegmentIndex,
    @inject(TOKENS.rideProvider) private readonly binding: RideProviderBinding,
  ) {}

  /**
   * Asks for every leg, then books one ride for the legs that still wait for one: BOOKED when the
   * provider confirms, DECLINED when it refuses for good, PENDING (with the provider's code) when
   * it could not be reached. Answers the legs' segments as they now stand.
   */
  async order(
    order: RideOrder,
    traced: Traced,
    options: { standingLegKept?: boolean } = {},
  ): Promise<TransportSegment[]> {
    const requested = await Promise.all(
      order.legs.map(async (leg) => {
        const id = segmentIdFor(leg.caseUrn, leg.groupId, leg.direction);
        try {
          return await this.turn(id, "request", { ...leg, correlationUrn: traced.correlationUrn });
        } catch (error) {
          // A concurrent request asked for the leg first (two saga runs, a repeated case request):
          // with `standingLegKept` the leg that stands is the answer, as if this request came second.
          const standing =
            options.standingLegKept &&
            error instanceof DomainError &&
            error.code === "transport-segment-exists"
              ? await this.actors.invoke(TransportSegmentActor, id, "get")
              : undefined;
          if (!standing) throw error;
          return standing;
        }
      }),
    );
    const pending = requested.filter((s) => s.status === "PENDING");
    if (pending.length === 0) return requested;
    const booked = await this.bookRide(pending, order, traced);
    return requested.map((s) => booked.find((b) => b.urn === s.urn) ?? s);
  }

  /** A PENDING segment asked again: its ride is booked now if the provider can. */
  async retry(segment: TransportSegment, traced: Traced): Promise<TransportSegment> {
    if (segment.status !== "PENDING") return segment;
    const [after] = await this.bookRide(
      [segment],
      { vehicleType: segment.vehicleType, pickupAt: segment.scheduledAt, poolId: null },
      traced,
    );
    return after!;
  }

  /**
   * A new pickup time or vehicle for a standing segment. A ride of its own is amended at the
   * provider; a shared shuttle run is left to the other groups and the segment gets a ride of its
   * own; a PENDING segment is changed and then booked. The provider's refusal changes nothing.
   */
  async amend(
    segment: TransportSegment,
    change: RideChange,
    traced: Traced & { reason: string },
  ): Promise<TransportSegment> {
    const id = segmentIdOf(segment.urn)!;
    let ride: SegmentRide | null = null;
    if (segment.status === "BOOKED" && segment.ride) {
      const sharing = await this.sharing(segment);
      const vehicleType = change.vehicleType ?? segment.vehicleType;
      const pickupAt = change.pickupAt ?? segment.scheduledAt;
      const answer =
        sharing.length === 0
          ? await this.binding.provider.amend(segment.ride.rideId, change)
          : await this.binding.provider.book({
              ...rideRequestOf([segment], vehicleType, pickupAt),
              reference: uuidFromParts("ride-ref-", segment.urn, `v${segment.version}`),
              callbackUrl: this.binding.callbackUrl,
            });
      ride = segmentRide(this.binding.provider.id, answer, null, 1, 1);
    }
    const command = { ...traced, ride };
    let after =
      change.pickupAt !== undefined
        ? await this.turn(id, "retime", { ...command, scheduledAt: change.pickupAt })
        : segment;
    if (change.vehicleType !== undefined) {
      after = await this.turn(id, "changeVehicle", { ...command, vehicleType: change.vehicleType });
    }
    return after.status === "PENDING" ? this.retry(after, traced) : after;
  }

  /**
   * Cancels a segment, and its ride at the provider unless other groups still ride in it. A
   * cancelled segment is answered as it is. The provider's failure leaves the segment standing, so
   * the cancellation can be asked again.
   */
  async cancel(segment: TransportSegment, traced: Traced & { reason: string }): Promise<TransportSegment> {
    if (segment.status === "CANCELLED") return segment;
    if (segment.status === "BOOKED" && segment.ride && (await this.sharing(segment)).length === 0) {
      await this.binding.provider.cancel(segment.ride.rideId, traced.reason);
    }
    return this.turn(segmentIdOf(segment.urn)!, "cancel", traced);
  }

  /** Records a provider report on a segment; see src/domain/transport/transport-segment.ts `recordProgress`. */
  async progress(
    segment: TransportSegment,
    progress: Parameters<TransportSegmentActor["progress"]>[0]["progress"],
    traced: Traced,
  ): Promise<TransportSegment> {
    return this.turn(segmentIdOf(segment.urn)!, "progress", { ...traced, progress });
  }

  async get(segmentUrn: string): Promise<TransportSegment | undefined> {
    const id = segmentIdOf(segmentUrn);
    return id === undefined ? undefined : this.actors.invoke(TransportSegmentActor, id, "get");
  }

  /** The other standing segments riding in the same ride. */
  private async sharing(segment: TransportSegment): Promise<TransportSegment[]> {
    if (!segment.ride) return [];
    return (await this.index.ofRide(segment.ride.rideId)).filter(
      (s) => s.urn !== segment.urn && ACTIVE_SEGMENT_STATUSES.has(s.status),
    );
  }

  private async bookRide(
    pending: TransportSegment[],
    order: Pick<RideOrder, "vehicleType" | "pickupAt" | "poolId">,
    traced: Traced,
  ): Promise<TransportSegment[]> {
    const reference = uuidFromParts("ride-ref-", ...pending.map((s) => `${s.urn}#${s.generation}`).sort());
    const total = pending.reduce((sum, s) => sum + s.passengers, 0);
    try {
      const ride = await this.binding.provider.book({
        ...rideRequestOf(pending, order.vehicleType, order.pickupAt),
        reference,
        callbackUrl: this.binding.callbackUrl,
      });
      const poolId = pending.length > 1 ? order.poolId : null;
      return Promise.all(
        pending.map((s) =>
          this.turn(segmentIdOf(s.urn)!, "confirm", {
            ...traced,
            ride: segmentRide(this.binding.provider.id, ride, poolId, s.passengers, total),
          }),
        ),
      );
    } catch (error) {
      const refusal = classifyFailure(error);
      if (!refusal) throw error;
      const method = refusal.permanent ? "decline" : "providerFailed";
      return Promise.all(
        pending.map((s) =>
          this.turn(segmentIdOf(s.urn)!, method, { ...traced, providerError: refusal.code }),
        ),
      );
    }
  }

  /** One actor turn, its segment copied to the index before it is answered. */
  private async turn<
    M extends
      | "request"
      | "confirm"
      | "decline"
      | "providerFailed"
      | "retime"
      | "changeVehicle"
      | "cancel"
      | "progress",
  >(id: string, method: M, command: Parameters<TransportSegmentActor[M]>[0]): Promise<TransportSegment> {
    const invoke = this.actors.invoke.bind(this.actors) as (
      actor: typeof TransportSegmentActor,
      actorId: string,
      name: string,
      arg: unknown,
    ) => Promise<{ segment: TransportSegment }>;
    const { segment } = await invoke(TransportSegmentActor, id, method, command);
    await this.index.record(segment);
    return segment;
  }
}

/** What the provider is asked for the legs: every pickup and drop-off point they share. */
function rideRequestOf(legs: readonly TransportSegment[], vehicleType: VehicleType, pickupAt: string) {
  const distinct = (values: string[]) => [...new Set(values)].join(" / ");
  return {
    vehicleType,
    passengers: legs.reduce((sum, s) => sum + s.passengers, 0),
    pickupLocation: distinct(legs.map((s) => s.pickupLocation)),
    dropoffLocation: distinct(legs.map((s) => s.dropoffLocation)),
    pickupAt,
    specialRequirements: [...new Set(legs.flatMap((s) => s.specialRequirements))],
  };
}

/** The segment's view of a ride; a shared run's price is split by seats. */
function segmentRide(
  provider: string,
  ride: Ride,
  poolId: string | null,
  seats: number,
  totalSeats: number,
): SegmentRide {
  return {
    provider,
    rideId: ride.rideId,
    poolId,
    vehicle: ride.vehicle,
    driver: ride.driver,
    dispatcherPhone: ride.dispatcherPhone,
    etaAt: ride.etaAt,
    quote: money(Math.round((ride.price.amountMinor * seats) / totalSeats), ride.price.currency),
  };
}

/**
 * A provider failure the segment records: a permanent refusal (its code: the leg is DECLINED), or
 * the provider out of reach (the leg stays PENDING); anything else is not the provider's answer.
 */
function classifyFailure(error: unknown): { permanent: boolean; code: string } | undefined {
  if (error instanceof VendorError) return { permanent: !error.retryable, code: error.vendorCode };
  if (CircuitOpenError.is(error)) return { permanent: false, code: "CIRCUIT_OPEN" };
  return undefined;
}
