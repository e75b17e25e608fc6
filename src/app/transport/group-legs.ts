import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { inject, injectable } from "tsyringe";
import { BookingActor, holdingReservation } from "../../../actors/BookingActor.js";
import type { CaseGroupView, CaseSnapshot } from "../../../actors/CaseActor.js";
import type { CaseRecord, PassengerGroup } from "../../domain/case.js";
import { DomainError } from "../../domain/domain-error.js";
import { POLICY_DEFAULTS, type PolicyTransport } from "../../domain/policy/policy.js";
import { passengerTier } from "../../domain/policy/tiers.js";
import type { Reservation } from "../../domain/reservation.js";
import { legEndpoints, vehicleForGroup } from "../../domain/transport/transfer-plan.js";
import type {
  SegmentRequest,
  TransportDirection,
  VehicleType,
} from "../../domain/transport/transport-segment.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { caseRefOf } from "../cases/case-changes.js";
import { policyForCase, policyForScope } from "../cases/case-policy.js";
import { PolicyIndex } from "../policies/policy-index.js";

/** The transport rules when no active policy governs the case: the defaults of spec 2.4's block. */
const DEFAULT_TRANSPORT: PolicyTransport = { mode: POLICY_DEFAULTS.transportMode, perTier: {} };

/** What a leg takes from its case. */
export type LegCase = Pick<CaseRecord, "tenant" | "urn" | "flight" | "nextFlight">;

export interface LegChoice {
  scheduledAt: string;
  vehicleType?: VehicleType;
  specialRequirements?: string[];
  requestedBy: string;
}

/**
 * What a group's leg is made of: its case, its holding reservation (the hotel end), its
 * passengers' special requirements and tiers, and the case's policy transport block.
 */
@injectable()
export class GroupLegs {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(PolicyIndex) private readonly policies: PolicyIndex,
  ) {}

  /** The transport block of the policy that governs the case (spec 2.4), or the defaults. */
  async transportOf(snapshot: CaseSnapshot): Promise<PolicyTransport> {
    return (await policyForCase(this.policies, snapshot.case))?.transport ?? DEFAULT_TRANSPORT;
  }

  /** As transportOf, from one group's view of the case. */
  async transportIn(view: DeepReadonly<CaseGroupView>): Promise<PolicyTransport> {
    const scope = { tenant: view.case.tenant, airport: view.case.flight.origin, tier: view.tier };
    return (await policyForScope(this.policies, scope))?.transport ?? DEFAULT_TRANSPORT;
  }

  /** The reservation housing each named group now, if any. */
  async holdingReservations(
    caseUrn: string,
    groupIds: string[],
  ): Promise<Map<string, DeepReadonly<Reservation>>> {
    const ledger = await this.actors.peek(BookingActor, caseRefOf(caseUrn).id, "groupLedger", groupIds);
    const holding = new Map<string, DeepReadonly<Reservation>>();
    if (!ledger) return holding;
    for (const groupId of groupIds) {
      const reservation = holdingReservation(ledger, groupId);
      if (reservation) holding.set(groupId, reservation);
    }
    return holding;
  }

  /** The leg of `group` in `direction` to or from `reservation`'s hotel. */
  legOf(
    record: DeepReadonly<LegCase>,
    group: DeepReadonly<PassengerGroup>,
    reservation: DeepReadonly<Reservation>,
    direction: TransportDirection,
    transport: PolicyTransport,
    choice: LegChoice,
  ): SegmentRequest {
    const specialRequirements = [
      ...new Set([
        ...group.passengers.flatMap((p) => p.specialRequirements ?? []),
        ...(choice.specialRequirements ?? []),
      ]),
    ];
    return {
      tenant: record.tenant,
      caseUrn: record.urn,
      airport: record.flight.origin,
      groupId: group.id,
      reservationUrn: reservation.urn,
      direction,
      scheduledAt: new Date(choice.scheduledAt).toISOString(),
      vehicleType:
        choice.vehicleType ??
        vehicleForGroup(transport, group.passengers.map(passengerTier), specialRequirements),
      specialRequirements,
      passengers: group.passengers.length,
      ...legEndpoints(direction, record.flight.origin, reservation.hotel),
      ...(direction === "HOTEL_TO_AIRPORT" && record.nextFlight
        ? { flightDeparture: record.nextFlight.scheduledDeparture }
        : {}),
      requestedBy: choice.requestedBy,
    };
  }
}

export function groupOf(snapshot: CaseSnapshot, groupId: string): PassengerGroup {
  const group = snapshot.case.passengerGroups.find((g) => g.id === groupId);
  if (!group) {
    throw new DomainError("not-found", "group-not-found", `The case has no group ${groupId}`, {
      groupIds: [groupId],
    });
  }
  return group;
}
