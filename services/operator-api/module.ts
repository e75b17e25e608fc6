import type { ServiceModule } from "../module.js";
import { auditRoutes } from "./audit-routes.js";
import { deadLetterRoutes } from "./dead-letter-routes.js";
import { versionRoute } from "./version-route.js";

/** Platform routes every deployment serves: version, the audit trail and the dead letters. */
export const platformModule: ServiceModule = {
  name: "platform",
  routes: ({ config, audit, runtime }) => [
    versionRoute({ build: config.build, apiVersion: config.apiVersion, region: config.region }),
    ...auditRoutes(audit),
    ...deadLetterRoutes(runtime.deadLetters),
  ],
};
