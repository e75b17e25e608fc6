import type { VoucherTransport } from "../voucher.js";
import {
  type PassengerTransportStatus,
  passengerStatusOf,
  type TransportDirection,
  type TransportSegment,
  type VehicleType,
} from "./transport-segment.js";

/**
 * What the voucher and the passenger see of a group's segments (spec 2.8 "voucher with transport",
 * 3.6 and 4.4 "booked, pending, declined").
 */

/** The voucher's transport block: the confirmed legs, with the vehicle or driver when given. */
export function voucherLegsOf(segments: readonly TransportSegment[]): VoucherTransport[] {
  return ordered(segments)
    .filter((s) => (s.status === "BOOKED" || s.status === "COMPLETED") && s.ride)
    .map((s) => {
      const identifiers = [s.ride!.vehicle, s.ride!.driver].filter((v): v is string => !!v);
      return {
        direction: s.direction,
        pickupLocation: s.pickupLocation,
        pickupTime: s.scheduledAt,
        vehicle: identifiers.length > 0 ? identifiers.join(", ") : null,
        dispatcherPhone: s.ride!.dispatcherPhone,
      };
    });
}

export interface PassengerLeg extends VoucherTransport {
  segmentUrn: string;
  status: PassengerTransportStatus;
  vehicleType: VehicleType;
  /** When the vehicle is expected at the pickup point, once the provider says. */
  etaAt: string | null;
}

export interface PassengerTransportView {
  /** NONE when no leg stands (none asked for, or every one cancelled). */
  status: PassengerTransportStatus | "NONE";
  legs: PassengerLeg[];
}

/**
 * The group's legs as the passenger sees them: every leg that stands or was refused, cancelled
 * ones left out. The group's status is PENDING while a leg waits, else BOOKED when one is booked,
 * else DECLINED when one was refused, else NONE.
 */
export function passengerTransportView(segments: readonly TransportSegment[]): PassengerTransportView {
  const legs = ordered(segments).flatMap((s): PassengerLeg[] => {
    const status = passengerStatusOf(s.status);
    if (!status) return [];
    const [voucher] = voucherLegsOf([s]);
    return [
      {
        segmentUrn: s.urn,
        status,
        vehicleType: s.vehicleType,
        direction: s.direction,
        pickupLocation: s.pickupLocation,
        pickupTime: s.scheduledAt,
        vehicle: voucher?.vehicle ?? null,
        dispatcherPhone: s.ride?.dispatcherPhone ?? null,
        etaAt: s.ride?.etaAt ?? null,
      },
    ];
  });
  const has = (status: PassengerTransportStatus) => legs.some((l) => l.status === status);
  const status = has("PENDING")
    ? "PENDING"
    : has("BOOKED")
      ? "BOOKED"
      : has("DECLINED")
        ? "DECLINED"
        : "NONE";
  return { status, legs };
}

const DIRECTION_ORDER: Record<TransportDirection, number> = { AIRPORT_TO_HOTEL: 0, HOTEL_TO_AIRPORT: 1 };

function ordered(segments: readonly TransportSegment[]): TransportSegment[] {
  return [...segments].sort((a, b) => DIRECTION_ORDER[a.direction] - DIRECTION_ORDER[b.direction]);
}
