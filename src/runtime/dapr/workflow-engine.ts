import {
  DaprWorkflowClient,
  type WorkflowState as DaprWorkflowState,
  WorkflowRuntime,
  WorkflowRuntimeStatus as DaprRuntimeStatus,
} from "@dapr/dapr";
import {
  type ScheduleOptions,
  TERMINAL_STATUSES,
  type WorkflowEngine,
  type WorkflowRegistry,
  type WorkflowRuntimeStatus,
  type WorkflowState,
} from "../workflow-engine.js";
import { randomUuid } from "../../domain/uuid.js";

export interface DaprWorkflowEngineOptions {
  registry: WorkflowRegistry;
  /** The sidecar's host; 127.0.0.1 by default. */
  daprHost?: string;
  /** The sidecar's gRPC port (DAPR_GRPC_PORT), where its workflow API listens. */
  daprGrpcPort: number;
  /** Sent as `dapr-api-token` metadata on every call when the sidecar requires it (DAPR_API_TOKEN). */
  apiToken?: string;
  /** How often `raiseEvent` tries before giving up (8: about 13 s in all, past the SDK worker's reconnect backoff). */
  raiseEventAttempts?: number;
  /** The wait before the first retry of `raiseEvent` (100 ms); it doubles with each retry. */
  raiseEventRetryDelayMs?: number;
  /** The longest wait between two tries to reach the sidecar's workflow API at start (1 s). */
  connectRetryMaxDelayMs?: number;
}

/** As long as the Dapr SDK client waits by default. */
const DEFAULT_WAIT_MS = 60_000;
/** `waitUntil` polls first after 5 ms, then doubling up to every 250 ms. */
const POLL_FIRST_MS = 5;
const POLL_MAX_MS = 250;
/** Any id: asking for it only shows whether the sidecar's workflow API answers. */
const PROBE_INSTANCE_ID = "sidecar-probe";

/**
 * Workflows on Dapr Workflow: this process is the worker (WorkflowRuntime, holding every workflow
 * and activity of the registry under its registry name) and the client (DaprWorkflowClient) of the
 * sidecar's workflow API. The sidecar keeps the history.
 */
export class DaprWorkflowEngine implements WorkflowEngine {
  private readonly runtime: WorkflowRuntime;
  private readonly client: DaprWorkflowClient;
  private readonly raiseEventAttempts: number;
  private readonly raiseEventRetryDelayMs: number;
  private readonly connectRetryMaxDelayMs: number;
  private readonly closing = new AbortController();
  private connecting: Promise<void> | undefined;
  private started = false;
  private readonly hasWork: boolean;

  constructor(options: DaprWorkflowEngineOptions) {
    const sidecar = {
      daprHost: options.daprHost ?? "127.0.0.1",
      daprPort: String(options.daprGrpcPort),
      // Empty rather than absent, or the SDK reads DAPR_API_TOKEN from the environment itself.
      daprApiToken: options.apiToken ?? "",
    };
    this.runtime = new WorkflowRuntime(sidecar);
    for (const [name, workflow] of options.registry.workflows)
      this.runtime.registerWorkflowWithName(name, workflow);
    for (const [name, activity] of options.registry.activities)
      this.runtime.registerActivityWithName(name, activity);
    this.client = new DaprWorkflowClient(sidecar);
    this.hasWork = options.registry.workflows.size > 0 || options.registry.activities.size > 0;
    this.raiseEventAttempts = options.raiseEventAttempts ?? 8;
    this.raiseEventRetryDelayMs = options.raiseEventRetryDelayMs ?? 100;
    this.connectRetryMaxDelayMs = options.connectRetryMaxDelayMs ?? 1000;
  }

  /**
   * Connects the worker in the background once the sidecar's workflow API answers; work waits in
   * the sidecar until it has. The SDK worker gives up for good when its first connection fails, so
   * it is started only after the sidecar answered.
   */
  async start(): Promise<void> {
    // An app that runs no workflows (src/main.ts registers them by SERVICES) starts no worker.
    if (!this.hasWork) return;
    this.connecting ??= this.connectWhenSidecarAnswers();
  }

  private async connectWhenSidecarAnswers(): Promise<void> {
    for (let pause = POLL_FIRST_MS; !this.closing.signal.aborted; ) {
      try {
        await this.instanceState(PROBE_INSTANCE_ID, false);
        break;
      } catch {
        await delay(pause, this.closing.signal);
        pause = Math.min(pause * 2, this.connectRetryMaxDelayMs);
      }
    }
    if (this.closing.signal.aborted) return;
    await this.runtime.start();
    this.started = true;
  }

