import { CaseActor } from "../../../actors/CaseActor.js";
import type { NextFlight } from "../../domain/case.js";
import { POLICY_DEFAULTS, type PolicyBuffers } from "../../domain/policy/policy.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { PolicyIndex } from "../policies/policy-index.js";
import { CaseChanges } from "./case-changes.js";
import { inject, injectable } from "tsyringe";

export interface ReaccommodationRequest {
  nextFlight: NextFlight;
  /** The airport's offset from UTC during the stay, in minutes (e.g. -300 for New York in winter). */
  utcOffsetMinutes: number;
  reason?: string;
}

/**
 * PATCH /cases/{urn}/reaccommodate: the next flight changed, so the stay plan is recomputed
 * (src/domain/reaccommodation.ts) with the early check-in and late check-out buffers of the policy
 * for the case's airport (none without a policy), groups without an overnight gap become
 * LOCAL_RESIDENT, and the plan goes out in case.reaccommodated for the booking flow to carry out.
 */
@injectable()
export class Reaccommodation {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly changes: CaseChanges,
    @inject(PolicyIndex) private readonly policies: PolicyIndex,
  ) {}

  async execute(
    caller: OperatorPrincipal,
    caseUrn: string,
    request: ReaccommodationRequest,
    correlationUrn: string,
  ) {
    const snapshot = await this.changes.snapshot(caseUrn, caller);
    const buffers = (await this.buffersOf(snapshot.case.tenant, snapshot.case.flight.origin)) ?? {
      earlyCheckInMinutes: POLICY_DEFAULTS.earlyCheckInMinutes,
      lateCheckoutMinutes: POLICY_DEFAULTS.lateCheckoutMinutes,
    };
    return this.changes.change({
      caseUrn,
      caller,
      correlationUrn,
      command: (id) =>
        this.actors.invoke(CaseActor, id, "reaccommodate", {
          nextFlight: request.nextFlight,
          utcOffsetMinutes: request.utcOffsetMinutes,
          buffers,
          ...(request.reason ? { reason: request.reason } : {}),
          by: caller.actorUrn,
          correlationUrn,
        }),
    });
  }

  /** The buffers of the policy that applies at the airport, when one does. */
  private async buffersOf(tenant: string, airport: string): Promise<PolicyBuffers | undefined> {
    return (await this.policies.resolve(tenant, { airport }))?.buffers;
  }
}
