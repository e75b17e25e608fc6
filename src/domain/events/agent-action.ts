import type { AgentAction, AgentActionState } from "../agent/agent-action.js";

/** The events of an exception agent's proposal (AgentActionActor). */
export const AGENT_ACTION_EVENT = {
  proposed: "agent-action.proposed",
  approved: "agent-action.approved",
  rejected: "agent-action.rejected",
  executed: "agent-action.executed",
  failed: "agent-action.failed",
} as const;

/** What every event of an agent action carries: the action's state and version after the change. */
export interface AgentActionEventData {
  urn: string;
  caseUrn: string;
  reviewItemUrn: string;
  state: AgentActionState;
  version: number;
  tool: AgentAction["tool"];
}

export interface AgentActionProposedData extends AgentActionEventData {
  action: AgentAction;
}

export interface AgentActionDecidedData extends AgentActionEventData {
  by: string;
  reason: string | null;
}

export interface AgentActionExecutedData extends AgentActionEventData {
  by: string;
  as: string;
  error: { code: string; message: string } | null;
}

export interface AgentActionEventDataByType {
  "agent-action.proposed": AgentActionProposedData;
  "agent-action.approved": AgentActionDecidedData;
  "agent-action.rejected": AgentActionDecidedData;
  "agent-action.executed": AgentActionExecutedData;
  "agent-action.failed": AgentActionExecutedData;
}
