import type { DomainEvent } from "../domain/domain-event.js";
import { type EventOf, type EventType, eventTopic } from "../domain/events/catalogue.js";
import type { DeliveryResult, Subscription } from "./event-bus.js";

/**
 * What a handler's failure leads to; every subscription declares one.
 *
 * - `retry-with-backoff`: the event is delivered again with the bus's exponential backoff
 *   (`defaultRetryPolicy` in process, `pubsubRetry` in components/resiliency.yaml under Dapr) and
 *   dead-lettered once the attempts run out.
 * - `dead-letter`: the event is dead-lettered at the first failure.
 *
 * Whatever the policy, an event the handler refuses (it throws `EventRefused`, or an error its
 * `refuses` recognises) is dead-lettered at once: retrying cannot change the answer, and a refused
 * event is never acknowledged as handled.
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
    this.#declaration = declaration;
  }

  async handler(event: DomainEvent): Promise<DeliveryResult> {
    const declaration = this.#declaration;
    try {
      // The bus delivers only the subscription's types, all of them catalogue types.
      await declaration.handle(event as EventOf<T>);
      return "SUCCESS";
    } catch (error) {
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
