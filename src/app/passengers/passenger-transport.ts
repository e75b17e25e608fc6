import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { type PassengerTransportView, passengerTransportView } from "../../domain/transport/segment-views.js";
import type { TransportDirection } from "../../domain/transport/transport-segment.js";
import { CaseChanges } from "../cases/case-changes.js";
import type { PassengerPrincipal } from "../principals.js";
import { PassengerSnapshots } from "./passenger-snapshot.js";
import { CaseTransfers } from "../transport/case-transfers.js";
import { GroupLegs } from "../transport/group-legs.js";
import { TransportSegmentIndex } from "../transport/transport-segment-index.js";

/**
 * `GET /v1/me/transport` (spec 4.4: "booked, pending, declined"): the group's ground-transport legs
 * with their ETA, and whether the passenger may ask for a ride (`POST /v1/me/transport/request`,
 * "only when policy allows": the case policy's `transport.passengerMayRequest`).
 */
export interface PassengerTransport extends PassengerTransportView {
  onDemand: { allowed: boolean; reason: string };
}

export const ON_DEMAND_TRANSPORT_REFUSAL =
  "The airline's policy for this case does not offer on-demand transport: passengers may not ask for a ride";
const ON_DEMAND_TRANSPORT_OFFER = "The airline's policy for this case lets passengers ask for a ride";

@injectable()
export class PassengerTransports {
  constructor(
    @inject(TransportSegmentIndex) private readonly segments: TransportSegmentIndex,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(GroupLegs) private readonly legs: GroupLegs,
    @inject(CaseTransfers) private readonly transfers: CaseTransfers,
    @inject(PassengerSnapshots) private readonly snapshots: PassengerSnapshots,
  ) {}

  async of(session: PassengerPrincipal): Promise<PassengerTransport> {
    // The group's snapshot refuses a group that left the case (404 `group-not-found`), as every read does.
    const [, segments, allowed] = await Promise.all([
      this.snapshots.of(session),
      this.segments.ofCase(session.tenant, session.caseUrn, session.groupId),
      this.mayRequest(session),
    ]);
    return {
      ...passengerTransportView(segments),
      onDemand: { allowed, reason: allowed ? ON_DEMAND_TRANSPORT_OFFER : ON_DEMAND_TRANSPORT_REFUSAL },
    };
  }

  /**
   * The passenger asks for a ride to the hotel (or back to the airport): refused (403) unless the
   * policy allows it; 409 while the group holds no reservation. A leg that stands already is
   * answered as it is, so asking twice books one ride.
   */
  async request(
    session: PassengerPrincipal,
    direction: TransportDirection,
    correlationUrn: string,
  ): Promise<PassengerTransport> {
    await this.snapshots.of(session);
    if (!(await this.mayRequest(session))) {
      throw new DomainError("forbidden", "transport-not-allowed", ON_DEMAND_TRANSPORT_REFUSAL);
    }
    const segment = await this.transfers.bookTransferForGroup({
      caseUrn: session.caseUrn,
      groupId: session.groupId,
      direction,
      correlationUrn,
      requestedBy: session.actorUrn,
    });
    if (!segment) {
      throw new DomainError(
        "conflict",
        "transport-not-possible",
        direction === "HOTEL_TO_AIRPORT"
          ? "No ride can be booked yet: the group has no hotel reservation or the case no next flight"
          : "No ride can be booked yet: the group has no hotel reservation",
      );
    }
    return this.of(session);
  }

  private async mayRequest(session: PassengerPrincipal): Promise<boolean> {
    const snapshot = await this.cases.snapshot(session.caseUrn, session);
    return (await this.legs.transportOf(snapshot)).passengerMayRequest === true;
  }
}
