import { TERMINAL_STATUSES, type WorkflowRuntimeStatus } from "../../workflow-engine.js";
import type { StoredFailure } from "./history-events.js";

/**
 * One workflow instance as kept in the state store: its durable history, the inbox of events the
 * orchestrator has not seen yet, and the outstanding work (activities, timers, child workflows)
 * that a restarted process must pick up again. Payloads stay JSON-encoded strings, as on Dapr.
 */
export interface StoredInstance {
  instanceId: string;
  name: string;
  /** Changes on continue-as-new, so results of the previous execution's work are recognised and dropped. */
  executionId: string;
  status: WorkflowRuntimeStatus;
  createdAt: number;
  lastUpdatedAt: number;
  input?: string;
  output?: string;
  customStatus?: string;
  failure?: StoredFailure;
  parent?: ParentLink;
  /** Counts orchestrator steps; a step's result is committed only against the turn it was computed from. */
  turn: number;
  /** Base64 protobuf HistoryEvents. */
  history: string[];
  inbox: string[];
  /** Scheduled activities without a result yet, by task id. */
  activities: Record<string, OutstandingActivity>;
  /** Created timers that have not fired, by timer id: when they fire (ms since the epoch). */
  timers: Record<string, number>;
  /** Child workflows still running, by the parent's task id. */
  children: Record<string, string>;
}

export interface ParentLink {
  instanceId: string;
  taskId: number;
}

export interface OutstandingActivity {
  name: string;
  input?: string;
}

export function isFinished(instance: StoredInstance): boolean {
  return TERMINAL_STATUSES.has(instance.status);
}
