import type { DomainEvent } from "../../domain/domain-event.js";
import type { DeadLetterOffice } from "../dead-letters.js";
import { type DeliveryResult, type EventBus, EventBusClosedError, type Subscription } from "../event-bus.js";
import { randomUuid } from "../../domain/uuid.js";
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
   * The component for subscriptions every replica receives (`replicas: "every"`): the same broker,
   * read with a consumer group per sidecar (components/pubsub-replicas.yaml). Without it they go
   * through `pubsubName`, where one replica of the app handles each event.
   */
  replicaPubsubName?: string;
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

/** One Dapr subscription of the app: a topic on a component, fanned out to the app's subscriptions. */
interface DaprRoute {
  pubsubName: string;
  topic: string;
  deadLetterTopic: string;
  subscriptions: Subscription[];
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
  /** The app's Dapr subscriptions by route name: one per component and topic. */
  private readonly routes = new Map<string, DaprRoute>();
  /** `<subscription>|<event id>` of deliveries that need no rerun, oldest first. */
  private readonly settled = new Set<string>();
  /** Dead-letter topics the app watches for what the sidecar gave up delivering. */
  private readonly undeliverable = new Set<string>();
  private readonly deliveries = new Set<Promise<DeliveryResult>>();
  /** Names this process among the app's replicas, for the give-ups of its every-replica subscriptions. */
  private readonly replicaId = randomUuid();
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
    const everyReplica = subscription.replicas === "every" && this.options.replicaPubsubName !== undefined;
    const pubsubName = everyReplica ? (this.options.replicaPubsubName as string) : this.options.pubsubName;
    const name = everyReplica ? `${pubsubName}/${subscription.topic}` : subscription.topic;
    const known = this.routes.get(name);
    if (known) {
      known.subscriptions.push(subscription);
      return;
    }
    // The sidecar gives up to a topic per app id, or per replica for an every-replica component
    // (every replica reads that component's topics, and another replica's give-ups are not its own).
    const deadLetterTopic = `${subscription.topic}.dead-letter.${this.options.appId}${everyReplica ? `.${this.replicaId}` : ""}`;
    const route: DaprRoute = {
      pubsubName,
      topic: subscription.topic,
      deadLetterTopic,
      subscriptions: [subscription],
    };
    this.routes.set(name, route);
    if (!this.undeliverable.has(subscription.topic)) this.watchDeadLetters(route);
  }

  daprSubscriptions(): DaprSubscriptionEntry[] {
    return [...this.routes].map(([name, route]) => ({
      pubsubname: route.pubsubName,
      topic: route.topic,
      route: subscriptionRoute(name),
      // Reached when a payload is not an event at all or the sidecar's retries run out; subscriptions
      // dead-letter their own drops.
      deadLetterTopic: route.deadLetterTopic,
    }));
  }

  /** Runs one delivery to the route `name`; undefined when the app has no such route. */
  deliver(name: string, body: unknown): Promise<DeliveryResult> | undefined {
    const route = this.routes.get(name);
    if (!route) return undefined;
    const delivery = this.fanOut(route.subscriptions, body);
    this.deliveries.add(delivery);
    return delivery.finally(() => this.deliveries.delete(delivery));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.deliveries]);
  }

  /**
   * What the sidecar gives up delivering (after the inbound retries of components/resiliency.yaml) is
   * dead for every subscription of the route that had not settled it. After a restart the app cannot
   * tell its subscriptions apart any more, and names every one that takes the event's type. The
   * dead-letter topic is read through the shared component: it is this app's (or this replica's) own.
   */
  private watchDeadLetters(route: DaprRoute): void {
    const office = this.options.deadLetters;
    if (!office) return;
    this.undeliverable.add(route.deadLetterTopic);
    this.subscribe({
      name: `dead-letters.${route.deadLetterTopic}`,
      topic: route.deadLetterTopic,
      handler: async (event) => {
        const unsettled = route.subscriptions.filter(
          (s) => takes(s, event) && !this.settled.has(`${s.name}|${event.id}`),
        );
        for (const subscription of unsettled) {
          await office.receive({
            subscription: subscription.name,
            topic: route.topic,
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
