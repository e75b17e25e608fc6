import { DemandActor, type DemandTurn } from "../../../actors/DemandActor.js";
import { assertCaseOpen } from "../../domain/case-lifecycle.js";
import type { Demand, DemandType } from "../../domain/demand.js";
import { DomainError } from "../../domain/domain-error.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { AuditLog } from "../audit-log.js";
import { PolicyIndex } from "../policies/policy-index.js";
import { caseFor } from "../cases/case-access.js";
import { policyForCase } from "../cases/case-policy.js";
import { caseIdOf, demandAddress } from "../../domain/demand-addresses.js";
import { DemandIndex } from "./demand-index.js";
import { AirportFreezes } from "./airport-freezes.js";
import { assertNotFrozen } from "../../domain/airport-freeze.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface DemandRequest {
  principal: OperatorPrincipal;
  correlationUrn: string;
}

/**
 * Requesting room demand for a case and deciding it (spec 2.3, 3.1). The policy that resolves for
 * the case decides auto-approval when the demand is created; otherwise a supervisor approves or
 * rejects it with a reason. At a frozen airport (src/domain/airport-freeze.ts) the system rejects
 * new demand at once and no supervisor may approve. Each change is one turn of the case's DemandActor, copied to the
 * `demands` index and audited with who, when, why, before/after and the policy version.
 */
@injectable()
export class DemandAdministration {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(PolicyIndex) private readonly policies: PolicyIndex,
    @inject(DemandIndex) private readonly demands: DemandIndex,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(AirportFreezes) private readonly freezes: AirportFreezes,
  ) {}

  async request(
    request: DemandRequest,
    caseUrn: string,
    body: { type: DemandType; roomsRequested: number },
  ): Promise<Demand> {
    const record = await caseFor(this.actors, request.principal, caseUrn);
    assertCaseOpen(record);
    const policy = await policyForCase(this.policies, record);
    const freeze = await this.freezes.of(record.tenant, record.flight.origin);
    const turn = await this.actors.invoke(DemandActor, caseIdOf(record.urn)!, "request", {
      tenant: record.tenant,
      caseUrn: record.urn,
      airport: record.flight.origin,
      type: body.type,
      roomsRequested: body.roomsRequested,
      requestedBy: request.principal.actorUrn,
      correlationUrn: request.correlationUrn,
      ...(policy
        ? {
            policy: {
              urn: policy.urn,
              version: policy.version,
              autoApproveDemand: policy.autoApproveDemand,
              maxAutomaticRoomsPerWave: policy.maxAutomaticRoomsPerWave,
              incrementalRequiresApproval: policy.incrementalRequiresApproval,
            },
          }
        : {}),
      ...(freeze ? { freeze: { airport: freeze.airport, reason: freeze.reason } } : {}),
    });
    await this.record(request, "demand.request", turn, body);
    return turn.after;
  }

  approve(request: DemandRequest, urn: string, reason: string): Promise<Demand> {
    return this.decide(request, urn, reason, "approve");
  }

  reject(request: DemandRequest, urn: string, reason: string): Promise<Demand> {
    return this.decide(request, urn, reason, "reject");
  }

  private async decide(
    request: DemandRequest,
    urn: string,
    reason: string,
    decision: "approve" | "reject",
  ): Promise<Demand> {
    const address = demandAddress(urn);
    const notFound = () => new DomainError("not-found", "demand", `No demand ${urn}`);
    if (!address) throw notFound();
    const record = await caseFor(this.actors, request.principal, `urn:case:${address.caseId}`, notFound);
    assertCaseOpen(record);
    if (decision === "approve") assertNotFrozen(await this.freezes.of(record.tenant, record.flight.origin));
    const turn = await this.actors.invoke(DemandActor, address.caseId, decision, {
      urn,
      by: request.principal.actorUrn,
      reason,
      correlationUrn: request.correlationUrn,
    });
    await this.record(request, `demand.${decision}`, turn, { reason }, reason);
    return turn.after;
  }

  private async record(
    request: DemandRequest,
    action: string,
    turn: DemandTurn,
    payload: unknown,
    reason?: string,
  ): Promise<void> {
    await this.demands.record(turn.ledger);
    const decision = turn.after.decisions.at(-1);
    await this.audit.append({
      tenant: request.principal.tenant,
      actorUrn: request.principal.actorUrn,
      action,
      entityUrn: turn.after.urn,
      caseUrn: turn.after.caseUrn,
      correlationUrn: request.correlationUrn,
      payload,
      ...(reason ? { reason } : decision ? { reason: decision.reason } : {}),
      before: turn.before ?? null,
      after: turn.after,
    });
  }
}
