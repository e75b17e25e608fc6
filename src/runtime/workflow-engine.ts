import type { WorkflowActivityContext, WorkflowContext } from "@dapr/dapr";

/**
 * Sagas are Dapr workflows: `async function*` over the SDK's WorkflowContext, so the same code
 * runs on Dapr Workflow and on the embedded engine that drives the SDK's own executor.
 */
export type Workflow<I = any, O = any> = (
  context: WorkflowContext,
  input: I,
) => AsyncGenerator<unknown, O, any>;
export type Activity<I = any, O = any> = (context: WorkflowActivityContext, input: I) => Promise<O> | O;

export type WorkflowRuntimeStatus =
  | "PENDING"
  | "RUNNING"
  | "COMPLETED"
  | "FAILED"
  | "TERMINATED"
  | "SUSPENDED"
  | "CONTINUED_AS_NEW";

export interface WorkflowState {
  instanceId: string;
  name: string;
  runtimeStatus: WorkflowRuntimeStatus;
  createdAt: string;
  lastUpdatedAt: string;
  input?: unknown;
  output?: unknown;
  customStatus?: unknown;
  failure?: { message: string; errorType?: string };
}

/** Names are the functions' names, as the Dapr SDK derives them for `callActivity(fn)`. */
export class WorkflowRegistry {
  readonly workflows = new Map<string, Workflow>();
  readonly activities = new Map<string, Activity>();

  addWorkflow(workflow: Workflow, name: string = workflow.name): this {
    this.workflows.set(name, workflow);
    return this;
  }

  addActivity(activity: Activity, name: string = activity.name): this {
    this.activities.set(name, activity);
    return this;
  }
}

export interface ScheduleOptions {
  /** Deterministic ids make scheduling idempotent: scheduling an existing instance id is a no-op. */
  instanceId?: string;
}

export interface WorkflowEngine {
  start(): Promise<void>;
  schedule(name: string, input?: unknown, options?: ScheduleOptions): Promise<string>;
  raiseEvent(instanceId: string, eventName: string, payload?: unknown): Promise<void>;
  get(instanceId: string): Promise<WorkflowState | undefined>;
  /** Resolves when the instance reaches COMPLETED, FAILED or TERMINATED. */
  waitForCompletion(instanceId: string, timeoutMs?: number): Promise<WorkflowState>;
  /**
   * Resolves with the first state `reached` accepts, or the instance's final state if it ends
   * first: a caller waits for a point the workflow marks with its custom status (a first pass
   * done, a wait begun) without waiting for the whole run.
   */
  waitUntil(
    instanceId: string,
    reached: (state: WorkflowState) => boolean,
    timeoutMs?: number,
  ): Promise<WorkflowState>;
  terminate(instanceId: string, output?: unknown): Promise<void>;
  close(): Promise<void>;
}

export const TERMINAL_STATUSES: ReadonlySet<WorkflowRuntimeStatus> = new Set([
  "COMPLETED",
  "FAILED",
  "TERMINATED",
]);
