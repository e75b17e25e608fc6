import type { Clock } from "../../../src/runtime/clock.js";
import type { StateStore } from "../../../src/runtime/state-store.js";
import { StandinHttpSidecar, type StandinHttpSidecarOptions } from "./http.js";

export { parseDuration } from "./duration.js";
export type { RegisteredReminder } from "./actors.js";
export { StandinHttpSidecar } from "./http.js";
export type { StandinHttpSidecarOptions } from "./http.js";
export { StandinBroker } from "./pubsub.js";
export type { CloudEvent, SubscriptionEntry } from "./pubsub.js";
export { consumerIDsFrom, inputBindingsFrom } from "./components.js";
export type { InputBindingComponent } from "./components.js";
export type { OutputInvocation } from "./bindings.js";
export { inboundPubsubRetry, resiliencyFrom } from "./resiliency.js";
export type { ResiliencyDocument, RetrySpec } from "./resiliency.js";

/** A part of the stand-in that runs beside the HTTP API on its own port, sharing clock and store. */
export interface StandinSidecarPart {
  port: number;
  close(): Promise<void>;
}

export type StandinSidecarPartStarter = (shared: {
  clock: Clock;
  store: StateStore;
}) => Promise<StandinSidecarPart>;

export interface StandinSidecarOptions extends StandinHttpSidecarOptions {
  /** Starts the workflow gRPC side (the starter exported by `./workflow-grpc.js`); none when absent. */
  workflows?: StandinSidecarPartStarter;
}

export interface StandinSidecar {
  http: StandinHttpSidecar;
  /** What the app uses as DAPR_HTTP_PORT. */
  httpPort: number;
  /** What the app uses as DAPR_GRPC_PORT; set when `workflows` was given. */
  grpcPort: number | undefined;
  /** Connects the app listening on `appPort` (again after a restart). */
  attachApp(appPort: number): Promise<void>;
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a test-only Dapr sidecar on free ports; see `http.ts` and the building blocks beside it for what it speaks. */
export async function startStandinSidecar(options: StandinSidecarOptions = {}): Promise<StandinSidecar> {
  const http = await StandinHttpSidecar.start(options);
  const workflows = await options.workflows?.({ clock: http.clock, store: http.store });
  return {
    http,
    httpPort: http.port,
    grpcPort: workflows?.port,
    attachApp: (appPort) => http.attachApp(appPort),
    idle: () => http.idle(),
    close: async () => {
      await workflows?.close();
      await http.close();
    },
  };
}
