import type { RecordedChange } from "../src/domain/case.js";
import { DomainError } from "../src/domain/domain-error.js";
import {
  type AgentAction,
  type ApprovingOperator,
  approveAction,
  beginExecution,
  type Execution,
  type NewAgentAction,
  proposeAction,
  recordExecution,
  rejectAction,
} from "../src/domain/agent/agent-action.js";
import type { EventDataByType } from "../src/domain/events/catalogue.js";
import { AGENT_ACTION_EVENT } from "../src/domain/events/agent-action.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

export interface AgentActionTurn {
  action: AgentAction;
  /** Absent when the command repeated what was already so. */
  change?: RecordedChange;
}

interface Traced {
  correlationUrn: string;
}

const ACTION = "action";
type AgentActionEventType = (typeof AGENT_ACTION_EVENT)[keyof typeof AGENT_ACTION_EVENT];

/**
 * One exception-agent proposal per actor (`urn:agent-action:<actor id>`). Its turns serialize the
 * decisions on it: of an approval and a rejection at once, one wins and the other gets 409. Every
 * change emits its event through the outbox; decisions live in src/domain/agent/agent-action.ts.
 */
export class AgentActionActor {
  constructor(private readonly context: ActorContext) {}

  /** Proposing an action that exists returns it unchanged: triage may run again on the same item. */
  async propose(input: NewAgentAction & Traced): Promise<{ action: AgentAction; created: boolean }> {
    const existing = await this.load();
    if (existing) return { action: existing, created: false };
    const { correlationUrn, ...fields } = input;
    const action = proposeAction(fields, this.now());
    this.save(action);
    this.emit(action, AGENT_ACTION_EVENT.proposed, correlationUrn, { action });
    return { action, created: true };
  }

  async get(): Promise<AgentAction | undefined> {
    return this.load();
  }

  async approve(
    command: { operator: ApprovingOperator; reason: string | null } & Traced,
  ): Promise<AgentActionTurn> {
    const before = await this.required();
    const action = approveAction(before, command.operator, command.reason, this.now());
    return this.decided(before, action, AGENT_ACTION_EVENT.approved, command.operator.actorUrn, command);
  }

  async reject(command: { by: string; reason: string | null } & Traced): Promise<AgentActionTurn> {
    const before = await this.required();
    const action = rejectAction(before, command.by, command.reason, this.now());
    return this.decided(before, action, AGENT_ACTION_EVENT.rejected, command.by, command);
  }

  /** Holds the action for one execution and says whom it runs as (403 when irreversible and unapproved). */
  async beginExecution<O extends ApprovingOperator>(command: {
    caller: O;
  }): Promise<{ as: ApprovingOperator | O }> {
    const before = await this.required();
    const { action, as } = beginExecution(before, command.caller, this.now());
    this.save(action);
    return { as };
  }

  /** An execution that could not reach the review queue lets go of the action. */
  async releaseExecution(): Promise<void> {
    const action = await this.required();
    if (action.executingSince) this.save({ ...action, executingSince: null, version: action.version + 1 });
  }

  async recordExecution(command: Omit<Execution, "at"> & Traced): Promise<AgentActionTurn> {
    const before = await this.required();
    const { correlationUrn, ...execution } = command;
    const action = recordExecution(before, execution, this.now());
    this.save(action);
    const type = action.state === "FAILED" ? AGENT_ACTION_EVENT.failed : AGENT_ACTION_EVENT.executed;
    this.emit(action, type, correlationUrn, { by: execution.by, as: execution.as, error: execution.error });
    return {
      action,
      change: {
        action: type,
        by: execution.by,
        before: { state: before.state },
        after: {
          state: action.state,
          as: execution.as,
          tool: action.tool,
          arguments: action.arguments,
          ...(execution.error ? { error: execution.error.code } : {}),
        },
      },
    };
  }

  private decided(
    before: AgentAction,
    action: AgentAction,
    type: AgentActionEventType,
    by: string,
    command: { reason: string | null } & Traced,
  ): AgentActionTurn {
    if (action === before) return { action };
    this.save(action);
    this.emit(action, type, command.correlationUrn, { by, reason: command.reason });
    return {
      action,
      change: {
        action: type,
        by,
        ...(command.reason ? { reason: command.reason } : {}),
        before: { state: before.state },
        after: { state: action.state, tool: action.tool, arguments: action.arguments },
      },
    };
  }

  private emit(
    action: AgentAction,
    type: AgentActionEventType,
    correlationUrn: string,
    details: Record<string, unknown>,
  ): void {
    const data = {
      urn: action.urn,
      caseUrn: action.caseUrn,
      reviewItemUrn: action.reviewItemUrn,
      state: action.state,
      version: action.version,
      tool: action.tool,
      ...details,
    };
    this.context.emit({
      type,
      tenant: action.tenant,
      correlationUrn,
      caseUrn: action.caseUrn,
      data: data as unknown as EventDataByType[typeof type],
    });
  }

  private save(action: AgentAction): void {
    this.context.state.set(ACTION, action);
  }

  private async load(): Promise<AgentAction | undefined> {
    return this.context.state.get<AgentAction>(ACTION);
  }

  private async required(): Promise<AgentAction> {
    const action = await this.load();
    if (!action) throw agentActionNotFound(`urn:agent-action:${this.context.actorId}`);
    return action;
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}

export function agentActionNotFound(urn: string): DomainError {
  return new DomainError("not-found", "agent-action-not-found", `No agent action ${urn}`, { urn });
}
