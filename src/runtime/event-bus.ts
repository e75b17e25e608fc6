import type { DomainEvent } from "../domain/domain-event.js";
import { type EventDataByType, type EventType, eventTopic } from "../domain/events/catalogue.js";

/** A subscriber's verdict on one delivery, as Dapr pub/sub understands it. */
export type DeliveryResult = "SUCCESS" | "RETRY" | "DROP";

export interface Subscription {
  /** Unique per bus; also the route name in the Dapr runtime. */
  name: string;
  topic: string;
  /** Only events of these types reach the handler (others are acknowledged); all when absent. */
  types?: string[];
  /**
   * A throw counts as RETRY, except one that isStoreUnavailable: the embedded bus waits that out
   * without counting it (src/runtime/subscription-policy.ts).
   */
  handler(event: DomainEvent): Promise<DeliveryResult>;
  /**
   * Where the bus publishes an event the subscription DROPs, and in process one whose retries ran
   * out (src/runtime/subscription-policy.ts). Default `<topic>.dead-letter`.
   */
  deadLetterTopic?: string;
  /**
   * `every`: each running replica of the app receives every event, for work a replica does for
   * what it alone holds (the real-time fan-out to its own connections). By default one replica of
   * the app handles each event. In process there is one replica: the embedded bus ignores it.
   */
  replicas?: "one" | "every";
}

export interface EventBus {
  /** Resolves once the bus has accepted the event (it is then delivered at least once). */
  publish(topic: string, event: DomainEvent): Promise<void>;
  subscribe(subscription: Subscription): void;
  /** Stops accepting work and waits for deliveries in flight. */
  close(): Promise<void>;
}

export interface RetryPolicy {
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxAttempts: 8, initialDelayMs: 100, maxDelayMs: 30_000 };

/** Exponential backoff with full jitter; `attempt` counts from 1 for the first retry. */
export function retryDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A delivery abandoned because the bus closed; the publisher keeps the event for later. */
export class EventBusClosedError extends Error {
  constructor() {
    super("The event bus is closed");
    this.name = "EventBusClosedError";
  }
}

/**
 * Publishes an event of the catalogue on its topic, straight to the bus: for events an actor's
 * outbox does not carry (progress heartbeats, alerts, logouts), where the caller handles a failure.
 */
export function publishEvent<T extends EventType>(
  bus: EventBus,
  event: DomainEvent<EventDataByType[T]> & { type: T },
): Promise<void> {
  return bus.publish(eventTopic(event.type, event.tenant), event);
}