  /** The sidecar refuses an instance id already in use, so an existing id is answered here, before and after trying. */
  async schedule(name: string, input?: unknown, options?: ScheduleOptions): Promise<string> {
    const instanceId = options?.instanceId ?? randomUuid();
    if (options?.instanceId && (await this.instanceState(instanceId, false))) return instanceId;
    try {
      return await this.client.scheduleNewWorkflow(name, input, instanceId);
    } catch (error) {
      if (await this.instanceState(instanceId, false)) return instanceId;
      throw error;
    }
  }

  /**
   * Retried with backoff: the sidecar refuses events while no workflow worker is connected to it.
   * daprd 1.16 answers an event for an instance it does not know with a bare gRPC UNKNOWN, like
   * any other failure, so each try first asks whether the instance exists: an unknown one fails
   * at once instead of after every retry.
   */
  /**
   * One call when it works. daprd answers an unknown instance with a plain gRPC UNKNOWN, like any
   * other failure, so only a failed raise asks whether the instance exists: not at all ends it,
   * anything else (a worker reconnecting, a sidecar restarting) is tried again with backoff.
   */
  async raiseEvent(instanceId: string, eventName: string, payload?: unknown): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.raiseEvent(instanceId, eventName, payload);
        return;
      } catch (error) {
        const exists = await this.instanceState(instanceId, false).then(
          (state) => state !== undefined,
          () => undefined,
        );
        if (exists === false) throw new Error(`Workflow instance ${instanceId} does not exist`);
        if (attempt >= this.raiseEventAttempts) throw error;
        await delay(this.raiseEventRetryDelayMs * 2 ** (attempt - 1));
      }
    }
  }

  async get(instanceId: string): Promise<WorkflowState | undefined> {
    const state = await this.instanceState(instanceId, true);
    return state && toWorkflowState(state);
  }

  async waitForCompletion(instanceId: string, timeoutMs = DEFAULT_WAIT_MS): Promise<WorkflowState> {
    const state = await this.client.waitForWorkflowCompletion(instanceId, true, timeoutMs / 1000);
    if (!state) throw new Error(`Workflow instance ${instanceId} does not exist`);
    return toWorkflowState(state);
  }

  /** The sidecar's workflow API has no watch on custom status: the state is polled, a little less often each time. */
  async waitUntil(
    instanceId: string,
    reached: (state: WorkflowState) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<WorkflowState> {
    const deadline = Date.now() + timeoutMs;
    for (let pause = POLL_FIRST_MS; ; pause = Math.min(pause * 2, POLL_MAX_MS)) {
      const state = await this.get(instanceId);
      if (!state) throw new Error(`Workflow instance ${instanceId} does not exist`);
      if (TERMINAL_STATUSES.has(state.runtimeStatus) || reached(state)) return state;
      if (Date.now() + pause > deadline) {
        throw new Error(`Gave up waiting for workflow instance ${instanceId} after ${timeoutMs} ms`);
      }
      await delay(pause);
    }
  }

  terminate(instanceId: string, output?: unknown): Promise<void> {
    return this.client.terminateWorkflow(instanceId, output);
  }

  /** The SDK waits a second in each of its stops; both run at once. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.connecting;
    // The SDK's stop throws for a worker that never started.
    await Promise.all([this.started ? this.runtime.stop() : undefined, this.client.stop()]);
  }

  /**
   * The instance's state, or undefined for an id the sidecar does not know. daprd answers such an
   * id with `exists: false` from 1.16.1 and with a gRPC UNKNOWN naming no such instance before.
   */
  private async instanceState(
    instanceId: string,
    withPayloads: boolean,
  ): Promise<DaprWorkflowState | undefined> {
    try {
      return await this.client.getWorkflowState(instanceId, withPayloads);
    } catch (error) {
      if (isUnknownInstance(error)) return undefined;
      throw error;
    }
  }
}

function toWorkflowState(state: DaprWorkflowState): WorkflowState {
  const failure = state.workflowFailureDetails;
  return {
    instanceId: state.instanceId,
    name: state.name,
    runtimeStatus: DaprRuntimeStatus[state.runtimeStatus] as WorkflowRuntimeStatus,
    createdAt: state.createdAt.toISOString(),
    lastUpdatedAt: state.lastUpdatedAt.toISOString(),
    ...(state.serializedInput ? { input: JSON.parse(state.serializedInput) } : {}),
    ...(state.serializedOutput ? { output: JSON.parse(state.serializedOutput) } : {}),
    ...(state.customStatus ? { customStatus: state.customStatus } : {}),
    ...(failure
      ? { failure: { message: failure.getErrorMessage(), errorType: failure.getErrorType() } }
      : {}),
  };
}

const GRPC_UNKNOWN = 2;
const GRPC_NOT_FOUND = 5;

function isUnknownInstance(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, details } = error as { code?: unknown; details?: unknown };
  return (
    code === GRPC_NOT_FOUND ||
    (code === GRPC_UNKNOWN && typeof details === "string" && /no such instance exists/i.test(details))
  );
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done);
  });
}
