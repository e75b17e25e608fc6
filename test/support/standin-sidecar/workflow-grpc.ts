/**
 * Test-only stand-in for the workflow half of a Dapr sidecar: the durable-task gRPC service
 * (TaskHubSidecarService) that the SDK's DaprWorkflowClient and WorkflowRuntime talk to. It keeps
 * histories with the embedded engine's WorkflowBackend; only the worker is remote. The worker pulls
 * work items from the GetWorkItems stream and answers with CompleteOrchestratorTask and
 * CompleteActivityTask, as it does with daprd.
 *
 * Spoken: Hello, StartInstance (without a scheduled start time), GetInstance, WaitForInstanceStart,
 * WaitForInstanceCompletion, RaiseEvent, TerminateInstance (always recursive), GetWorkItems,
 * CompleteOrchestratorTask, CompleteActivityTask. The rest answers UNIMPLEMENTED.
 *
 * As daprd 1.16 does, it answers an event raised for an unknown instance with a bare UNKNOWN, an
 * unknown id in GetInstance with `exists: false` (1.16.1; 1.16.0 answered UNKNOWN), and refuses
 * every call without the API token when it has one.
 */
import { randomUUID } from "node:crypto";
import { TaskHubSidecarServiceService } from "@dapr/dapr/workflow/internal/durabletask/proto/orchestrator_service_grpc_pb.js";
import * as grpc from "@grpc/grpc-js";
import emptyPb from "google-protobuf/google/protobuf/empty_pb.js";
import { type Clock, systemClock } from "../../../src/runtime/clock.js";
import {
  WorkflowBackend,
  WorkflowInstanceNotFoundError,
} from "../../../src/runtime/embedded/workflow/backend.js";
import { type ActivityOutcome, pb, ph } from "../../../src/runtime/embedded/workflow/durable-task.js";
import { toFailureDetails } from "../../../src/runtime/embedded/workflow/history-events.js";
import { isFinished, type StoredInstance } from "../../../src/runtime/embedded/workflow/stored-instance.js";
import type {
  ActivityWorkItem,
  OrchestrationWorkItem,
  WorkItem,
  WorkItemSink,
} from "../../../src/runtime/embedded/workflow/work-items.js";
import type { StateStore } from "../../../src/runtime/state-store.js";
import type { StandinSidecarPartStarter } from "./index.js";

export interface WorkflowSidecarOptions {
  /** 0 or absent: a free port. */
  port?: number;
  host?: string;
  /** Holds the workflow histories; hand the same store to a new stand-in to simulate a sidecar restart. */
  stateStore: StateStore;
  /** Drives durable timers; tests pass a ManualClock. */
  clock?: Clock;
  /** Required as `dapr-api-token` metadata on every call when set (daprd's DAPR_API_TOKEN). */
  apiToken?: string;
  /** The daprd patch release whose GetInstance answer for an unknown id to give; 1.16.1 by default. */
  daprVersion?: "1.16.0" | "1.16.1";
}

export interface WorkflowSidecar {
  port: number;
  close(): Promise<void>;
}

/** The SDK worker takes ten work items at a time and drops what overflows its queue: never send it more. */
const MAX_ITEMS_PER_WORKER = 10;
/** Server-side bound of the wait calls; the SDK client gives up sooner by its own timeout. */
const LONGEST_WAIT_MS = 24 * 60 * 60 * 1000;
/** durabletask-go's text for an instance it does not know, which daprd passes on as a bare UNKNOWN. */
const NO_SUCH_INSTANCE = "no such instance exists";

export async function startWorkflowSidecar(options: WorkflowSidecarOptions): Promise<WorkflowSidecar> {
  const backend = new WorkflowBackend({
    store: options.stateStore,
    clock: options.clock ?? systemClock,
    onError: (error) => console.error("stand-in workflow sidecar:", error),
  });
  const workers = new ConnectedWorkers(backend);
  backend.attach(workers);
  await backend.start();

  const server = new grpc.Server();
  const service = serviceFor(backend, workers, options.daprVersion ?? "1.16.1");
  server.addService(
    TaskHubSidecarServiceService,
    options.apiToken ? withApiToken(service, options.apiToken) : service,
  );
  const port = await new Promise<number>((resolve, reject) => {
    const address = `${options.host ?? "127.0.0.1"}:${options.port ?? 0}`;
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });

  return {
    port,
    async close() {
      backend.detach();
      // Steps not yet answered may carry activity results the store does not have yet.
      for (const item of workers.disconnectAll()) backend.abandon(item);
      await backend.close();
      server.forceShutdown();
    },
  };
}

