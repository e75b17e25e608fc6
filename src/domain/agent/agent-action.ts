import { DomainError } from "../domain-error.js";
import type { ServiceRole } from "../roles.js";
import { uuidFromParts } from "../uuid.js";
import { type AgentTool, isIrreversible } from "./agent-tools.js";
import type { Evidence, TriageCause } from "./triage.js";

/**
 * One proposal of the exception agent (spec 4.1 `/v1/agent/{agent_action_urn}/...`) and how it
 * moves: PROPOSED, then APPROVED or REJECTED by an operator, then EXECUTED or FAILED. Pure: the
 * AgentActionActor applies these one turn at a time.
 */
export const AGENT_ACTION_STATES = ["PROPOSED", "APPROVED", "REJECTED", "EXECUTED", "FAILED"] as const;
export type AgentActionState = (typeof AGENT_ACTION_STATES)[number];

/** Who the agent proposes as: proposals are audited under it. */
export const EXCEPTION_AGENT = "urn:system:exception-agent";

/** An operator as an approval records them: executions run as this operator. */
export interface ApprovingOperator {
  actorUrn: string;
  tenant: string;
  role: ServiceRole;
  airport?: string;
}

export interface Decision {
  by: string;
  reason: string | null;
  at: string;
}

export interface Execution {
  /** Who called execute. */
  by: string;
  /** Whose action it was: the approving operator, or the caller of a reversible action nobody approved. */
  as: string;
  at: string;
  /** The problem code when it failed. */
  error: { code: string; message: string } | null;
}

export interface AgentAction {
  urn: string;
  tenant: string;
  caseUrn: string;
  reviewItemUrn: string;
  airport: string;
  cause: TriageCause;
  tool: AgentTool;
  arguments: Record<string, unknown>;
  reason: string;
  evidence: Evidence[];
  rank: number;
  explanation: string | null;
  irreversible: boolean;
  state: AgentActionState;
  proposedBy: string;
  proposedAt: string;
  approval: (Decision & { operator: ApprovingOperator }) | null;
  rejection: Decision | null;
  execution: Execution | null;
  /** When an execution began and has not been recorded yet; a second one waits (409). */
  executingSince: string | null;
  version: number;
}

export type NewAgentAction = Pick<
  AgentAction,
  | "urn"
  | "tenant"
  | "caseUrn"
  | "reviewItemUrn"
  | "airport"
  | "cause"
  | "tool"
  | "arguments"
  | "reason"
  | "evidence"
  | "rank"
> & { explanation?: string };

/**
 * A proposal's URN from the item and the proposal's key (`proposalKey`): triaging the same item
 * again lands on the same actions, whatever state they reached.
 */
export function agentActionUrnFor(tenant: string, reviewItemUrn: string, key: string): string {
  return uuidFromParts("urn:agent-action:", tenant, reviewItemUrn, key);
}

export function proposeAction(input: NewAgentAction, now: Date): AgentAction {
  return {
    ...input,
    explanation: input.explanation ?? null,
    irreversible: isIrreversible(input.tool),
    state: "PROPOSED",
    proposedBy: EXCEPTION_AGENT,
    proposedAt: now.toISOString(),
    approval: null,
    rejection: null,
    execution: null,
    executingSince: null,
    version: 1,
  };
}

function decided(action: AgentAction, verb: string): DomainError {
  return new DomainError(
    "conflict",
    "agent-action-decided",
    `Agent action ${action.urn} is ${action.state}; it cannot be ${verb}`,
    { state: action.state },
  );
}

/** Approving an approved action again, by the same operator, changes nothing. */
export function approveAction(
  action: AgentAction,
  operator: ApprovingOperator,
  reason: string | null,
  now: Date,
): AgentAction {
  if (action.state === "APPROVED" && action.approval?.by === operator.actorUrn) return action;
  if (action.state !== "PROPOSED") throw decided(action, "approved");
  return {
    ...action,
    state: "APPROVED",
    approval: { by: operator.actorUrn, reason, at: now.toISOString(), operator },
    version: action.version + 1,
  };
}

/** Rejecting a rejected action again changes nothing; an approved one can still be turned down. */
export function rejectAction(action: AgentAction, by: string, reason: string | null, now: Date): AgentAction {
  if (action.state === "REJECTED") return action;
  if (action.state !== "PROPOSED" && action.state !== "APPROVED") throw decided(action, "rejected");
  return {
    ...action,
    state: "REJECTED",
    rejection: { by, reason, at: now.toISOString() },
    version: action.version + 1,
  };
}

/**
 * Who an execution runs as. An irreversible action runs only once approved, as the approver (403
 * otherwise); a reversible one runs as its approver when approved, else as the caller. Rejected,
 * executed and failed actions do not run (409).
 */
export function executingOperator<O extends ApprovingOperator>(
  action: AgentAction,
  caller: O,
): ApprovingOperator | O {
  if (action.state === "APPROVED") return action.approval!.operator;
  if (action.state !== "PROPOSED") throw decided(action, "executed");
  if (action.irreversible) {
    throw new DomainError(
      "forbidden",
      "agent-action-not-approved",
      `Agent action ${action.urn} (${action.tool}) cannot be undone; an operator must approve it first`,
      { tool: action.tool },
    );
  }
  return caller;
}

/**
 * How long an execution that began holds the action: one whose process died gets the action back
 * after this, so it can be executed again.
 */
export const EXECUTION_HOLD_MS = 60_000;

/** An execution begins: one at a time, so the review queue is asked once. */
export function beginExecution<O extends ApprovingOperator>(action: AgentAction, caller: O, now: Date) {
  const as = executingOperator(action, caller);
  if (action.executingSince && now.getTime() - Date.parse(action.executingSince) < EXECUTION_HOLD_MS) {
    throw new DomainError(
      "conflict",
      "agent-action-executing",
      `Agent action ${action.urn} is being executed`,
      {
        executingSince: action.executingSince,
      },
    );
  }
  return { action: { ...action, executingSince: now.toISOString(), version: action.version + 1 }, as };
}

export function recordExecution(
  action: AgentAction,
  execution: Omit<Execution, "at">,
  now: Date,
): AgentAction {
  if (action.state !== "APPROVED" && action.state !== "PROPOSED") throw decided(action, "executed");
  return {
    ...action,
    state: execution.error ? "FAILED" : "EXECUTED",
    execution: { ...execution, at: now.toISOString() },
    executingSince: null,
    version: action.version + 1,
  };
}
