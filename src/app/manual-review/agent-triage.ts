import { AgentActionActor } from "../../../actors/AgentActionActor.js";
import { type AgentAction, agentActionUrnFor, EXCEPTION_AGENT } from "../../domain/agent/agent-action.js";
import {
  applyAdvice,
  type Classification,
  classify,
  propose,
  proposalKey,
  type TriageGroup,
} from "../../domain/agent/triage.js";
import type { ReviewItem } from "../../domain/review-item.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { type AuditLog, changeEntry } from "../audit-log.js";
import { assertAirport, assertTenant } from "../authorization.js";
import { CaseChanges } from "../cases/case-changes.js";
import type { OperatorPrincipal } from "../principals.js";
import { type AgentAdvisor } from "./agent-advisor.js";
import { agentActionRefOf } from "./agent-action-addresses.js";
import { ReviewItemChanges } from "./review-item-changes.js";
import { ReviewQueueIndex } from "./review-queue-index.js";
import { inject, injectable } from "tsyringe";

export interface Triage {
  reviewItemUrn: string;
  caseUrn: string;
  classification: Classification;
  /** At most three, best first (`rank`). */
  proposals: AgentAction[];
}

/**
 * The exception agent at work (spec 4.1 POST /v1/agent/triage, 4.2): it classifies an item's cause
 * and records its next actions, ranked by the rules (src/domain/agent/triage.ts) over the item's
 * recommendations, and re-ranked by the optional language model. Each proposal is an
 * AgentActionActor, audited under the agent's URN when first proposed. It runs on every new item.
 */
@injectable()
export class AgentTriage {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(ReviewItemChanges) private readonly items: ReviewItemChanges,
    @inject(ReviewQueueIndex) private readonly index: ReviewQueueIndex,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(TOKENS.agentAdvisor) private readonly advisor: AgentAdvisor,
  ) {}

  async triageItem(caller: OperatorPrincipal, urn: string, correlationUrn: string): Promise<Triage> {
    const item = await this.items.find(urn, caller);
    return this.triage(item, correlationUrn);
  }

  /** Every unresolved item of the case the caller may see, most urgent first. */
  async triageCase(caller: OperatorPrincipal, caseUrn: string, correlationUrn: string): Promise<Triage[]> {
    const snapshot = await this.cases.snapshot(caseUrn, caller);
    assertTenant(caller, snapshot.case.tenant);
    assertAirport(caller, snapshot.case.flight.origin);
    const entries = await this.index.unresolvedOfCase(caller.tenant, snapshot.case.urn);
    const sorted = [...entries].sort(
      (a, b) => a.priorityRank - b.priorityRank || a.createdAt.localeCompare(b.createdAt),
    );
    const triages: Triage[] = [];
    for (const entry of sorted) {
      const item = await this.items.find(entry.urn, caller);
      if (item.state !== "RESOLVED") triages.push(await this.triage(item, correlationUrn));
    }
    return triages;
  }

  /** Spec 4.2: the agent runs when an item is created; its recommendations become the first proposals. */
  async itemCreated(item: ReviewItem, correlationUrn: string): Promise<Triage> {
    return this.triage(item, correlationUrn);
  }

  private async triage(item: ReviewItem, correlationUrn: string): Promise<Triage> {
    const classification = classify(item);
    const groups = item.category === "MIXED_TIER_GROUP" ? await this.groupsOf(item) : [];
    const ruled = propose(item, item.recommendations, groups);
    const advice =
      ruled.length > 1
        ? await this.advisor
            .advise({ classification, proposals: ruled.map((p) => ({ ...p, key: proposalKey(p) })) })
            .catch(() => undefined)
        : undefined;
    const proposals: AgentAction[] = [];
    for (const proposal of applyAdvice(ruled, advice)) {
      const urn = agentActionUrnFor(item.tenant, item.urn, proposalKey(proposal));
      const { action, created } = await this.actors.invoke(
        AgentActionActor,
        agentActionRefOf(urn).id,
        "propose",
        {
          urn,
          tenant: item.tenant,
          caseUrn: item.caseUrn,
          reviewItemUrn: item.urn,
          airport: item.airport,
          cause: classification.cause,
          tool: proposal.tool,
          arguments: proposal.arguments,
          reason: proposal.reason,
          evidence: proposal.evidence,
          rank: proposal.rank,
          ...(proposal.explanation ? { explanation: proposal.explanation } : {}),
          correlationUrn,
        },
      );
      if (created) {
        await this.audit.append(
          changeEntry(
            {
              action: "agent-action.proposed",
              by: EXCEPTION_AGENT,
              reason: proposal.reason,
              before: null,
              after: {
                state: action.state,
                tool: action.tool,
                arguments: action.arguments,
                rank: action.rank,
              },
            },
            { tenant: item.tenant, entityUrn: urn, caseUrn: item.caseUrn },
            { correlationUrn },
          ),
        );
      }
      proposals.push(action);
    }
    return { reviewItemUrn: item.urn, caseUrn: item.caseUrn, classification, proposals };
  }

  private async groupsOf(item: ReviewItem): Promise<TriageGroup[]> {
    const snapshot = await this.cases.snapshot(item.caseUrn);
    return snapshot.case.passengerGroups;
  }
}
