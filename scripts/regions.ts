/**
 * `npm run regions`: the three demo regions (processes on ports 8180, 8190, 8200) behind the
 * multi-region virtual host on http://localhost:8070 (ROUTER_PORT), which sends every host to
 * the healthy region nearest to ROUTER_LOCATION (default: Lisbon, so Europe first). Stop a
 * region's process (its pid is printed) and the router moves on to the next nearest.
 */
import { pino } from "pino";
import { startRegionRouter } from "../services/region-router/region-router.js";
import { loadRouterSettings } from "../services/region-router/router-settings.js";
import { DEMO_REGIONS, routerRegionsSetting, startRegionalInstance } from "./regional-instances.js";

const routerPort = Number(process.env.ROUTER_PORT || 8070);
const virtualHostUrl = `http://localhost:${routerPort}`;
const logger = pino({ level: "info" });

const [identity, ...others] = DEMO_REGIONS;
if (!identity) throw new Error("no regions");
const first = await startRegionalInstance(identity, virtualHostUrl, undefined);
const instances = [
  first,
  ...(await Promise.all(others.map((spec) => startRegionalInstance(spec, virtualHostUrl, first.url)))),
];
const router = await startRegionRouter(
  loadRouterSettings({
    ROUTER_REGIONS: routerRegionsSetting(instances),
    ROUTER_HOSTS: process.env.ROUTER_HOSTS || "*=na,eu,sa",
    ROUTER_LOCATION: process.env.ROUTER_LOCATION || "38.72,-9.14",
    ROUTER_IDENTITY_REGION: identity.name,
    ROUTER_PORT: String(routerPort),
    ROUTER_HOST: "127.0.0.1",
  }),
  logger,
);
for (const instance of instances) {
  logger.info({ region: instance.spec.name, url: instance.url, pid: instance.process.pid }, "region ready");
}
logger.info(
  { url: router.url, virtualHost: virtualHostUrl },
  "virtual host ready: GET /version shows the region",
);

const stop = async () => {
  await router.close();
  for (const instance of instances) instance.process.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
