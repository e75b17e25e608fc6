import { CaseActor } from "../../../actors/CaseActor.js";
import { DemandActor } from "../../../actors/DemandActor.js";
import type { Demand } from "../../domain/demand.js";
import { roomsNeededFor } from "../../domain/demand.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { caseRefOf } from "../cases/case-changes.js";
import { DemandAdministration } from "../demand/demand-administration.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Who requests the rooms of a newly opened case. */
export const INTAKE_ACTOR = "urn:system:intake";

/**
 * A case opened (by a push or an operator) asks for its rooms at once: INITIAL demand for the rooms
 * every group needs (src/domain/demand.ts roomsNeededFor). The airport's policy then approves it
 * automatically, or leaves it for a supervisor (spec 3.1), and approval starts allocation. Once per
 * case: a case that already has INITIAL demand (from an earlier delivery, or an operator) is left
 * alone.
 */
@injectable()
export class IntakeDemand {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(DemandAdministration) private readonly demand: DemandAdministration,
  ) {}

  async onCaseOpened(caseUrn: string, correlationUrn: string): Promise<Demand | undefined> {
    const { id } = caseRefOf(caseUrn);
    const record = await this.actors.invoke(CaseActor, id, "get");
    if (!record || record.status === "CLOSED") return undefined;
    const ledger = await this.actors.invoke(DemandActor, id, "get");
    if (ledger?.demands.some((d) => d.type === "INITIAL" && d.state !== "REJECTED")) return undefined;
    const roomsRequested = record.passengerGroups.reduce((sum, group) => sum + roomsNeededFor(group), 0);
    if (roomsRequested === 0) return undefined;
    return this.demand.request({ principal: systemPrincipal(record.tenant), correlationUrn }, record.urn, {
      type: "INITIAL",
      roomsRequested,
    });
  }
}

/** The intake flow acting inside one airline, bound to no airport. */
function systemPrincipal(tenant: string): OperatorPrincipal {
  return {
    surface: "operator",
    actorUrn: INTAKE_ACTOR,
    tenant,
    role: "OPS_SUPERVISOR",
    amr: [],
    expiresAt: Number.MAX_SAFE_INTEGER,
  };
}
