import type { DomainEvent } from "../../domain/domain-event.js";
import { type DeliveryResult, type EventBus, EventBusClosedError, type Subscription } from "../event-bus.js";
import { type SidecarAddress, SidecarHttp } from "./sidecar-http.js";

/** One entry of the answer to the sidecar's `GET /dapr/subscribe`. */
export interface DaprSubscriptionEntry {
  pubsubname: string;
  topic: string;
  route: string;
  deadLetterTopic: string;
}

export interface DaprEventBusOptions {
  sidecar: SidecarAddress;
  /** The pub/sub component name (`components/pubsub.yaml`). */
  pubsubName: string;
  onError?: (error: unknown, subscription: string, event: DomainEvent) => void;
}

/** The app's routes for deliveries, one per subscription below this prefix. */
export const SUBSCRIPTION_ROUTES = "/dapr/events";

export function subscriptionRoute(name: string): string {
  return `${SUBSCRIPTION_ROUTES}/${encodeURIComponent(name)}`;
}

/**
 * The domain event inside a delivery: Dapr wraps what we publish as JSON in a CloudEvent's `data`
 * (or `data_base64`); a raw payload (`rawPayload` metadata) arrives unwrapped.
 */
export function eventFromDelivery(body: unknown): DomainEvent | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const envelope = body as { specversion?: unknown; data?: unknown; data_base64?: unknown };
  let data: unknown = body;
  if (envelope.specversion !== undefined) {
    data =
      typeof envelope.data_base64 === "string"
        ? Buffer.from(envelope.data_base64, "base64").toString("utf8")
        : envelope.data;
  }
  if (typeof data === "string") {
    try {
      data = JSON.parse(data);
    } catch {
      return undefined;
    }
  }
  const event = data as DomainEvent | null;
  return typeof event === "object" &&
    event !== null &&
    typeof event.id === "string" &&
    typeof event.type === "string"
    ? event
    : undefined;
}

/**
 * Pub/sub through the sidecar. Subscriptions become programmatic Dapr subscriptions served by the
 * sidecar routes; every delivery is answered with an explicit status, because Dapr acknowledges a
 * subscriber that merely fails as SUCCESS and the event would be lost.
 */
export class DaprEventBus implements EventBus {
  private readonly sidecar: SidecarHttp;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly deliveries = new Set<Promise<DeliveryResult>>();
  private closed = false;

  constructor(private readonly options: DaprEventBusOptions) {
    this.sidecar = new SidecarHttp(options.sidecar);
  }

  async publish(topic: string, event: DomainEvent): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    const path = `/v1.0/publish/${encodeURIComponent(this.options.pubsubName)}/${encodeURIComponent(topic)}`;
    await this.sidecar.request("POST", path, { body: event });
  }

  /**
   * Registers before the sidecar reads `/dapr/subscribe` (Dapr reads it once, at start-up). Dapr
   * keeps one subscription per topic and app and silently ignores the others, so a second
   * subscription on the same topic is refused here rather than never delivered.
   */
  subscribe(subscription: Subscription): void {
    if (this.subscriptions.has(subscription.name)) {
      throw new Error(`Duplicate subscription name ${subscription.name}`);
    }
    const sameTopic = [...this.subscriptions.values()].find((s) => s.topic === subscription.topic);
    if (sameTopic) {
      throw new Error(
        `Subscription ${subscription.name} is on topic ${subscription.topic} like ${sameTopic.name}; ` +
          "Dapr delivers a topic to one subscription per app: handle both in one subscription",
      );
    }
    this.subscriptions.set(subscription.name, subscription);
  }

  daprSubscriptions(): DaprSubscriptionEntry[] {
    return [...this.subscriptions.values()].map((s) => ({
      pubsubname: this.options.pubsubName,
      topic: s.topic,
      route: subscriptionRoute(s.name),
      deadLetterTopic: s.deadLetterTopic ?? `${s.topic}.dead-letter`,
    }));
  }

  /** Runs one delivery; undefined when no subscription has that name. */
  deliver(name: string, body: unknown): Promise<DeliveryResult> | undefined {
    const subscription = this.subscriptions.get(name);
    if (!subscription) return undefined;
    const delivery = this.handle(subscription, body);
    this.deliveries.add(delivery);
    return delivery.finally(() => this.deliveries.delete(delivery));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.deliveries]);
  }

  private async handle(subscription: Subscription, body: unknown): Promise<DeliveryResult> {
    // A closing app asks for redelivery, which the next instance then gets.
    if (this.closed) return "RETRY";
    const event = eventFromDelivery(body);
    // Redelivering a payload that is not an event cannot help: straight to the dead letter.
    if (!event) return "DROP";
    if (subscription.types && !subscription.types.includes(event.type)) return "SUCCESS";
    try {
      const result = await subscription.handler(event);
      return result === "SUCCESS" || result === "DROP" ? result : "RETRY";
    } catch (error) {
      this.options.onError?.(error, subscription.name, event);
      return "RETRY";
    }
  }
}