/** The starter `startStandinSidecar({ workflows })` expects, sharing the HTTP stand-in's clock and store. */
export const workflowSidecarPart: StandinSidecarPartStarter = ({ clock, store }) =>
  startWorkflowSidecar({ clock, stateStore: store });

type Service = grpc.UntypedServiceImplementation;

function serviceFor(
  backend: WorkflowBackend,
  workers: ConnectedWorkers,
  daprVersion: NonNullable<WorkflowSidecarOptions["daprVersion"]>,
): Service {
  return {
    hello: unary(async () => new emptyPb.Empty()),

    startInstance: unary(async (request: pb.CreateInstanceRequest) => {
      if (request.hasScheduledstarttimestamp()) {
        throw new SidecarError(grpc.status.UNIMPLEMENTED, "the stand-in does not delay workflow starts");
      }
      const instanceId = request.getInstanceid() || randomUUID();
      const input = request.getInput()?.getValue();
      if (!(await backend.createInstance({ name: request.getName(), instanceId, input }))) {
        throw new SidecarError(
          grpc.status.ALREADY_EXISTS,
          `an active workflow with ID '${instanceId}' already exists`,
        );
      }
      return new pb.CreateInstanceResponse().setInstanceid(instanceId);
    }),

    getInstance: unary(async (request: pb.GetInstanceRequest) => {
      const instance = await backend.getInstance(request.getInstanceid());
      if (!instance && daprVersion === "1.16.0")
        throw new SidecarError(grpc.status.UNKNOWN, NO_SUCH_INSTANCE);
      return instanceResponse(instance, request.getGetinputsandoutputs());
    }),

    waitForInstanceStart: waitUntil(backend, (instance) => instance.status !== "PENDING"),
    waitForInstanceCompletion: waitUntil(backend, isFinished),

    raiseEvent: unary(async (request: pb.RaiseEventRequest) => {
      if (!workers.connected) {
        throw new SidecarError(grpc.status.UNAVAILABLE, "no workflow worker is connected");
      }
      try {
        await backend.raiseEvent(request.getInstanceid(), request.getName(), request.getInput()?.getValue());
      } catch (error) {
        if (error instanceof WorkflowInstanceNotFoundError) {
          throw new SidecarError(grpc.status.UNKNOWN, NO_SUCH_INSTANCE);
        }
        throw error;
      }
      return new pb.RaiseEventResponse();
    }),

    terminateInstance: unary(async (request: pb.TerminateRequest) => {
      await backend.terminate(request.getInstanceid(), request.getOutput()?.getValue());
      return new pb.TerminateResponse();
    }),

    getWorkItems: (call: grpc.ServerWritableStream<pb.GetWorkItemsRequest, pb.WorkItem>) =>
      workers.connect(call),

    completeOrchestratorTask: unary(async (response: pb.OrchestratorResponse) => {
      const item = workers.answered("orchestration", response.getInstanceid());
      await backend.completeOrchestration(item, {
        actions: response.getActionsList(),
        customStatus: response.getCustomstatus()?.getValue() ?? "",
      });
      return new pb.CompleteTaskResponse();
    }),

    completeActivityTask: unary(async (response: pb.ActivityResponse) => {
      const item = workers.answered("activity", response.getInstanceid(), response.getTaskid());
      const failure = response.getFailuredetails();
      // The SDK worker sends an empty result for an activity that returned nothing.
      const result = response.getResult()?.getValue() || undefined;
      const outcome: ActivityOutcome = failure ? { ok: false, failure } : { ok: true, result };
      await backend.completeActivity(item, outcome);
      return new pb.CompleteTaskResponse();
    }),

    rewindInstance: unimplemented("RewindInstance"),
    suspendInstance: unimplemented("SuspendInstance"),
    resumeInstance: unimplemented("ResumeInstance"),
    queryInstances: unimplemented("QueryInstances"),
    purgeInstances: unimplemented("PurgeInstances"),
    createTaskHub: unimplemented("CreateTaskHub"),
    deleteTaskHub: unimplemented("DeleteTaskHub"),
  };
}

