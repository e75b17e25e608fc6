import type { Clock } from "../clock.js";
import type { StateStore } from "../state-store.js";
import type { ScheduleOptions, WorkflowEngine, WorkflowRegistry, WorkflowState } from "../workflow-engine.js";
import { WorkflowBackend } from "./workflow/backend.js";
import { InProcessWorkflowWorker } from "./workflow/in-process-worker.js";
import { isFinished } from "./workflow/stored-instance.js";
import { toWorkflowState } from "./workflow/workflow-state.js";
import { randomUuid } from "../../domain/uuid.js";

export interface EmbeddedWorkflowEngineOptions {
  registry: WorkflowRegistry;
  /** A ScannableStateStore lets `start()` resume instances a previous process left unfinished. */
  store: StateStore;
  clock?: Clock;
  keyPrefix?: string;
  onError?: (error: unknown) => void;
}

/** As long as the Dapr SDK client waits by default, so callers see the same behaviour on both runtimes. */
const DEFAULT_WAIT_MS = 60_000;

/**
 * Workflows in this process: the durable WorkflowBackend over the state store, driven by an
 * in-process worker that runs the Dapr SDK's own durable-task executor.
 */
export class EmbeddedWorkflowEngine implements WorkflowEngine {
  private readonly backend: WorkflowBackend;
  private readonly worker: InProcessWorkflowWorker;

  constructor(options: EmbeddedWorkflowEngineOptions) {
    const onError =
      options.onError ?? ((error: unknown) => console.error("embedded workflow engine:", error));
    this.backend = new WorkflowBackend({
      store: options.store,
      onError,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.keyPrefix ? { keyPrefix: options.keyPrefix } : {}),
    });
    this.worker = new InProcessWorkflowWorker(this.backend, options.registry, onError);
    this.backend.attach(this.worker);
  }

  start(): Promise<void> {
    return this.backend.start();
  }

  async schedule(name: string, input?: unknown, options?: ScheduleOptions): Promise<string> {
    const instanceId = options?.instanceId ?? randomUuid();
    await this.backend.createInstance({ name, instanceId, input: encode(input) });
    return instanceId;
  }

  raiseEvent(instanceId: string, eventName: string, payload?: unknown): Promise<void> {
    return this.backend.raiseEvent(instanceId, eventName, encode(payload));
  }

  async get(instanceId: string): Promise<WorkflowState | undefined> {
    const instance = await this.backend.getInstance(instanceId);
    return instance && toWorkflowState(instance);
  }

  async waitForCompletion(instanceId: string, timeoutMs = DEFAULT_WAIT_MS): Promise<WorkflowState> {
    return toWorkflowState(await this.backend.waitFor(instanceId, isFinished, timeoutMs));
  }

  async waitUntil(
    instanceId: string,
    reached: (state: WorkflowState) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<WorkflowState> {
    const instance = await this.backend.waitFor(
      instanceId,
      (candidate) => isFinished(candidate) || reached(toWorkflowState(candidate)),
      timeoutMs,
    );
    return toWorkflowState(instance);
  }

  terminate(instanceId: string, output?: unknown): Promise<void> {
    return this.backend.terminate(instanceId, encode(output));
  }

  /** Lets running work finish and commit first, so a later start over the same store resumes cleanly. */
  async close(): Promise<void> {
    this.backend.detach();
    this.backend.stopOutageWaits();
    await this.worker.close();
    await this.backend.close();
  }
}

function encode(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}
