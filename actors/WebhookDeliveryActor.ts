import {
  attemptEnded,
  attemptStarted,
  beginRound,
  type DeliveryKey,
  hold,
  type WebhookDelivery,
} from "../src/domain/webhooks/webhook-delivery.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

const STATE = "delivery";
const NEXT_ATTEMPT = "next-attempt";

/**
 * One event's delivery to one registration's webhook (spec 6.1). It keeps the round's attempts
 * and a reminder for the next one, always set before an attempt is made, so a delivery survives a
 * restart mid-attempt. When the reminder fires it emits `webhook.delivery-due`; the webhook
 * deliveries make the attempt (HTTP is not an actor's to do) and report how it ended. Decisions
 * are the delivery state machine's (src/domain/webhooks/webhook-delivery.ts).
 */
export class WebhookDeliveryActor {
  constructor(private readonly context: ActorContext) {}

  /**
   * A round's first attempt is under way. Without `again`, a delivery that already began is left
   * as it is (`started: false`: the event came again from the bus); with it, a new round begins
   * (re-enabled, replayed).
   */
  async begin(
    args: DeliveryKey & { again?: boolean },
  ): Promise<{ started: boolean; delivery: WebhookDelivery }> {
    const current = await this.context.state.get<WebhookDelivery>(STATE);
    if (current && !args.again) return { started: false, delivery: current };
    const { clientId, eventUrn, tenant } = args;
    return {
      started: true,
      delivery: await this.save(beginRound({ clientId, eventUrn, tenant }, this.context.clock.now())),
    };
  }

  /** The retry `attempt` is under way; answers the delivery, whose `attempts` says whether it is still due. */
  async startAttempt(args: { attempt: number }): Promise<WebhookDelivery | undefined> {
    const current = await this.context.state.get<WebhookDelivery>(STATE);
    return current && (await this.save(attemptStarted(current, args.attempt)));
  }

  async attemptEnded(args: { attempt: number; delivered: boolean }): Promise<WebhookDelivery | undefined> {
    const current = await this.context.state.get<WebhookDelivery>(STATE);
    return current && (await this.save(attemptEnded(current, args.attempt, args.delivered)));
  }

  /** The subscription is paused: no more attempts until a new round. */
  async hold(): Promise<WebhookDelivery | undefined> {
    const current = await this.context.state.get<WebhookDelivery>(STATE);
    return current && (await this.save(hold(current)));
  }

  async get(): Promise<WebhookDelivery | undefined> {
    return this.context.state.get<WebhookDelivery>(STATE);
  }

  async receiveReminder(name: string): Promise<void> {
    const delivery = await this.context.state.get<WebhookDelivery>(STATE);
    if (name !== NEXT_ATTEMPT || !delivery || delivery.status !== "RETRYING") return;
    this.context.emit({
      type: "webhook.delivery-due",
      tenant: delivery.tenant,
      correlationUrn: delivery.eventUrn,
      data: { clientId: delivery.clientId, eventUrn: delivery.eventUrn, attempt: delivery.attempts + 1 },
    });
  }

  /**
   * Keeps the delivery and points the reminder at its next attempt. An ended round (delivered,
   * exhausted, held) is forgotten, so the actors of a busy airline's deliveries do not pile up in
   * the state store: an event the bus brings again afterwards is delivered again, which receivers
   * absorb by its URN.
   */
  private async save(next: WebhookDelivery): Promise<WebhookDelivery> {
    if (next.status === "RETRYING" && next.nextAttemptAt !== null) {
      this.context.state.set(STATE, next);
      await this.context.reminders.set(NEXT_ATTEMPT, {
        dueInMs: Math.max(0, next.nextAttemptAt - this.context.clock.now()),
      });
    } else if (next.status === "RETRYING") {
      this.context.state.set(STATE, next);
      await this.context.reminders.cancel(NEXT_ATTEMPT);
    } else {
      this.context.state.delete(STATE);
      await this.context.reminders.cancel(NEXT_ATTEMPT);
    }
    return next;
  }
}

/** One actor per registration and event; the id keeps both readable and free of URN colons. */
export function webhookDeliveryActorId(clientId: string, eventUrn: string): string {
  return `${clientId}~${eventUrn.replaceAll(":", ".")}`;
}
