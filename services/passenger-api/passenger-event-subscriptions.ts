import { topicFor } from "../../src/domain/domain-event.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";
import { OFFER_EVENT_TYPES, OfferCache } from "../../src/app/passengers/offer-cache.js";
import { PassengerEventStreams } from "./passenger-event-streams.js";
import { PASSENGER_STREAM_TYPES } from "./passenger-stream-events.js";

/**
 * The events passengers' streams carry, to every passenger-api replica (each holds its own
 * passengers' connections): under Dapr through the every-replica pub/sub component, as the
 * operator channel's fan-out (services/realtime/fan-out-subscriptions.ts). A failed fan-out (the
 * replay log did not answer) is retried with backoff. Each replica drops the offers it keeps of a
 * group (OfferCache) on the events that change them; the streams' events drop them too before they
 * go out, since a passenger reloads `GET /v1/me/offer` on one and must not get the offer from before.
 */
export function passengerEventSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  // Both are singletons: resolved on the first event, not looked up in the container on each one.
  let cache: OfferCache | undefined;
  let streams: PassengerEventStreams | undefined;
  const offerCache = () => (cache ??= context().container.resolve(OfferCache));
  const passengerStreams = () => (streams ??= context().container.resolve(PassengerEventStreams));
  return tenants.flatMap((tenant) => [
    eventSubscription({
      name: `passenger-api.event-streams.${topicFor({ tenant })}`,
      tenant,
      types: PASSENGER_STREAM_TYPES,
      onFailure: "retry-with-backoff",
      replicas: "every",
      log: () => context().logger,
      handle: (event) => {
        offerCache().purge(event);
        return passengerStreams().fanOut(event);
      },
    }),
    eventSubscription({
      name: `passenger-api.offer-cache.${topicFor({ tenant })}`,
      tenant,
      types: OFFER_EVENT_TYPES,
      onFailure: "retry-with-backoff",
      replicas: "every",
      log: () => context().logger,
      handle: async (event) => offerCache().purge(event),
    }),
  ]);
}