/**
 * The GetWorkItems streams of the connected SDK workers: work goes to whichever has room, and a
 * worker's unanswered items go back to the backend when its stream ends.
 */
class ConnectedWorkers implements WorkItemSink {
  private readonly queue: WorkItem[] = [];
  private readonly streams = new Set<WorkerStream>();

  constructor(private readonly backend: WorkflowBackend) {}

  get connected(): boolean {
    return this.streams.size > 0;
  }

  deliver(item: WorkItem): void {
    this.queue.push(item);
    this.pump();
  }

  connect(call: grpc.ServerWritableStream<pb.GetWorkItemsRequest, pb.WorkItem>): void {
    const stream = new WorkerStream(call);
    this.streams.add(stream);
    const disconnect = () => {
      if (!this.streams.delete(stream)) return;
      for (const item of stream.takeAll()) this.backend.abandon(item);
    };
    call.on("cancelled", disconnect);
    call.on("close", disconnect);
    call.on("error", disconnect);
    this.pump();
  }

  /** The item a worker answers for; refused when no connected worker holds it (its stream ended meanwhile). */
  answered(kind: "orchestration", instanceId: string): OrchestrationWorkItem;
  answered(kind: "activity", instanceId: string, taskId: number): ActivityWorkItem;
  answered(kind: WorkItem["kind"], instanceId: string, taskId?: number): WorkItem {
    const key = itemKey(kind, instanceId, taskId);
    for (const stream of this.streams) {
      const item = stream.take(key);
      if (item) {
        this.pump();
        return item;
      }
    }
    throw new SidecarError(grpc.status.NOT_FOUND, `no work item ${key} is outstanding`);
  }

  /** Ends every stream and returns every item not answered, queued ones included. */
  disconnectAll(): WorkItem[] {
    const items = this.queue.splice(0);
    for (const stream of this.streams) {
      items.push(...stream.takeAll());
      stream.end();
    }
    this.streams.clear();
    return items;
  }

  private pump(): void {
    for (const stream of this.streams) {
      while (this.queue.length > 0 && stream.hasRoom()) stream.send(this.queue.shift()!);
    }
  }
}

class WorkerStream {
  private readonly outstanding = new Map<string, WorkItem>();

  constructor(private readonly call: grpc.ServerWritableStream<pb.GetWorkItemsRequest, pb.WorkItem>) {}

  hasRoom(): boolean {
    return this.outstanding.size < MAX_ITEMS_PER_WORKER;
  }

  send(item: WorkItem): void {
    const taskId = item.kind === "activity" ? item.taskId : undefined;
    this.outstanding.set(itemKey(item.kind, item.instanceId, taskId), item);
    this.call.write(toWorkItem(item));
  }

  take(key: string): WorkItem | undefined {
    const item = this.outstanding.get(key);
    this.outstanding.delete(key);
    return item;
  }

  takeAll(): WorkItem[] {
    const items = [...this.outstanding.values()];
    this.outstanding.clear();
    return items;
  }

  end(): void {
    this.call.end();
  }
}

function itemKey(kind: WorkItem["kind"], instanceId: string, taskId: number | undefined): string {
  return kind === "activity" ? `activity ${instanceId}#${taskId}` : `orchestration ${instanceId}`;
}

function toWorkItem(item: WorkItem): pb.WorkItem {
  const workItem = new pb.WorkItem();
  if (item.kind === "orchestration") {
    const request = new pb.OrchestratorRequest()
      .setInstanceid(item.instanceId)
      .setExecutionid(ph.getStringValue(item.executionId))
      .setPasteventsList(item.pastEvents())
      .setNeweventsList(item.newEvents);
    return workItem.setOrchestratorrequest(request);
  }
  const instance = new pb.OrchestrationInstance()
    .setInstanceid(item.instanceId)
    .setExecutionid(ph.getStringValue(item.executionId));
  const request = new pb.ActivityRequest()
    .setName(item.name)
    .setInput(ph.getStringValue(item.input))
    .setOrchestrationinstance(instance)
    .setTaskid(item.taskId);
  return workItem.setActivityrequest(request);
}

