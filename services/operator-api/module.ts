import type { ServiceModule } from "../module.js";
import { auditRoutes } from "./audit-routes.js";
import { versionRoute } from "./version-route.js";

/** Platform routes every deployment serves: version and the audit trail. */
export const platformModule: ServiceModule = {
  name: "platform",
  routes: ({ config, audit }) => [
    versionRoute({ build: config.build, apiVersion: config.apiVersion, region: config.region }),
    ...auditRoutes(audit),
  ],
};
