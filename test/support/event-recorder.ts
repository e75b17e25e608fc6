import type { DomainEvent } from "../../src/domain/domain-event.js";
import type { EventBus, Subscription } from "../../src/runtime/event-bus.js";

/**
 * Subscribes on `bus` a handler that acknowledges every event it is given and keeps it, in order of
 * delivery, in `events` (a new list unless the test passes its own); returns that list.
 */
export function recordEvents(
  bus: Pick<EventBus, "subscribe">,
  subscription: Omit<Subscription, "handler">,
  events: DomainEvent[] = [],
): DomainEvent[] {
  bus.subscribe({
    ...subscription,
    handler: async (event) => {
      events.push(event);
      return "SUCCESS";
    },
  });
  return events;
}
