import { DomainError } from "../domain-error.js";
import type { Money } from "../money.js";
import { parseUrn } from "../urn.js";
import { uuidFromParts } from "../uuid.js";

/**
 * A ground-transport segment (spec 2.8): one leg of one passenger group, between the airport and
 * the group's hotel, booked with a ride provider. Spec 3.6 names the passenger's view of it
 * (booked, pending, declined) and leaves the segment's own states to the design; they are these:
 *
 *   PENDING    asked for; the ride provider has not confirmed a ride yet (or could not be reached)
 *   BOOKED     the provider confirmed a ride: vehicle, driver, dispatcher, ETA as they come
 *   COMPLETED  the provider reported the passengers dropped off
 *   DECLINED   the provider refused the ride (no vehicle for it) or cancelled it on its side
 *   CANCELLED  an operator or the saga's rollback cancelled it, with a reason
 *
 * A group has one segment per direction: its URN is derived from the case, the group and the
 * direction, so asking again lands on the same segment. A DECLINED or CANCELLED segment may be
 * asked for again: it goes back to PENDING, one generation on.
 */
export const TRANSPORT_DIRECTIONS = ["AIRPORT_TO_HOTEL", "HOTEL_TO_AIRPORT"] as const;
export type TransportDirection = (typeof TRANSPORT_DIRECTIONS)[number];

/** The policy's transport modes (spec 2.4) and the wheelchair van special requirements need (2.8). */
export const VEHICLE_TYPES = ["SHUTTLE", "PRIVATE_CAR", "TAXI", "WHEELCHAIR_VAN"] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

export const SEGMENT_STATUSES = ["PENDING", "BOOKED", "COMPLETED", "DECLINED", "CANCELLED"] as const;
export type SegmentStatus = (typeof SEGMENT_STATUSES)[number];

/** Statuses in which the segment still stands for a ride (asked for or confirmed). */
export const ACTIVE_SEGMENT_STATUSES: ReadonlySet<SegmentStatus> = new Set(["PENDING", "BOOKED"]);

/** What the ride provider confirmed, and what it reported since. */
export interface SegmentRide {
  provider: string;
  rideId: string;
  /** Set when the ride is a shuttle run shared with other groups of the case. */
  poolId: string | null;
  /** Vehicle description and plate, when the provider gave one. */
  vehicle: string | null;
  driver: string | null;
  dispatcherPhone: string | null;
  /** When the vehicle is expected at the pickup point (the provider's ETA). */
  etaAt: string | null;
  /** The provider's price for the group's share of the ride. */
  quote: Money | null;
}

export interface SegmentChange {
  by: string;
  reason: string;
  at: string;
}

/** What asking for a segment names; the derived fields (URN, status) come from the rules. */
export interface SegmentRequest {
  tenant: string;
  caseUrn: string;
  /** The case's airport, for airport-scoped operators. */
  airport: string;
  groupId: string;
  reservationUrn: string;
  direction: TransportDirection;
  /** Pickup time (ISO 8601 UTC). */
  scheduledAt: string;
  vehicleType: VehicleType;
  specialRequirements: string[];
  passengers: number;
  pickupLocation: string;
  dropoffLocation: string;
  /** The return leg's re-accommodated flight departure (ISO 8601 UTC), for its reminder e-mail. */
  flightDeparture?: string;
  requestedBy: string;
}

