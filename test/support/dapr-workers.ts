import { pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { type Platform, startPlatform } from "../../src/main.js";
import { freePort, skyhubToken } from "./platform.js";
import {
  type StandinSidecar,
  consumerIDsFrom,
  inputBindingsFrom,
  resiliencyFrom,
  startStandinSidecar,
} from "./standin-sidecar/index.js";
import { workflowSidecarPart } from "./standin-sidecar/workflow-grpc.js";

export interface DaprWorkers {
  sidecar: StandinSidecar;
  platform: Platform;
  base: string;
  /** A demo partner's token (Zephyr Air's SkyHub) for the partner API. */
  partnerToken(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The whole service as the `workers` app on the distributed runtime (RUNTIME=dapr), with a
 * stand-in sidecar for actors, pub/sub, state and workflows that reads the pub/sub components'
 * consumer groups (and, unless told not to, the resiliency policies) from components/, as daprd
 * does. `env` adds to or overrides the service's settings.
 */
export async function startDaprWorkers(
  env: Record<string, string> = {},
  options: { resiliency?: boolean } = {},
): Promise<DaprWorkers> {
  const sidecar = await startStandinSidecar({
    workflows: workflowSidecarPart,
    appId: "workers",
    ...(options.resiliency === false ? {} : { resiliency: resiliencyFrom("components/resiliency.yaml") }),
    consumerIDs: consumerIDsFrom("components"),
    inputBindings: inputBindingsFrom("components", "workers"),
  });
  const [port, passengerPort] = [await freePort(), await freePort()];
  const platform = await startPlatform(
    loadConfig({
      RUNTIME: "dapr",
      APP_ID: "workers",
      PORT: String(port),
      PASSENGER_PORT: String(passengerPort),
      DAPR_HTTP_PORT: String(sidecar.httpPort),
      DAPR_GRPC_PORT: String(sidecar.grpcPort),
      LOG_LEVEL: "silent",
      ...env,
    }),
    { logger: pino({ level: "silent" }) },
  );
  await sidecar.attachApp(port);
  const base = `http://localhost:${port}`;
  return {
    sidecar,
    platform,
    base,
    partnerToken: () => skyhubToken(base),
    async close() {
      await platform.close();
      await sidecar.close();
    },
  };
}
