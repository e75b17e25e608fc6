import { AgentActionActor, type AgentActionTurn } from "../../../actors/AgentActionActor.js";
import type { AgentAction, ApprovingOperator } from "../../domain/agent/agent-action.js";
import { DomainError } from "../../domain/domain-error.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { type AuditLog, changeEntry } from "../audit-log.js";
import { assertAirport, assertTenant } from "../authorization.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ConstraintOverride } from "../policies/policy-overrides.js";
import { agentActionRefOf } from "./agent-action-addresses.js";
import { ReviewActions } from "./review-actions.js";
import { inject, injectable } from "tsyringe";

interface Request {
  caller: OperatorPrincipal;
  urn: string;
  correlationUrn: string;
}

/** Failures an execution records on the action (FAILED); anything else is left to be retried. */
const RECORDED_FAILURES = new Set(["conflict", "unprocessable", "forbidden", "not-found", "invalid"]);

/**
 * What operators do with the agent's proposals (spec 4.1 POST /v1/agent/{agent_action_urn}/...):
 * approve, reject, execute. An execution goes through the review queue's own use cases
 * (ReviewActions: rebook, relax, split) as the operator who approved it, so the item's audit trail
 * reads as that operator's own action; an irreversible action nobody approved is refused (403).
 */
@injectable()
export class AgentActionDecisions {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(ReviewActions) private readonly review: ReviewActions,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  /** The action, once the caller may see it: same tenant (spec 5.4) and, if scoped, same airport. */
  async find(urn: string, caller: OperatorPrincipal): Promise<AgentAction> {
    const ref = agentActionRefOf(urn);
    const action = await this.actors.invoke(AgentActionActor, ref.id, "get");
    if (!action)
      throw new DomainError("not-found", "agent-action-not-found", `No agent action ${ref.urn}`, { urn });
    assertTenant(caller, action.tenant);
    assertAirport(caller, action.airport);
    return action;
  }

  async approve({ caller, urn, correlationUrn, reason }: Request & { reason: string | null }) {
    const action = await this.find(urn, caller);
    const operator: ApprovingOperator = {
      actorUrn: caller.actorUrn,
      tenant: caller.tenant,
      role: caller.role,
      ...(caller.airport ? { airport: caller.airport } : {}),
    };
    const turn = await this.actors.invoke(AgentActionActor, agentActionRefOf(action.urn).id, "approve", {
      operator,
      reason,
      correlationUrn,
    });
    return this.recorded(turn, caller, correlationUrn);
  }

  async reject({ caller, urn, correlationUrn, reason }: Request & { reason: string | null }) {
    const action = await this.find(urn, caller);
    const turn = await this.actors.invoke(AgentActionActor, agentActionRefOf(action.urn).id, "reject", {
      by: caller.actorUrn,
      reason,
      correlationUrn,
    });
    return this.recorded(turn, caller, correlationUrn);
  }

  async execute({ caller, urn, correlationUrn }: Request): Promise<AgentAction> {
    const action = await this.find(urn, caller);
    const id = agentActionRefOf(action.urn).id;
    const begun = await this.actors.invoke(AgentActionActor, id, "beginExecution", { caller });
    const as = principalOf(begun.as, caller);
    let error: { code: string; message: string } | null = null;
    try {
      await this.run(action, as, correlationUrn);
    } catch (failure) {
      if (!(failure instanceof DomainError) || !RECORDED_FAILURES.has(failure.kind)) {
        // Not the queue's refusal (an outage, say): the action is free to be executed again.
        await this.actors.invoke(AgentActionActor, id, "releaseExecution");
        throw failure;
      }
      error = { code: failure.code, message: failure.message };
    }
    const turn = await this.actors.invoke(
      AgentActionActor,
      agentActionRefOf(action.urn).id,
      "recordExecution",
      {
        by: caller.actorUrn,
        as: as.actorUrn,
        error,
        correlationUrn,
      },
    );
    return this.recorded(turn, caller, correlationUrn);
  }

  /** The tool's review-queue use case, as `as`. */
  private async run(action: AgentAction, as: OperatorPrincipal, correlationUrn: string): Promise<void> {
    const request = {
      caller: as,
      urn: action.reviewItemUrn,
      correlationUrn,
      reason: `${action.reason} (exception agent proposal ${action.urn})`,
    };
    const args = action.arguments;
    switch (action.tool) {
      case "proposeRebook":
        await this.review.rebook({ ...request, hotelUrn: String(args.hotelUrn) });
        return;
      case "relax":
        await this.review.relax({ ...request, fields: args.fields as ConstraintOverride });
        return;
      case "split":
        await this.review.split({ ...request, into: args.into as string[][] });
        return;
      default:
        // search and rerunAllocation are allowed to the agent but no rule proposes them as an action.
        throw new DomainError(
          "unprocessable",
          "agent-tool-not-executable",
          `Tool ${action.tool} gathers evidence; it has nothing to execute`,
          { tool: action.tool },
        );
    }
  }

  private async recorded(turn: AgentActionTurn, caller: OperatorPrincipal, correlationUrn: string) {
    const { action, change } = turn;
    if (change) {
      await this.audit.append(
        changeEntry(
          change,
          { tenant: action.tenant, entityUrn: action.urn, caseUrn: action.caseUrn },
          {
            caller,
            correlationUrn,
          },
        ),
      );
    }
    return action;
  }
}

/**
 * The principal an execution runs as: the caller, or the approver as the approval recorded them
 * (their role, tenant and airport; the approval itself was an authenticated, audited request).
 */
function principalOf(operator: ApprovingOperator, caller: OperatorPrincipal): OperatorPrincipal {
  if (operator.actorUrn === caller.actorUrn) return caller;
  return {
    surface: "operator",
    actorUrn: operator.actorUrn,
    tenant: operator.tenant,
    role: operator.role,
    ...(operator.airport ? { airport: operator.airport } : {}),
    amr: [],
    expiresAt: caller.expiresAt,
  };
}