export interface TransportSegment extends SegmentRequest {
  urn: string;
  status: SegmentStatus;
  ride: SegmentRide | null;
  /** The provider's code when it refused the ride, or the last transient failure while PENDING. */
  providerError: string | null;
  cancellation: SegmentChange | null;
  /** Bumped each time the segment is asked for again after a refusal or a cancellation. */
  generation: number;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface SegmentTransition {
  segment: TransportSegment;
  /** False when the command repeated what was already so: nothing to store or publish. */
  changed: boolean;
}

export function segmentIdFor(caseUrn: string, groupId: string, direction: TransportDirection): string {
  return uuidFromParts("", caseUrn, groupId, direction);
}

export function segmentUrnFor(caseUrn: string, groupId: string, direction: TransportDirection): string {
  return `urn:transport-segment:${segmentIdFor(caseUrn, groupId, direction)}`;
}

/** The segment id of a URN (either URN form), or undefined when it is no segment's. */
export function segmentIdOf(segmentUrn: string): string | undefined {
  return parseUrn(segmentUrn, "transport-segment")?.id;
}

export function segmentNotFound(segmentUrn: string): DomainError {
  return new DomainError("not-found", "transport-segment", `No transport segment ${segmentUrn}`, {
    segmentUrn,
  });
}

/** The fields a repeated request must match to be a replay of the standing one. */
function sameRequest(segment: TransportSegment, request: SegmentRequest): boolean {
  return (
    segment.reservationUrn === request.reservationUrn &&
    segment.scheduledAt === request.scheduledAt &&
    segment.vehicleType === request.vehicleType &&
    segment.specialRequirements.join("\u0000") === request.specialRequirements.join("\u0000")
  );
}

/**
 * Asks for the leg. A new segment, or one DECLINED or CANCELLED before, becomes PENDING. A standing
 * (PENDING or BOOKED) segment asked for again with the same fields is unchanged (a replay); with
 * other fields it is a conflict: retime or change the vehicle instead, or cancel it first.
 */
export function requestSegment(
  existing: TransportSegment | undefined,
  request: SegmentRequest,
  now: Date,
): SegmentTransition {
  const at = now.toISOString();
  if (existing && !ACTIVE_SEGMENT_STATUSES.has(existing.status) && existing.status !== "COMPLETED") {
    return {
      changed: true,
      segment: {
        ...existing,
        ...request,
        specialRequirements: [...request.specialRequirements],
        status: "PENDING",
        ride: null,
        providerError: null,
        cancellation: null,
        generation: existing.generation + 1,
        version: existing.version + 1,
        updatedAt: at,
      },
    };
  }
  if (existing) {
    if (ACTIVE_SEGMENT_STATUSES.has(existing.status) && sameRequest(existing, request)) {
      return { segment: existing, changed: false };
    }
    throw new DomainError(
      "conflict",
      "transport-segment-exists",
      `The group's ${existing.direction} segment is ${existing.status}: retime it, change its vehicle or cancel it first`,
      { segmentUrn: existing.urn, status: existing.status },
    );
  }
  return {
    changed: true,
    segment: {
      urn: segmentUrnFor(request.caseUrn, request.groupId, request.direction),
      ...request,
      specialRequirements: [...request.specialRequirements],
      status: "PENDING",
      ride: null,
      providerError: null,
      cancellation: null,
      generation: 1,
      version: 1,
      createdAt: at,
      updatedAt: at,
    },
  };
}

function moved(segment: TransportSegment, changes: Partial<TransportSegment>, now: Date): SegmentTransition {
  return {
    changed: true,
    segment: { ...segment, ...changes, version: segment.version + 1, updatedAt: now.toISOString() },
  };
}

function refuse(segment: TransportSegment, action: string): never {
  throw new DomainError(
    "conflict",
    "transport-segment-not-changeable",
    `A ${segment.status} segment cannot be ${action}`,
    { segmentUrn: segment.urn, status: segment.status },
  );
}

/** The provider confirmed a ride: PENDING becomes BOOKED. The same ride again changes nothing. */
export function confirmRide(segment: TransportSegment, ride: SegmentRide, now: Date): SegmentTransition {
  if (segment.status === "BOOKED" && segment.ride?.rideId === ride.rideId) return { segment, changed: false };
  if (segment.status !== "PENDING") refuse(segment, "booked");
  return moved(segment, { status: "BOOKED", ride: { ...ride }, providerError: null }, now);
}

/** The provider refused the ride for good: PENDING becomes DECLINED with its code. */
export function declineRide(segment: TransportSegment, providerError: string, now: Date): SegmentTransition {
  if (segment.status === "DECLINED" && segment.providerError === providerError)
    return { segment, changed: false };
  if (segment.status !== "PENDING") refuse(segment, "declined");
  return moved(segment, { status: "DECLINED", providerError }, now);
}

/** The provider could not be reached: the segment stays PENDING, with the code, to be asked again. */
export function noteProviderFailure(
  segment: TransportSegment,
  providerError: string,
  now: Date,
): SegmentTransition {
  if (segment.status !== "PENDING" || segment.providerError === providerError)
    return { segment, changed: false };
  return moved(segment, { providerError }, now);
}

/** A new pickup time (operator retime, with a reason): a PENDING or BOOKED segment only. */
export function retime(
  segment: TransportSegment,
  scheduledAt: string,
  ride: SegmentRide | null,
  now: Date,
): SegmentTransition {
  if (!ACTIVE_SEGMENT_STATUSES.has(segment.status)) refuse(segment, "retimed");
  if (segment.scheduledAt === scheduledAt) return { segment, changed: false };
  return moved(segment, { scheduledAt, ...(ride ? { ride: { ...ride } } : {}) }, now);
}

/** Another vehicle type (operator, with a reason): a PENDING or BOOKED segment only. */
export function changeVehicle(
  segment: TransportSegment,
  vehicleType: VehicleType,
  ride: SegmentRide | null,
  now: Date,
): SegmentTransition {
  if (!ACTIVE_SEGMENT_STATUSES.has(segment.status)) refuse(segment, "given another vehicle");
  if (segment.vehicleType === vehicleType && (!ride || ride.vehicle === segment.ride?.vehicle))
    return { segment, changed: false };
  return moved(segment, { vehicleType, ...(ride ? { ride: { ...ride } } : {}) }, now);
}

/**
 * Cancels the leg (operator or saga rollback, with a reason). Cancelling a CANCELLED segment
 * changes nothing; a DECLINED one has no ride to cancel and becomes CANCELLED all the same, so the
 * leg is not asked for again by mistake; a COMPLETED one is history.
 */
export function cancelSegment(
  segment: TransportSegment,
  change: SegmentChange,
  now: Date,
): SegmentTransition {
  if (segment.status === "CANCELLED") return { segment, changed: false };
  if (segment.status === "COMPLETED") refuse(segment, "cancelled");
  return moved(segment, { status: "CANCELLED", cancellation: { ...change } }, now);
}

/** What the provider reports about a booked ride (its callbacks, spec 6.3). */
export type RideProgress =
  | { kind: "eta"; etaAt: string; vehicle?: string | null; driver?: string | null }
  | { kind: "completed" }
  | { kind: "cancelled"; code: string };

/**
 * Applies a provider report to a BOOKED segment. Reports about any other segment (one cancelled
 * meanwhile, a late report) change nothing: the provider's view follows ours, never the reverse.
 */
export function recordProgress(
  segment: TransportSegment,
  progress: RideProgress,
  now: Date,
): SegmentTransition {
  if (segment.status !== "BOOKED" || !segment.ride) return { segment, changed: false };
  switch (progress.kind) {
    case "eta": {
      const ride: SegmentRide = {
        ...segment.ride,
        etaAt: progress.etaAt,
        ...(progress.vehicle !== undefined ? { vehicle: progress.vehicle } : {}),
        ...(progress.driver !== undefined ? { driver: progress.driver } : {}),
      };
      if (JSON.stringify(ride) === JSON.stringify(segment.ride)) return { segment, changed: false };
      return moved(segment, { ride }, now);
    }
    case "completed":
      return moved(segment, { status: "COMPLETED" }, now);
    case "cancelled":
      return moved(segment, { status: "DECLINED", providerError: progress.code }, now);
  }
}

/** The passenger's word for a segment's state (spec 3.6), or null when the leg no longer stands. */
export type PassengerTransportStatus = "BOOKED" | "PENDING" | "DECLINED";

export function passengerStatusOf(status: SegmentStatus): PassengerTransportStatus | null {
  if (status === "BOOKED" || status === "COMPLETED") return "BOOKED";
  if (status === "PENDING") return "PENDING";
  if (status === "DECLINED") return "DECLINED";
  return null;
}

/** Spec 8.2: the return-leg transport e-mail goes about 12 hours before the re-accommodated flight. */
export const RETURN_LEG_EMAIL_BEFORE_FLIGHT_MS = 12 * 60 * 60 * 1000;

/**
 * When the return leg's reminder is due: 12 hours before its flight, or at once when the ride is
 * booked later than that; none for a leg to the hotel, without a known flight, or once the flight
 * has left.
 */
export function returnLegReminderAt(segment: TransportSegment, now: Date): Date | undefined {
  if (segment.direction !== "HOTEL_TO_AIRPORT" || !segment.flightDeparture) return undefined;
  const departure = Date.parse(segment.flightDeparture);
  if (Number.isNaN(departure) || departure <= now.getTime()) return undefined;
  return new Date(Math.max(now.getTime(), departure - RETURN_LEG_EMAIL_BEFORE_FLIGHT_MS));
}
