import type { HistoryEvent } from "./durable-task.js";

/** One orchestrator step to run: replay the past events, then apply `newEvents`. */
export interface OrchestrationWorkItem {
  kind: "orchestration";
  instanceId: string;
  executionId: string;
  /** The instance turn this step was computed from; see StoredInstance.turn. */
  turn: number;
  /** How many stored inbox events `newEvents` holds after its leading OrchestratorStarted event. */
  consumed: number;
  /**
   * Activity results this step brings that are not stored yet (they close `newEvents`): the step's
   * commit stores them, and if the step is dropped instead the backend stores them in the inbox.
   */
  unsaved: UnsavedResult[];
  /** The history before this step, decoded on first call: a worker that kept the workflow in memory never asks. */
  pastEvents(): HistoryEvent[];
  newEvents: HistoryEvent[];
}

/** What a committed orchestrator step added to the history for its actions, and the turn it produced. */
export interface CommittedStep {
  turn: number;
  confirmations: HistoryEvent[];
}

export interface UnsavedResult {
  taskId: number;
  event: HistoryEvent;
}

export interface ActivityWorkItem {
  kind: "activity";
  instanceId: string;
  executionId: string;
  taskId: number;
  name: string;
  input?: string;
}

export type WorkItem = OrchestrationWorkItem | ActivityWorkItem;

/** Where the backend hands work: the in-process worker, or the gRPC stream of a remote SDK worker. */
export interface WorkItemSink {
  deliver(item: WorkItem): void;
}
