import type { AgentActionDecisions } from "../../src/app/manual-review/agent-action-decisions.js";
import type { AgentTriage } from "../../src/app/manual-review/agent-triage.js";
import type { AgentAction } from "../../src/domain/agent/agent-action.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { supervisors } from "../../src/http/access.js";
import { defineRoute } from "../../src/http/route.js";
import {
  agentActionParams,
  agentActionSchema,
  decisionBody,
  triageBody,
  triageSchema,
} from "./agent-schemas.js";

const tags = ["Exception agent"];

function toWire(action: AgentAction) {
  const { tenant: _tenant, approval, ...wire } = action;
  return {
    ...wire,
    approval: approval ? { by: approval.by, reason: approval.reason, at: approval.at } : null,
  };
}

const actionResponse = (description: string) => ({ description, schema: agentActionSchema });
const refusals = {
  403: { description: "Wrong role, airport or tenant" },
  404: { description: "No such agent action" },
  409: {
    description:
      "`agent-action-decided`: the action was already rejected, executed or failed; `agent-action-executing`: " +
      "another execution of it is running",
  },
} as const;

/**
 * The exception agent (spec 4.1, OPS_SUPERVISOR and above): triage proposes, an operator approves
 * or rejects, execute runs the action through the review queue as the approving operator.
 */
export function agentRoutes(triage: AgentTriage, decisions: AgentActionDecisions) {
  /** Approve and reject: an operator's decision on an action, with an optional reason. */
  const decisionRoute = (decision: "approve" | "reject", summary: string) =>
    defineRoute({
      method: "POST",
      path: `/v1/agent/:actionUrn/${decision}`,
      operationId: `${decision}AgentAction`,
      summary,
      tags,
      access: supervisors,
      params: agentActionParams,
      body: decisionBody,
      responses: {
        200: actionResponse(decision === "approve" ? "The approved action" : "The rejected action"),
        ...refusals,
      },
      handler: async ({ params, body, principal, correlationUrn }) => ({
        status: 200,
        body: toWire(
          await decisions[decision]({
            caller: principal,
            urn: params.actionUrn,
            correlationUrn,
            reason: body.reason ?? null,
          }),
        ),
      }),
    });
  return [
    defineRoute({
      method: "POST",
      path: "/v1/agent/triage",
      operationId: "triageWithAgent",
      summary: "Classify a review item's (or a case's items') cause and propose at most three next actions",
      description:
        "Give `reviewItemUrn` or `caseUrn`. Each proposal names a tool of the agent's allow-list (search, " +
        "rerunAllocation, proposeRebook, relax, split), its reason and the evidence it used, ranked by viability. " +
        "Triaging again returns the same actions, in whatever state they reached.",
      tags,
      access: supervisors,
      body: triageBody,
      responses: {
        200: { description: "The triage of each item", schema: triageSchema },
        403: refusals[403],
        404: { description: "No such review item or case" },
        422: { description: "`triage-subject`: exactly one of reviewItemUrn and caseUrn is needed" },
      },
      handler: async ({ body, principal, correlationUrn }) => {
        const { reviewItemUrn, caseUrn } = body;
        if ((reviewItemUrn === undefined) === (caseUrn === undefined)) {
          throw new DomainError(
            "unprocessable",
            "triage-subject",
            "Name exactly one of reviewItemUrn and caseUrn",
          );
        }
        const triages = reviewItemUrn
          ? [await triage.triageItem(principal, reviewItemUrn, correlationUrn)]
          : await triage.triageCase(principal, caseUrn!, correlationUrn);
        return {
          status: 200,
          body: { triages: triages.map((t) => ({ ...t, proposals: t.proposals.map(toWire) })) },
        };
      },
    }),
    decisionRoute(
      "approve",
      "Approve an agent action; an irreversible one then executes as the approving operator",
    ),
    decisionRoute("reject", "Reject an agent action"),
    defineRoute({
      method: "POST",
      path: "/v1/agent/:actionUrn/execute",
      operationId: "executeAgentAction",
      summary: "Execute an agent action through the review queue",
      description:
        "Runs the action's review-queue use case (rebook, relax, split) as the operator who approved it, so the " +
        "item's audit trail reads as that operator's action. An irreversible action (proposeRebook) nobody " +
        "approved is refused with 403 `agent-action-not-approved`; a reversible one nobody approved runs as the " +
        "caller. When the review queue refuses, the action is FAILED with the refusal in `execution.error`.",
      tags,
      access: supervisors,
      params: agentActionParams,
      responses: {
        200: actionResponse("The action, EXECUTED or FAILED"),
        ...refusals,
        403: { description: "Wrong role, airport or tenant, or `agent-action-not-approved`" },
      },
      handler: async ({ params, principal, correlationUrn }) => ({
        status: 200,
        body: toWire(await decisions.execute({ caller: principal, urn: params.actionUrn, correlationUrn })),
      }),
    }),
  ];
}
