import {
  PolicyContextActor,
  type PolicyHistory,
  type PolicyTurn,
} from "../../../actors/PolicyContextActor.js";
import { DomainError } from "../../domain/domain-error.js";
import { ANY, applyDefaults, type Policy, type PolicyInput } from "../../domain/policy/policy.js";
import { policyContextKey } from "../../domain/policy/policy-context.js";
import type { PolicyPatch } from "../../domain/policy/policy-patch.js";
import type { OperatorPrincipal } from "../principals.js";
import { assertAirport, assertTenant } from "../authorization.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { AuditLog } from "../audit-log.js";
import { policyAddress, policyContextId } from "../../domain/policy/policy-addresses.js";
import { airlineCodeOf, PolicyIndex } from "./policy-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Who asks for a change, and the request's trace for the audit entry. */
export interface PolicyRequest {
  principal: OperatorPrincipal;
  correlationUrn: string;
  /** Why; goes to the audit entry with the before/after snapshots (spec 3.2). */
  reason?: string;
}

/**
 * Creating, patching, activating and deactivating policies (spec 2.4, 3.2). Each change is one turn
 * of the context's PolicyContextActor; the new state is then copied to the query index and every
 * policy the turn changed gets an audit entry with actor, time, reason and before/after snapshots.
 */
@injectable()
export class PolicyAdministration {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(PolicyIndex) private readonly index: PolicyIndex,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  /** A new DRAFT (no effect until activated) for the caller's airline. */
  async create(request: PolicyRequest, input: PolicyInput): Promise<Policy> {
    const { principal } = request;
    const airline = input.context.airline ?? ANY;
    if (airline !== ANY && airline !== airlineCodeOf(principal.tenant)) {
      throw new DomainError(
        "forbidden",
        "tenant-mismatch",
        `Policies of airline ${airline} belong to another tenant`,
      );
    }
    assertAirport(principal, input.context.airport ?? ANY);
    const contextKey = policyContextKey(applyDefaults(input));
    const turn = await this.actors.invoke(
      PolicyContextActor,
      policyContextId(principal.tenant, contextKey),
      "create",
      { tenant: principal.tenant, input },
    );
    await this.record(request, "policy.create", turn, input, true);
    return turn.after;
  }

  async patch(request: PolicyRequest, urn: string, patch: PolicyPatch): Promise<Policy> {
    await this.get(request.principal, urn, "write");
    const turn = await this.actors.invoke(PolicyContextActor, this.actorIdOf(urn), "patch", { urn, patch });
    await this.record(request, "policy.patch", turn, patch);
    return turn.after;
  }

  /**
   * DRAFT or ARCHIVED to ACTIVE, archiving the context's previous active policy in the same turn.
   * Activating an ARCHIVED policy is the rollback; `version` also restores an earlier version's rules.
   */
  async activate(request: PolicyRequest, urn: string, version?: number): Promise<Policy> {
    await this.get(request.principal, urn, "write");
    const turn = await this.actors.invoke(PolicyContextActor, this.actorIdOf(urn), "activate", {
      urn,
      ...(version !== undefined ? { version } : {}),
    });
    await this.record(request, "policy.activate", turn, { version });
    return turn.after;
  }

  async deactivate(request: PolicyRequest, urn: string): Promise<Policy> {
    await this.get(request.principal, urn, "write");
    const turn = await this.actors.invoke(PolicyContextActor, this.actorIdOf(urn), "deactivate", { urn });
    await this.record(request, "policy.deactivate", turn, {});
    return turn.after;
  }

  /**
   * A policy of the caller's airline with its versions. Reading a policy for every airport is open
   * to an airport-scoped caller; changing it is not.
   */
  async get(
    principal: OperatorPrincipal,
    urn: string,
    purpose: "read" | "write" = "read",
  ): Promise<PolicyHistory> {
    const address = policyAddress(urn);
    const found =
      address && (await this.actors.invoke(PolicyContextActor, address.contextId, "get", { urn }));
    if (!found) throw new DomainError("not-found", "policy", `No policy ${urn}`);
    assertTenant(principal, found.tenant);
    const airport = found.current.context.airport;
    if (purpose === "write" || airport !== ANY) assertAirport(principal, airport);
    const { tenant, ...history } = found;
    return history;
  }

  private actorIdOf(urn: string): string {
    return policyAddress(urn)!.contextId;
  }

  private async record(
    request: PolicyRequest,
    action: string,
    turn: PolicyTurn,
    payload: unknown,
    created = false,
  ): Promise<void> {
    await this.index.record(turn.snapshot);
    if (!turn.changed) return;
    const entry = {
      tenant: request.principal.tenant,
      actorUrn: request.principal.actorUrn,
      correlationUrn: request.correlationUrn,
      caseUrn: null,
      payload,
      ...(request.reason ? { reason: request.reason } : {}),
    };
    await this.audit.append({
      ...entry,
      action,
      entityUrn: turn.after.urn,
      before: created ? null : turn.before,
      after: turn.after,
    });
    for (const archived of turn.archived) {
      await this.audit.append({
        ...entry,
        action: "policy.deactivate",
        entityUrn: archived.after.urn,
        reason: `Superseded by ${turn.after.urn} (version ${turn.after.version})${
          request.reason ? `: ${request.reason}` : ""
        }`,
        before: archived.before,
        after: archived.after,
      });
    }
  }
}
