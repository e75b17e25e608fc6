import type { Logger } from "pino";
import { inject, injectable } from "tsyringe";
import { WebhookDeliveryActor, webhookDeliveryActorId } from "../../../actors/WebhookDeliveryActor.js";
import type { DomainEvent } from "../../domain/domain-event.js";
import { DomainError } from "../../domain/domain-error.js";
import type { EventOf } from "../../domain/events/catalogue.js";
import type { WebhookDeliveryDueData } from "../../domain/events/webhook.js";
import { webhookData } from "../../domain/webhooks/webhook-payload.js";
import {
  isPartnerEventType,
  type PartnerEventType,
  subscribesTo,
  type WebhookSubscription,
} from "../../domain/webhooks/webhook-subscription.js";
import { randomUuid } from "../../domain/uuid.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import { type EventBus, publishEvent } from "../../runtime/event-bus.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { DrillCases } from "../cases/drill-cases.js";
import type { Directory } from "../directory.js";
import { type HeldEventDoc, WEBHOOK_COLLECTIONS } from "./webhook-documents.js";
import { WebhookDispatcher } from "./webhook-dispatcher.js";
import { WebhookEventLog } from "./webhook-event-log.js";
import { WebhookSender } from "./webhook-sender.js";
import { WebhookSubscriptionStore } from "./webhook-subscription-store.js";

/**
 * Partner events to the registrations' webhooks (spec 6.1): every subscribed registration of the
 * event's tenant, and no other, whose scopes allow the type; attempt 1 at once, later attempts on
 * the delivery actor's reminders; after the 7th failed attempt the subscription is paused, and
 * what comes due while it is paused is held until a test delivery re-enables it.
 */
