/**
 * The one door into the Dapr SDK's durable-task internals. They are not public API, which is why
 * package.json pins @dapr/dapr to an exact version and test/unit/workflow-durable-task.test.ts
 * exercises every piece used here: an SDK upgrade that moves or changes them fails there first.
 */
import { createRequire } from "node:module";
import { WorkflowActivityContext, WorkflowContext } from "@dapr/dapr";
import type { BinaryWriter as ProtobufWriter } from "google-protobuf";
import pb from "@dapr/dapr/workflow/internal/durabletask/proto/orchestrator_service_pb.js";
import * as ph from "@dapr/dapr/workflow/internal/durabletask/utils/pb-helper.util.js";
import { ActivityExecutor } from "@dapr/dapr/workflow/internal/durabletask/worker/activity-executor.js";
import { OrchestrationExecutor } from "@dapr/dapr/workflow/internal/durabletask/worker/orchestration-executor.js";
import { Registry } from "@dapr/dapr/workflow/internal/durabletask/worker/registry.js";
import { RuntimeOrchestrationContext } from "@dapr/dapr/workflow/internal/durabletask/worker/runtime-orchestration-context.js";
import type { WorkflowRegistry } from "../../workflow-engine.js";

export { pb, ph };

/** The SDK's messages serialize through google-protobuf's writer: this is that class, as the SDK loads it. */
export const BinaryWriter: typeof ProtobufWriter = createRequire(
  createRequire(import.meta.url).resolve(
    "@dapr/dapr/workflow/internal/durabletask/proto/orchestrator_service_pb.js",
  ),
)("google-protobuf").BinaryWriter;
export type HistoryEvent = pb.HistoryEvent;
export type OrchestratorAction = pb.OrchestratorAction;
export type TaskFailureDetails = pb.TaskFailureDetails;
export type SdkRegistry = Registry;

/**
 * Fills the executor's registry the way `WorkflowRuntime.registerWorkflowWithName` and
 * `registerActivityWithName` do, so workflows see the same WorkflowContext on both runtimes.
 */
export function toSdkRegistry(registry: WorkflowRegistry): SdkRegistry {
  const sdkRegistry = new Registry();
  for (const [name, workflow] of registry.workflows) {
    sdkRegistry.addNamedOrchestrator(name, (context, input) => workflow(new WorkflowContext(context), input));
  }
  for (const [name, activity] of registry.activities) {
    sdkRegistry.addNamedActivity(name, (context, input) =>
      activity(new WorkflowActivityContext(context), input),
    );
  }
  return sdkRegistry;
}

export interface OrchestratorResult {
  actions: OrchestratorAction[];
  /** The raw custom status as a string; empty when the workflow never set one. */
  customStatus: string;
}

export type ActivityOutcome = { ok: true; result?: string } | { ok: false; failure: TaskFailureDetails };

// The executor logs three console lines per step at info level; at a thousand workflows a second
// that output would cost more than the work. Failures are kept in the instance state instead.
const silentLogger = { error() {}, warn() {}, info() {}, verbose() {}, debug() {} };

/** `OrchestrationExecutor.processEvent`: private in the SDK's typings, but the per-event core of `execute`. */
type EventProcessor = {
  processEvent(context: RuntimeOrchestrationContext, event: HistoryEvent): Promise<void>;
};

/**
 * A workflow kept alive between its steps. `OrchestrationExecutor.execute` rebuilds the workflow
 * from its whole history at every step; a session does that once, then applies only each step's new
 * events and the events that confirm its actions, exactly as the next replay would. Replaying
 * cost a fifth of the CPU of a three-activity workflow when measured.
 */
export class OrchestrationSession {
  private readonly executor: OrchestrationExecutor;
  private readonly context: RuntimeOrchestrationContext;

  constructor(registry: SdkRegistry, instanceId: string) {
    this.executor = new OrchestrationExecutor(registry);
    Object.assign(this.executor, { logger: silentLogger });
    this.context = new RuntimeOrchestrationContext(instanceId);
  }

  /** One step, as `execute` computes it: replay `pastEvents`, apply `newEvents`, return the actions. */
  async run(
    pastEvents: readonly HistoryEvent[],
    newEvents: readonly HistoryEvent[],
  ): Promise<OrchestratorResult> {
    const context = this.context;
    try {
      context._isReplaying = true;
      for (const event of pastEvents) await this.process(event);
      context._isReplaying = false;
      for (const event of newEvents) await this.process(event);
    } catch (error) {
      context.setFailed(error instanceof Error ? error : new Error(String(error)));
    }
    return { actions: context.getActions(), customStatus: customStatusText(context._customStatus) };
  }

  /**
   * Applies the history events the backend committed for the last step's actions. Returns whether
   * the session can take the next step: not once the workflow has ended, nor if an action was left
   * unconfirmed (it would be issued again).
   */
  async confirm(events: readonly HistoryEvent[]): Promise<boolean> {
    if (this.context._isComplete) return false;
    try {
      this.context._isReplaying = true;
      for (const event of events) await this.process(event);
    } catch {
      return false;
    }
    return Object.keys(this.context._pendingActions).length === 0;
  }

  private process(event: HistoryEvent): Promise<void> {
    return (this.executor as unknown as EventProcessor).processEvent(this.context, event);
  }
}

/** What the SDK worker answers when a step throws outside the workflow: the instance fails. */
export function failedResult(error: unknown): OrchestratorResult {
  const failed = ph.newCompleteOrchestrationAction(
    -1,
    pb.OrchestrationStatus.ORCHESTRATION_STATUS_FAILED,
    undefined,
    failureDetails(error),
  );
  return { actions: [failed], customStatus: "" };
}

/** Runs one activity; a throw becomes failure details, which the workflow sees as a catchable TaskFailedError. */
export async function executeActivity(
  registry: SdkRegistry,
  instanceId: string,
  name: string,
  taskId: number,
  input: string | undefined,
): Promise<ActivityOutcome> {
  try {
    const result = await new ActivityExecutor(registry).execute(instanceId, name, taskId, input);
    return { ok: true, result };
  } catch (error) {
    return { ok: false, failure: failureDetails(error) };
  }
}

export function failureDetails(error: unknown): TaskFailureDetails {
  return ph.newFailureDetails(error instanceof Error ? error : new Error(String(error)));
}

// The SDK types custom status as a string but passes through whatever the workflow gave it.
function customStatusText(status: unknown): string {
  if (status === undefined || status === null) return "";
  return typeof status === "string" ? status : JSON.stringify(status);
}
