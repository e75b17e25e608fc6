import { topicFor } from "../../src/domain/domain-event.js";
import { EVENT_TYPES } from "../../src/domain/events/catalogue.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";
import { RealtimeHub } from "./realtime-hub.js";

/**
 * Every event of every tenant topic goes to this process's operator connections (spec 4.1: each
 * API replica fans out what it receives); a failed fan-out is retried with backoff. In the
 * distributed runtime each replica must receive every event: the subscription asks for every
 * replica, which the Dapr bus serves through a pub/sub component with a consumer group per sidecar.
 */
export function realtimeSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  // Resolved at the first event (the context is bound once the platform has started), not per event.
  let resolved: RealtimeHub | undefined;
  const hub = () => (resolved ??= context().container.resolve(RealtimeHub));
  return tenants.map((tenant) =>
    eventSubscription({
      name: `realtime.fan-out.${topicFor({ tenant })}`,
      tenant,
      types: EVENT_TYPES,
      onFailure: "retry-with-backoff",
      replicas: "every",
      log: () => context().logger,
      handle: (event) => hub().fanOut(event),
    }),
  );
}
