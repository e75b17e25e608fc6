import type { Middleware } from "koa";
import { subscriptionReporting } from "../dead-letters.js";
import type { Runtime, RuntimeOptions } from "../runtime.js";
import { DaprActorRuntime } from "./actor-runtime.js";
import { DaprEventBus } from "./event-bus.js";
import { DaprInputBindings } from "./input-bindings.js";
import { DaprOutputBinding } from "./output-binding.js";
import { sidecarRouter } from "./sidecar-routes.js";
import { DaprStateStore } from "./state-store.js";
import { DaprWorkflowEngine } from "./workflow-engine.js";

/** Where this app's sidecar listens and the components it uses (components/*.yaml). */
export interface DaprSidecarSettings {
  httpPort: number;
  grpcPort: number;
  pubsubName: string;
  /** The component for subscriptions every replica receives (components/pubsub-replicas.yaml). */
  replicaPubsubName?: string;
  stateStoreName: string;
  /** Sent as `dapr-api-token` on every call to the sidecar (DAPR_API_TOKEN). */
  apiToken?: string | undefined;
  /** Required as `dapr-api-token` on every call from the sidecar (APP_API_TOKEN). */
  appApiToken?: string | undefined;
}

export interface DaprRuntimeOptions extends RuntimeOptions {
  dapr: DaprSidecarSettings;
  /** This app's Dapr app id (APP_ID). */
  appId: string;
}

/** Actors, pub/sub, state and workflows through this app's Dapr sidecar. */
export function createDaprRuntime(options: DaprRuntimeOptions): Runtime {
  const { dapr, clock, documents, counters, onError } = options;
  const sidecar = { httpPort: dapr.httpPort, ...(dapr.apiToken ? { apiToken: dapr.apiToken } : {}) };
  const { store: deadLetters, busOptions } = subscriptionReporting(documents, clock, onError);
  const bus = new DaprEventBus({
    sidecar,
    pubsubName: dapr.pubsubName,
    ...(dapr.replicaPubsubName ? { replicaPubsubName: dapr.replicaPubsubName } : {}),
    appId: options.appId,
    ...busOptions,
  });
  const actors = new DaprActorRuntime({ sidecar, bus, clock, ...(onError ? { onError } : {}) });
  const state = new DaprStateStore({ sidecar, storeName: dapr.stateStoreName });
  const workflows = new DaprWorkflowEngine({
    registry: options.workflows,
    daprHost: "127.0.0.1",
    daprGrpcPort: dapr.grpcPort,
    ...(dapr.apiToken ? { apiToken: dapr.apiToken } : {}),
  });
  for (const actorType of options.actorTypes) actors.register(actorType);
  for (const subscription of options.subscriptions) bus.subscribe(subscription);
  const inputBindings = new DaprInputBindings();
  const router = sidecarRouter({
    actors,
    bus,
    inputBindings,
    ...(dapr.appApiToken ? { appApiToken: dapr.appApiToken } : {}),
  });
  const routes = router.routes() as Middleware;
  const allowed = router.allowedMethods() as Middleware;

  return {
    kind: "dapr",
    clock,
    actors,
    bus,
    workflows,
    state,
    documents,
    counters,
    deadLetters,
    sidecarRoutes: (ctx, next) => routes(ctx, () => allowed(ctx, next)),
    inputBinding: (name) => inputBindings.binding(name),
    outputBinding: (name) => new DaprOutputBinding(name, sidecar),
    start: () => workflows.start(),
    async close() {
      await actors.close();
      await workflows.close();
      await bus.close();
      await Promise.all([documents.close(), counters.close(), state.close()]);
    },
  };
}
