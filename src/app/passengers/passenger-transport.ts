import { DomainError } from "../../domain/domain-error.js";
import type { VoucherTransport } from "../../domain/voucher.js";
import type { PassengerSnapshot } from "./passenger-snapshot.js";

/**
 * `GET /v1/me/transport` (spec 4.4: "booked, pending, declined"): the group's ground transport.
 * Ground transport is not booked by the service yet, so every group's answer is NONE with no legs;
 * the shape is the one booked transport will fill (status and legs as the voucher prints them).
 */
export interface PassengerTransport {
  status: "NONE" | "PENDING" | "BOOKED" | "DECLINED";
  legs: VoucherTransport[];
  onDemand: { allowed: boolean; reason: string };
}

/**
 * Whether the case's policy lets a passenger ask for a ride (spec 4.4 `POST
 * /v1/me/transport/request`, "only when policy allows"). A policy's transport rules
 * (src/domain/policy/policy.ts `PolicyTransport`: a mode per tier, pickup lead time, shuttle size)
 * say how booked transport is made and carry no on-demand permission, so no policy grants it.
 */
export const ON_DEMAND_TRANSPORT_REFUSAL =
  "The airline's hotel policy for this case does not offer on-demand transport: no policy grants a passenger the right to ask for a ride";

export function passengerTransportOf(_snapshot: PassengerSnapshot): PassengerTransport {
  return { status: "NONE", legs: [], onDemand: { allowed: false, reason: ON_DEMAND_TRANSPORT_REFUSAL } };
}

/** `POST /v1/me/transport/request`: refused (403) while no policy allows on-demand transport. */
export function requestOnDemandTransport(snapshot: PassengerSnapshot): never {
  const { onDemand } = passengerTransportOf(snapshot);
  throw new DomainError("forbidden", "transport-not-allowed", onDemand.reason);
}
