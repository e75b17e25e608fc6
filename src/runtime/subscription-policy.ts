import type { DomainEvent } from "../domain/domain-event.js";
import { type EventOf, type EventType, eventTopic } from "../domain/events/catalogue.js";
import type { DeliveryResult, Subscription } from "./event-bus.js";
import { isStoreUnavailable } from "./store-unavailable-error.js";

/**
 * What a handler's failure leads to; every subscription declares one. This is where the delivery
 * semantics are written down, for both runtimes (Dapr 1.16).
 *
 * - `retry-with-backoff`: the handler's subscription answers RETRY and the event is delivered
 *   again with backoff, 8 deliveries in all; then it is dead-lettered (`retries-exhausted`).
 *   Embedded, the in-process bus retries with `defaultRetryPolicy` (src/runtime/event-bus.ts).
 *   Under Dapr, daprd retries the delivery as the inbound retry policy for the `pubsub` component
 *   says (`pubsubRetry` in components/resiliency.yaml, which daprd reads from its resources path;
 *   its `maxRetries` counts the retries after the first delivery),
 *   then publishes the event to the app's dead-letter topic (`<topic>.dead-letter.<app id>`) and
 *   acknowledges it: the broker does not deliver it again, whatever the pub/sub component's own
 *   metadata says. The app then keeps it as a dead letter of each of its subscriptions that had not
 *   handled it. A sidecar without that policy (another resources path) tries a delivery once: the
 *   first RETRY is dead-lettered.
 * - `dead-letter`: the subscription answers DROP at the first failure: the event is dead-lettered
 *   at once (`dropped`) and never retried.
 *
 * Whatever the policy, a handler that fails because a store is unavailable (isStoreUnavailable:
 * Redis or MongoDB restarting) has not failed the event: the subscription throws that error to the
 * bus instead of answering. In process the bus then waits the outage out, trying again with a
 * capped backoff without counting the tries against the 8 deliveries, and never dead-letters the
 * event for it; under Dapr a throw is a RETRY, and daprd's policy counts it.
 *
 * Whatever the policy, an event the handler refuses (it throws `EventRefused`, or an error its
 * `refuses` recognises) is DROPped: retrying cannot change the answer, and a refused event is
 * never acknowledged as handled. A DROP is kept by the dead-letter office and published to the
 * subscription's dead-letter topic (`<topic>.dead-letter` unless it names one) by the bus itself,
 * on both runtimes; under Dapr the app then answers the sidecar SUCCESS for it, since one delivery
 * of a topic serves all the app's subscriptions to it. Every dead letter is stored, counted, logged
 * and listed at `GET /v1/admin/dead-letters`.
 *
 * daprd reads the answer case-sensitively (`SUCCESS`, `RETRY`, `DROP`; an unknown status counts
 * as a failure and a 2xx without a status as SUCCESS), so the Dapr bus answers every delivery
 * with one of the three, spelled so.
 */
export type FailurePolicy = "retry-with-backoff" | "dead-letter";

/** A handler's answer that the event can never be handled: it goes to the dead letters. */
export class EventRefused extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(reason, options);
    this.name = "EventRefused";
  }
}

/** Where handler failures are logged (a pino logger fits). */
export interface FailureLog {
  warn(fields: object, message: string): void;
}

export interface EventHandlerDeclaration<T extends EventType> {
  /** Unique per bus; also the route name in the Dapr runtime. */
  name: string;
  tenant: string;
  /** Event types of the catalogue; the handler sees only these. */
  types: readonly T[];
  onFailure: FailurePolicy;
  /** Which replicas of the app receive each event (`Subscription.replicas`); one by default. */
  replicas?: "one" | "every";
  /** Failures retrying cannot cure, besides `EventRefused`. */
  refuses?(error: unknown): boolean;
  /** Returns once the event is handled; throws when it is not (see `FailurePolicy`). */
  handle(event: EventOf<T>): Promise<void>;
  /** Read at each failure: the platform may still be starting when the subscription is made. */
  log(): FailureLog;
}

/**
 * A subscription made through the policy, the only kind the runtimes take from the modules (the
 * private field keeps hand-written ones out): its handler answers the bus SUCCESS, RETRY or DROP
 * by the declared policy, never acknowledging a failure.
 */
export class EventSubscription<T extends EventType = EventType> implements Subscription {
  readonly name: string;
  readonly topic: string;
  readonly types: T[];
  readonly onFailure: FailurePolicy;
  readonly replicas: "one" | "every";
  readonly #declaration: EventHandlerDeclaration<T>;

  constructor(declaration: EventHandlerDeclaration<T>) {
    const topics = new Set(declaration.types.map((type) => eventTopic(type, declaration.tenant)));
    const [topic] = topics;
    if (topics.size !== 1 || topic === undefined) {
      throw new Error(`Subscription ${declaration.name} must take event types of exactly one topic`);
    }
    this.name = declaration.name;
    this.topic = topic;
    this.types = [...declaration.types];
    this.onFailure = declaration.onFailure;
    this.replicas = declaration.replicas ?? "one";
    this.#declaration = declaration;
  }

  async handler(event: DomainEvent): Promise<DeliveryResult> {
    const declaration = this.#declaration;
    try {
      // The bus delivers only the subscription's types, all of them catalogue types.
      await declaration.handle(event as EventOf<T>);
      return "SUCCESS";
    } catch (error) {
      // Not the event's failure: the bus waits the outage out and delivers it again (src/runtime/event-bus.ts).
      if (isStoreUnavailable(error)) throw error;
      const refused = error instanceof EventRefused || declaration.refuses?.(error) === true;
      const retry = !refused && declaration.onFailure === "retry-with-backoff";
      declaration.log().warn(
        {
          err: error,
          subscription: this.name,
          eventId: event.id,
          type: event.type,
          caseUrn: event.caseUrn,
        },
        refused
          ? "event refused; dead-lettering it"
          : retry
            ? "event handler failed; retrying with backoff"
            : "event handler failed; dead-lettering it",
      );
      return retry ? "RETRY" : "DROP";
    }
  }
}

export function eventSubscription<T extends EventType>(
  declaration: EventHandlerDeclaration<T>,
): EventSubscription<T> {
  return new EventSubscription(declaration);
}