function instanceResponse(
  instance: StoredInstance | undefined,
  withPayloads: boolean,
): pb.GetInstanceResponse {
  const response = new pb.GetInstanceResponse();
  if (!instance) return response.setExists(false);
  const state = new pb.OrchestrationState()
    .setInstanceid(instance.instanceId)
    .setName(instance.name)
    .setOrchestrationstatus(pb.OrchestrationStatus[`ORCHESTRATION_STATUS_${instance.status}`])
    .setCreatedtimestamp(ph.newTimestamp(new Date(instance.createdAt)))
    .setLastupdatedtimestamp(ph.newTimestamp(new Date(instance.lastUpdatedAt)))
    .setCustomstatus(ph.getStringValue(instance.customStatus));
  if (withPayloads) {
    state.setInput(ph.getStringValue(instance.input)).setOutput(ph.getStringValue(instance.output));
  }
  if (instance.failure) state.setFailuredetails(toFailureDetails(instance.failure));
  return response.setExists(true).setOrchestrationstate(state);
}

function waitUntil(backend: WorkflowBackend, predicate: (instance: StoredInstance) => boolean) {
  return unary(async (request: pb.GetInstanceRequest, call) => {
    const cancelled = new AbortController();
    call.on("cancelled", () => cancelled.abort());
    try {
      const instance = await backend.waitFor(
        request.getInstanceid(),
        predicate,
        LONGEST_WAIT_MS,
        cancelled.signal,
      );
      return instanceResponse(instance, request.getGetinputsandoutputs());
    } catch (error) {
      if (error instanceof WorkflowInstanceNotFoundError) return instanceResponse(undefined, false);
      throw error;
    }
  });
}

/** daprd's API token check: every call, streams included, carries `dapr-api-token` metadata. */
function withApiToken(service: Service, token: string): Service {
  const refused = (call: { metadata: grpc.Metadata }): grpc.ServiceError | undefined => {
    const given = call.metadata.get("dapr-api-token")[0];
    if (given === token) return undefined;
    const message =
      given === undefined
        ? "missing api token in request metadata"
        : "authentication error: api token mismatch";
    return serviceError(new SidecarError(grpc.status.UNAUTHENTICATED, message));
  };
  const guarded: Service = {};
  for (const [name, handler] of Object.entries(service)) {
    guarded[name] =
      name === "getWorkItems"
        ? (call: grpc.ServerWritableStream<unknown, unknown>) => {
            const error = refused(call);
            if (error) call.destroy(error);
            else (handler as (call: grpc.ServerWritableStream<unknown, unknown>) => void)(call);
          }
        : (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
            const error = refused(call);
            if (error) callback(error);
            else (handler as grpc.handleUnaryCall<unknown, unknown>)(call, callback);
          };
  }
  return guarded;
}

class SidecarError extends Error {
  constructor(
    readonly code: grpc.status,
    message: string,
  ) {
    super(message);
  }
}

function unary<Request, Response>(
  handle: (request: Request, call: grpc.ServerUnaryCall<Request, Response>) => Promise<Response>,
): grpc.handleUnaryCall<Request, Response> {
  return (call, callback) => {
    handle(call.request, call).then(
      (response) => callback(null, response),
      (error: unknown) => callback(serviceError(error)),
    );
  };
}

function unimplemented(method: string): grpc.handleUnaryCall<unknown, unknown> {
  return (_call, callback) =>
    callback(
      serviceError(new SidecarError(grpc.status.UNIMPLEMENTED, `the stand-in does not implement ${method}`)),
    );
}

function serviceError(error: unknown): grpc.ServiceError {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    error instanceof SidecarError
      ? error.code
      : error instanceof WorkflowInstanceNotFoundError
        ? grpc.status.NOT_FOUND
        : grpc.status.INTERNAL;
  return Object.assign(new Error(message), { code, details: message, metadata: new grpc.Metadata() });
}