@injectable()
export class WebhookDeliveries {
  private readonly held: DocumentCollection<HeldEventDoc>;

  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.directory) private readonly directory: Directory,
    @inject(TOKENS.logger) private readonly logger: Logger,
    @inject(TOKENS.bus) private readonly bus: EventBus,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(TOKENS.documents) documents: DocumentStore,
    @inject(WebhookSubscriptionStore) private readonly subscriptions: WebhookSubscriptionStore,
    @inject(WebhookEventLog) private readonly log: WebhookEventLog,
    @inject(WebhookSender) private readonly sender: WebhookSender,
    @inject(WebhookDispatcher) private readonly dispatcher: WebhookDispatcher,
    @inject(DrillCases) private readonly drills: DrillCases,
  ) {
    this.held = documents.collection<HeldEventDoc>(WEBHOOK_COLLECTIONS.held);
  }

  async ensureIndexes(): Promise<void> {
    await this.held.ensureIndex({ keys: { clientId: 1, occurredAtMs: 1 } });
  }

  /**
   * An event from the bus: logged for replay, then a delivery begun for each registration that
   * takes it. Returns once each delivery is recorded on its actor (the attempt itself runs in the
   * dispatcher); an event the bus brings again finds its deliveries begun and starts none.
   */
  async accept(event: DomainEvent): Promise<void> {
    if (!isPartnerEventType(event.type)) return;
    // A drill's events reach no partner (spec 4.2 "Run a drill"), not even by a later replay.
    if (event.caseUrn && (await this.drills.isDrill(event.caseUrn))) return;
    await this.log.append(event);
    for (const subscription of await this.subscriptions.ofTenant(event.tenant)) {
      if (!(await this.takes(subscription, event.type))) continue;
      if (subscription.status === "PAUSED") {
        await this.holdBack(subscription, event);
        continue;
      }
      await this.begin(subscription, event, false);
    }
  }

  /** A retry's reminder fired (`webhook.delivery-due`): the attempt, if it is still due. */
  async attemptDue(tenant: string, due: WebhookDeliveryDueData): Promise<void> {
    const actorId = webhookDeliveryActorId(due.clientId, due.eventUrn);
    const subscription = await this.subscriptions.get(due.clientId, tenant);
    const logged = await this.log.get(tenant, due.eventUrn);
    if (!subscription || !logged || !(await this.takes(subscription, logged.event.type))) {
      // Unsubscribed, or the event is older than the replay window: nothing left to deliver.
      await this.actors.invoke(WebhookDeliveryActor, actorId, "attemptEnded", {
        attempt: due.attempt,
        delivered: false,
      });
      return;
    }
    if (subscription.status === "PAUSED") {
      await this.holdBack(subscription, logged.event);
      return;
    }
    const delivery = await this.actors.invoke(WebhookDeliveryActor, actorId, "startAttempt", {
      attempt: due.attempt,
    });
    if (delivery?.status !== "RETRYING" || delivery.attempts !== due.attempt) return;
    this.dispatch(subscription, logged.event, due.attempt);
  }

  /**
   * Delivers what was held during a pause, oldest first, each in a new round. Held events older
   * than the replay window are gone with it.
   */
  async releaseHeld(subscription: WebhookSubscription): Promise<number> {
    const held = await this.held.findAll({ clientId: subscription.clientId }, { sort: { occurredAtMs: 1 } });
    let released = 0;
    for (const entry of held) {
      await this.held.deleteOne({ _id: entry._id });
      const logged = await this.log.get(subscription.tenant, entry.eventUrn);
      if (!logged) continue;
      await this.begin(subscription, logged.event, true);
      released++;
    }
    return released;
  }

  /**
   * Spec 4.3's replay: the registration's events from `since` to `until` (both included, both
   * within the last 7 days), delivered again to its URL in new rounds. Nothing is published again,
   * so no handler of the platform runs twice: only the partner hears the events again.
   */
  async replay(subscription: WebhookSubscription, since: string, until: string): Promise<string[]> {
    const [from, to] = [
      await this.log.get(subscription.tenant, since),
      await this.log.get(subscription.tenant, until),
    ];
    if (!from || !to) {
      throw new DomainError(
        "not-found",
        "event-not-found",
        `No event ${!from ? since : until} of the airline in the last 7 days`,
      );
    }
    if (from.occurredAtMs > to.occurredAtMs) {
      throw new DomainError("unprocessable", "replay-range-reversed", "since must not come after until");
    }
    const replayed: string[] = [];
    for (const logged of await this.log.between(subscription.tenant, from.occurredAtMs, to.occurredAtMs)) {
      if (!(await this.takes(subscription, logged.type))) continue;
      await this.begin(subscription, logged.event, true);
      replayed.push(logged._id);
    }
    return replayed;
  }

  /** Forgets held events older than the replay window: they could not be delivered any more. */
  async pruneHeld(cutoffMs: number): Promise<number> {
    return this.held.deleteMany({ occurredAtMs: { $lt: cutoffMs } });
  }

  /** Whether the registration still exists for the tenant and its scopes and subscription take the type. */
  private async takes(subscription: WebhookSubscription, type: string): Promise<boolean> {
    const registration = await this.directory.findPartnerRegistration(subscription.clientId);
    return (
      registration !== undefined &&
      registration.airlineUrn === subscription.tenant &&
      subscribesTo(subscription, type, new Set(registration.scopes))
    );
  }

  private async begin(subscription: WebhookSubscription, event: DomainEvent, again: boolean): Promise<void> {
    const { started } = await this.actors.invoke(
      WebhookDeliveryActor,
      webhookDeliveryActorId(subscription.clientId, event.id),
      "begin",
      { clientId: subscription.clientId, eventUrn: event.id, tenant: event.tenant, again },
    );
    if (started) this.dispatch(subscription, event, 1);
  }

  private dispatch(subscription: WebhookSubscription, event: DomainEvent, attempt: number): void {
    this.dispatcher.enqueue(subscription.tier, () => this.attempt(subscription, event, attempt));
  }

  private async attempt(
    subscription: WebhookSubscription,
    event: DomainEvent,
    attempt: number,
  ): Promise<void> {
    const actorId = webhookDeliveryActorId(subscription.clientId, event.id);
    try {
      const data = webhookData(event as EventOf<PartnerEventType>);
      const outcome = await this.sender.send(subscription, event, data, attempt);
      const delivery = await this.actors.invoke(WebhookDeliveryActor, actorId, "attemptEnded", {
        attempt,
        delivered: outcome.delivered,
      });
      if (delivery?.status === "EXHAUSTED") await this.pause(subscription, event);
    } catch (error) {
      // The actor's reminder stands: the next attempt comes as scheduled.
      this.logger.warn(
        { err: error, clientId: subscription.clientId, eventUrn: event.id },
        "webhook attempt failed to run",
      );
    }
  }

  /**
   * The 7th attempt failed: the subscription is paused, the event held with whatever comes next,
   * and the partner's contact told (spec 6.1) through `webhook.subscription-paused`, which
   * alerting sends on (services/alerting).
   */
  private async pause(subscription: WebhookSubscription, event: DomainEvent): Promise<void> {
    await this.holdBack(subscription, event);
    if (await this.subscriptions.move(subscription.clientId, "ACTIVE", "PAUSED")) {
      this.logger.warn(
        {
          partnerUrn: subscription.partnerUrn,
          clientId: subscription.clientId,
          tenant: subscription.tenant,
          url: subscription.url,
          eventUrn: event.id,
        },
        "webhook subscription paused after 7 failed attempts; a successful POST /partner/v1/webhooks/test re-enables it",
      );
      await publishEvent(this.bus, {
        id: randomUuid("urn:event:"),
        type: "webhook.subscription-paused",
        tenant: subscription.tenant,
        occurredAt: new Date(this.clock.now()).toISOString(),
        correlationUrn: event.correlationUrn,
        data: {
          clientId: subscription.clientId,
          partnerUrn: subscription.partnerUrn,
          url: subscription.url,
          eventUrn: event.id,
        },
      });
    }
  }

  private async holdBack(subscription: WebhookSubscription, event: DomainEvent): Promise<void> {
    await this.held.put({
      _id: `${subscription.clientId}~${event.id}`,
      clientId: subscription.clientId,
      eventUrn: event.id,
      occurredAtMs: Date.parse(event.occurredAt),
    });
    await this.actors.invoke(
      WebhookDeliveryActor,
      webhookDeliveryActorId(subscription.clientId, event.id),
      "hold",
    );
  }
}
