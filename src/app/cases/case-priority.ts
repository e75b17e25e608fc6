import { inject, injectable } from "tsyringe";
import { CaseActor, type CaseChangeResult } from "../../../actors/CaseActor.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { type BoundDecision, PartnerWriteBounds } from "../partner-write-bounds.js";
import type { PartnerPrincipal } from "../principals.js";
import { CaseChanges } from "./case-changes.js";

export type PriorityRequestOutcome =
  | { limited: true; retryAfterSeconds: number }
  | { limited: false; result: CaseChangeResult };

/**
 * `POST /partner/v1/cases/{case_urn}/priority-request` (spec 4.3, scope cases.priority.request): a
 * partner of the case's airline asks for the case to be handled sooner. The case actor raises its
 * priority one level (src/domain/case-priority.ts), which operators see on the case list and detail
 * and on their live channel (`case:updated`, cause `case.priority-raised`); the change is audited
 * against the partner with its reason. Each registration has a bound of its own
 * (src/app/partner-write-bounds.ts); a request on a case of another airline is refused before it
 * spends any.
 */
@injectable()
export class CasePriorityRequests {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly changes: CaseChanges,
    @inject(PartnerWriteBounds) private readonly bounds: PartnerWriteBounds,
  ) {}

  async request(
    partner: PartnerPrincipal,
    caseUrn: string,
    reason: string,
    correlationUrn: string,
  ): Promise<PriorityRequestOutcome> {
    await this.changes.snapshot(caseUrn, partner);
    const bound: BoundDecision = await this.bounds.take(partner, "priority-request");
    if (!bound.allowed) return { limited: true, retryAfterSeconds: bound.retryAfterSeconds };
    const result = await this.changes.change({
      caseUrn,
      caller: partner,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "requestPriority", {
          reason,
          by: partner.actorUrn,
          correlationUrn,
        }),
    });
    return { limited: false, result };
  }
}
