import { SubCaseActor } from "../../actors/SubCaseActor.js";
import { SubCaseIndex } from "../../src/app/sub-cases/sub-case-index.js";
import { CONSOLE_CLIENT_ID } from "../../src/identity/identity-provider.js";
import type { ServiceModule } from "../module.js";
import { channelRoute } from "../realtime/channel-route.js";
import { realtimeSubscriptions } from "../realtime/fan-out-subscriptions.js";
import { logoutRoute } from "../realtime/logout-route.js";
import { OperatorLogout } from "../realtime/operator-logout.js";
import { realtimeHubOf } from "../realtime/realtime-hub.js";
import { RefreshTokenRevocation } from "../realtime/refresh-token-revocation.js";
import { subCaseRoutes } from "./sub-case-routes.js";
import { subCaseSubscriptions } from "./subscriptions.js";
import { topicFor } from "../../src/domain/domain-event.js";

/**
 * Sub-cases and their operator locks, with the operator real-time channel that releases a lock
 * when its holder's connection drops, and the logout that closes those connections first. The
 * channel's WebSocket server itself is attached to the operator host by the composition root
 * (`attachRealtime` in services/realtime/realtime-channel.ts).
 */
export const subCasesModule: ServiceModule = {
  name: "sub-cases",
  actorTypes: [SubCaseActor],
  subscriptions: (context, tenants) => {
    const topics = tenants.map((tenant) => topicFor({ tenant }));
    return [...subCaseSubscriptions(context, topics), ...realtimeSubscriptions(context, topics)];
  },
  routes: ({ config, runtime }) => {
    const authUrl = config.oidcIssuer ?? `${config.publicBaseUrl}/auth`;
    const revocation = new RefreshTokenRevocation(authUrl, CONSOLE_CLIENT_ID);
    return [...subCaseRoutes(runtime), logoutRoute(new OperatorLogout(runtime, revocation)), channelRoute()];
  },
  start: async ({ runtime }) => {
    await new SubCaseIndex(runtime.documents).ensureIndexes();
    await realtimeHubOf(runtime).updates.ensureIndexes();
  },
};
