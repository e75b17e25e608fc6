import type { DomainEvent } from "../../domain/domain-event.js";
import type { DeadLetterOffice } from "../dead-letters.js";
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
  /** The pub/sub component name (`components/pubsub-redis.yaml`). */
  pubsubName: string;
  /**
   * This app's Dapr app id (APP_ID, which `dapr run` sets): its consumer group on the component,
   * and the suffix of the dead-letter topics its sidecar gives up to.
   */
  appId: string;
  /**
   * Keeps, counts and reports what subscriptions give up on: what they drop, and what the sidecar
   * sends to this app's dead-letter topic of a topic once its retries run out (then the app
   * subscribes to it).
   */
  deadLetters?: DeadLetterOffice;
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

/** How many (subscription, event) outcomes to remember so a redelivery skips handlers that are done. */
const SETTLED_MEMORY = 50_000;

/**
 * Pub/sub through the sidecar. Dapr delivers a topic to one programmatic subscription per app, so
 * the app declares one Dapr subscription per topic and fans each delivery out to its own
 * subscriptions. Each keeps its own outcome: a redelivery runs only the handlers that asked for a
 * retry, and a subscription that drops an event sends it to its own dead-letter topic. Every
 * delivery is answered with an explicit status (what each means to daprd 1.16, and what reaches
 * the dead letters when: src/runtime/subscription-policy.ts).
 */
export class DaprEventBus implements EventBus {
  private readonly sidecar: SidecarHttp;
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly byTopic = new Map<string, Subscription[]>();
  /** `<subscription>|<event id>` of deliveries that need no rerun, oldest first. */
  private readonly settled = new Set<string>();
  /** Dead-letter topics the app watches for what the sidecar gave up delivering. */
  private readonly undeliverable = new Set<string>();
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

  /** Registers before the sidecar reads `/dapr/subscribe` (Dapr reads it once, at start-up). */
  subscribe(subscription: Subscription): void {
    if (this.subscriptions.has(subscription.name)) {
      throw new Error(`Duplicate subscription name ${subscription.name}`);
    }
    this.subscriptions.set(subscription.name, subscription);
    const known = this.byTopic.has(subscription.topic);
    this.byTopic.set(subscription.topic, [...(this.byTopic.get(subscription.topic) ?? []), subscription]);
    if (!known && !this.undeliverable.has(subscription.topic)) this.watchDeadLetters(subscription.topic);
  }

  daprSubscriptions(): DaprSubscriptionEntry[] {
    return [...this.byTopic.keys()].map((topic) => ({
      pubsubname: this.options.pubsubName,
      topic,
      route: subscriptionRoute(topic),
      // Reached when a payload is not an event at all or the sidecar's retries run out; subscriptions
      // dead-letter their own drops.
      deadLetterTopic: this.undeliverableTopic(topic),
    }));
  }

  /** Runs one delivery of `topic`; undefined when the app does not subscribe to it. */
  deliver(topic: string, body: unknown): Promise<DeliveryResult> | undefined {
    const subscriptions = this.byTopic.get(topic);
    if (!subscriptions) return undefined;
    const delivery = this.fanOut(subscriptions, body);
    this.deliveries.add(delivery);
    return delivery.finally(() => this.deliveries.delete(delivery));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.deliveries]);
  }

  /**
   * Where this app's sidecar sends what it gave up delivering: one topic per app id, since every app
   * id subscribing to `topic` receives all of that topic's dead letters as a consumer group of its
   * own, and another app's give-ups are not this app's.
   */
  private undeliverableTopic(topic: string): string {
    return `${topic}.dead-letter.${this.options.appId}`;
  }

  /**
   * What the sidecar gives up delivering (after the inbound retries of components/resiliency.yaml) is
   * dead for every subscription that had not settled it. After a restart the app cannot tell its
   * subscriptions apart any more, and names every one that takes the event's type.
   */
  private watchDeadLetters(topic: string): void {
    const office = this.options.deadLetters;
    if (!office) return;
    const deadLetterTopic = this.undeliverableTopic(topic);
    this.undeliverable.add(deadLetterTopic);
    this.subscribe({
      name: `dead-letters.${topic}`,
      topic: deadLetterTopic,
      handler: async (event) => {
        const unsettled = (this.byTopic.get(topic) ?? []).filter(
          (s) => takes(s, event) && !this.settled.has(`${s.name}|${event.id}`),
        );
        for (const subscription of unsettled) {
          await office.receive({
            subscription: subscription.name,
            topic,
            event,
            reason: "retries-exhausted",
          });
        }
        return "SUCCESS";
      },
    });
  }

  private async fanOut(subscriptions: Subscription[], body: unknown): Promise<DeliveryResult> {
    // A closing app asks for redelivery, which the next instance then gets.
    if (this.closed) return "RETRY";
    const event = eventFromDelivery(body);
    // Redelivering a payload that is not an event cannot help: straight to the dead letter.
    if (!event) return "DROP";
    const results = await Promise.all(subscriptions.map((subscription) => this.handle(subscription, event)));
    return results.includes("RETRY") ? "RETRY" : "SUCCESS";
  }

  private async handle(subscription: Subscription, event: DomainEvent): Promise<DeliveryResult> {
    const key = `${subscription.name}|${event.id}`;
    if (this.settled.has(key)) return "SUCCESS";
    let result: DeliveryResult = "SUCCESS";
    if (takes(subscription, event)) {
      try {
        result = await subscription.handler(event);
        if (result === "DROP") {
          await this.options.deadLetters?.receive({
            subscription: subscription.name,
            topic: subscription.topic,
            event,
            reason: "dropped",
          });
          await this.publish(subscription.deadLetterTopic ?? `${subscription.topic}.dead-letter`, event);
        }
      } catch (error) {
        this.options.onError?.(error, subscription.name, event);
        result = "RETRY";
      }
    }
    if (result !== "RETRY") this.remember(key);
    return result === "DROP" ? "SUCCESS" : result;
  }

  private remember(key: string): void {
    this.settled.add(key);
    if (this.settled.size > SETTLED_MEMORY) this.settled.delete(this.settled.values().next().value!);
  }
}

function takes(subscription: Subscription, event: DomainEvent): boolean {
  return !subscription.types || subscription.types.includes(event.type);
}
