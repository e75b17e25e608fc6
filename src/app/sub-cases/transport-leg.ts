import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { TRANSPORT_DIRECTIONS } from "../../domain/transport/transport-segment.js";
import type { StepCall, StepOutcome } from "../../workflows/sub-case-saga/model.js";
import { CaseChanges } from "../cases/case-changes.js";
import { CaseTransfers } from "../transport/case-transfers.js";
import { GroupLegs } from "../transport/group-legs.js";
import { legDone, type SagaLeg } from "./saga-leg.js";

/**
 * The ground transport leg (spec 2.4 transport, 2.8): the group's ride from the airport to its
 * hotel and, once the case names the next flight, back, as the policy's mode for its tier says.
 * A leg the provider could not book yet stands PENDING and is retried by transport itself; a
 * refusal (nothing to ride to) is reported, not fatal. A policy with `transport.ridesWithOffer`
 * false leaves rides to operators (the case-wide, pooled transfer request) and passengers. Undone
 * by cancelling the group's rides.
 */
@injectable()
export class TransportLeg implements SagaLeg {
  constructor(
    @inject(CaseTransfers) private readonly transfers: CaseTransfers,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(GroupLegs) private readonly legs: GroupLegs,
  ) {}

  async run({ run }: StepCall): Promise<StepOutcome> {
    const view = await this.cases.groupView(run.caseUrn, run.groupId);
    const transport = await this.legs.transportIn(view);
    if (transport.ridesWithOffer === false) {
      return legDone({ segments: [], skipped: "the policy leaves rides to operators' transfer requests" });
    }
    const segments: { direction: string; segmentUrn: string; status: string }[] = [];
    try {
      for (const direction of TRANSPORT_DIRECTIONS) {
        const segment = await this.transfers.bookTransferForGroup({
          caseUrn: run.caseUrn,
          groupId: run.groupId,
          direction,
          correlationUrn: run.correlationUrn,
          within: { view, transport },
        });
        if (segment) segments.push({ direction, segmentUrn: segment.urn, status: segment.status });
      }
    } catch (error) {
      if (error instanceof DomainError && error.kind !== "unavailable") {
        return legDone({ segments, reason: error.message });
      }
      throw error;
    }
    return legDone({ segments });
  }

  async undo({ run }: StepCall): Promise<StepOutcome> {
    const cancelled = await this.transfers.cancelTransferForGroup({
      caseUrn: run.caseUrn,
      groupId: run.groupId,
      reason: "the passenger declined the offer",
      correlationUrn: run.correlationUrn,
    });
    return legDone({ segments: cancelled.map((s) => ({ segmentUrn: s.urn, status: s.status })) });
  }
}
