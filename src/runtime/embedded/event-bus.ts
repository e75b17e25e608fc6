import type { DomainEvent } from "../../domain/domain-event.js";
import type { Clock } from "../clock.js";
import type { DeadLetter, DeadLetterOffice } from "../dead-letters.js";
import {
  type DeliveryResult,
  type EventBus,
  EventBusClosedError,
  type RetryPolicy,
  type Subscription,
  defaultRetryPolicy,
  retryDelay,
} from "../event-bus.js";
import { CancellableWaits } from "../cancellable-waits.js";
import { isStoreUnavailable, storeOutageWaitMs } from "../store-unavailable-error.js";

export interface EmbeddedEventBusOptions {
  clock: Clock;
  retry?: RetryPolicy;
  random?: () => number;
  /** Keeps, counts and reports what subscriptions give up on. */
  deadLetters?: DeadLetterOffice;
  onError?: (error: unknown, subscription: string, event: DomainEvent) => void;
}

/**
 * In-process pub/sub with Dapr's delivery contract: at least once per subscription, redelivery
 * with backoff on RETRY (or a throw), dead letter on DROP or when retries run out. A store outage
 * (a throw that isStoreUnavailable) is waited out and retried for as long as it lasts, never
 * dead-lettered.
 *
 * There is no broker to hold events, so `publish` resolves only once every subscriber has settled
 * the event: the actor outbox keeps an event until then and republishes it after a restart.
 */
export class EmbeddedEventBus implements EventBus {
  private readonly subscriptions = new Map<string, Subscription[]>();
  /**
   * Per topic and event type, the subscriptions that take it, found on the first publish of the
   * pair: a tenant's topic has dozens of subscriptions, each with its list of types, and every
   * event of a saga's steps went through them all.
   */
  private readonly routes = new Map<string, Map<string, Subscription[]>>();
  private readonly names = new Set<string>();
  private readonly retry: RetryPolicy;
  private readonly random: () => number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly waits: CancellableWaits;
  private closed = false;
  /**
   * Without a dead-letter office, dead letters with no subscriber on their dead-letter topic are
   * kept here for inspection (with that topic).
   */
  readonly unclaimedDeadLetters: DeadLetter[] = [];

  constructor(private readonly options: EmbeddedEventBusOptions) {
    this.retry = options.retry ?? defaultRetryPolicy;
    this.random = options.random ?? Math.random;
    this.waits = new CancellableWaits(options.clock);
  }

  subscribe(subscription: Subscription): void {
    if (this.names.has(subscription.name))
      throw new Error(`Duplicate subscription name ${subscription.name}`);
    this.names.add(subscription.name);
    const list = this.subscriptions.get(subscription.topic) ?? [];
    list.push(subscription);
    this.subscriptions.set(subscription.topic, list);
    this.routes.delete(subscription.topic);
  }

  async publish(topic: string, event: DomainEvent): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    // Subscriptions that do not take this type acknowledge it at once: no delivery to track.
    const takers = this.takersOf(topic, event.type);
    if (takers.length === 0) return;
    const deliveries = takers.map((subscription) => this.deliver(subscription, event));
    await this.track(
      deliveries.length === 1 ? deliveries[0]! : Promise.all(deliveries).then(() => undefined),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waits.cancelAll();
    await Promise.allSettled([...this.inFlight]);
  }

  private takersOf(topic: string, type: string): Subscription[] {
    let byType = this.routes.get(topic);
    if (!byType) {
      byType = new Map();
      this.routes.set(topic, byType);
    }
    let takers = byType.get(type);
    if (!takers) {
      takers = (this.subscriptions.get(topic) ?? []).filter(
        (subscription) => !subscription.types || subscription.types.includes(type),
      );
      byType.set(type, takers);
    }
    return takers;
  }

  private track(delivery: Promise<void>): Promise<void> {
    this.inFlight.add(delivery);
    return delivery.finally(() => this.inFlight.delete(delivery));
  }

  /**
   * Delivers until the subscription settles the event. A failure because a store is unavailable
   * is no attempt of the event's: it is tried again after `storeOutageWaitMs`, however long the
   * outage lasts, and only the other failures count against `retry.maxAttempts`.
   */
  private async deliver(subscription: Subscription, event: DomainEvent): Promise<void> {
    for (let attempt = 1, outage = 0; ; ) {
      let result: DeliveryResult;
      try {
        result = await subscription.handler(event);
      } catch (error) {
        this.options.onError?.(error, subscription.name, event);
        if (isStoreUnavailable(error)) {
          await this.waitOrAbandon(storeOutageWaitMs(++outage));
          continue;
        }
        result = "RETRY";
      }
      outage = 0;
      if (result === "SUCCESS") return;
      if (result === "DROP") return this.deadLetter(subscription, event, "dropped");
      if (attempt >= this.retry.maxAttempts) return this.deadLetter(subscription, event, "retries-exhausted");
      await this.waitOrAbandon(retryDelay(this.retry, attempt++, this.random));
    }
  }

  /** Waits `ms`; a closed bus abandons the delivery instead, and the publisher's outbox still holds the event. */
  private async waitOrAbandon(ms: number): Promise<void> {
    if (!(await this.waits.wait(ms))) throw new EventBusClosedError();
  }

  private async deadLetter(subscription: Subscription, event: DomainEvent, reason: DeadLetter["reason"]) {
    const letter = { subscription: subscription.name, topic: subscription.topic, event, reason };
    // The office keeps letters in the document store: an outage of it is waited out as a handler's is.
    for (let outage = 1; ; outage++) {
      try {
        await this.options.deadLetters?.receive(letter);
        break;
      } catch (error) {
        if (!isStoreUnavailable(error)) throw error;
        this.options.onError?.(error, subscription.name, event);
        await this.waitOrAbandon(storeOutageWaitMs(outage));
      }
    }
    const topic = subscription.deadLetterTopic ?? `${subscription.topic}.dead-letter`;
    if ((this.subscriptions.get(topic) ?? []).length === 0) {
      if (!this.options.deadLetters) {
        this.unclaimedDeadLetters.push({ subscription: subscription.name, topic, event, reason });
      }
      return;
    }
    await this.publish(topic, event);
  }
}
