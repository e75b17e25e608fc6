import { topicFor } from "../../src/domain/domain-event.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";
import { PassengerEventStreams } from "./passenger-event-streams.js";
import { PASSENGER_STREAM_TYPES } from "./passenger-stream-events.js";

/**
 * The events passengers' streams carry, to every passenger-api replica (each holds its own
 * passengers' connections): under Dapr through the every-replica pub/sub component, as the
 * operator channel's fan-out (services/realtime/fan-out-subscriptions.ts). A failed fan-out (the
 * replay log did not answer) is retried with backoff.
 */
export function passengerEventSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  return tenants.map((tenant) =>
    eventSubscription({
      name: `passenger-api.event-streams.${topicFor({ tenant })}`,
      tenant,
      types: PASSENGER_STREAM_TYPES,
      onFailure: "retry-with-backoff",
      replicas: "every",
      log: () => context().logger,
      handle: (event) => context().container.resolve(PassengerEventStreams).fanOut(event),
    }),
  );
}
