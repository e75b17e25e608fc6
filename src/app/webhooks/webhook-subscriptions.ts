import { randomBytes } from "node:crypto";
import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { randomUuid } from "../../domain/uuid.js";
import { WEBHOOK_TEST_EVENT_TYPE } from "../../domain/webhooks/webhook-payload.js";
import {
  chooseEventTypes,
  rotateSecret,
  type WebhookSubscription,
} from "../../domain/webhooks/webhook-subscription.js";
import type { Clock } from "../../runtime/clock.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { OperatorPrincipal, PartnerPrincipal } from "../principals.js";
import { WebhookDeliveries } from "./webhook-deliveries.js";
import { type WebhookAttemptView, WebhookHealth, type WebhookHealthFigures } from "./webhook-health.js";
import { WebhookSender } from "./webhook-sender.js";
import { WebhookSubscriptionStore } from "./webhook-subscription-store.js";

/** A subscription as its partner and the operators see it: never its secrets. */
export interface WebhookSubscriptionView extends WebhookHealthFigures {
  clientId: string;
  partnerUrn: string;
  url: string;
  eventTypes: string[];
  status: WebhookSubscription["status"];
  pausedAt: string | null;
  secretRotatedAt: string;
  /** While a rotation's window is open: until when the old secret still signs. */
  previousSecretAcceptedUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookSubscriptionRead extends WebhookSubscriptionView {
  recentAttempts: WebhookAttemptView[];
}

export interface WebhookTestOutcome {
  delivered: boolean;
  status: number | null;
  error: string | null;
  latencyMs: number;
  eventUrn: string;
  subscriptionStatus: WebhookSubscription["status"];
  /** Events held during the pause and now delivered, when the test re-enabled the subscription. */
  released: number;
}

/** A new signing secret: 32 random bytes, prefixed so it is recognisable in a vault. */
function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/**
 * A registration's webhook subscription (spec 4.3, 5.3, 6.1): registered or replaced, read back,
 * its signing secret rotated, a test delivery sent; and the operators' health read. The HTTP
 * layer audits every write against the partner (spec 5.5).
 */
@injectable()
export class WebhookSubscriptions {
  constructor(
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(WebhookSubscriptionStore) private readonly store: WebhookSubscriptionStore,
    @inject(WebhookSender) private readonly sender: WebhookSender,
    @inject(WebhookHealth) private readonly health: WebhookHealth,
    @inject(WebhookDeliveries) private readonly deliveries: WebhookDeliveries,
  ) {}

  /**
   * Registers the endpoint, or replaces the URL and event types of the one registered (its status
   * and secret stay). The signing secret is in the answer that creates it, and only there.
   */
  async register(
    partner: PartnerPrincipal,
    request: { url: string; eventTypes?: string[] | undefined },
  ): Promise<{ created: boolean; subscription: WebhookSubscriptionRead; secret?: string }> {
    const eventTypes = chooseEventTypes(request.eventTypes, partner.scopes);
    const url = (await this.sender.allowedUrl(request.url)).href;
    const existing = await this.store.get(partner.clientId, partner.tenant);
    const now = new Date(this.clock.now()).toISOString();
    if (existing) {
      await this.store.put({ ...existing, url, eventTypes, updatedAt: now });
      return { created: false, subscription: await this.read(partner) };
    }
    const secret = newSigningSecret();
    await this.store.put({
      clientId: partner.clientId,
      partnerUrn: partner.actorUrn,
      tenant: partner.tenant,
      tier: partner.tier,
      url,
      eventTypes,
      status: "ACTIVE",
      secret,
      previousSecret: null,
      secretRotatedAt: now,
      pausedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return { created: true, subscription: await this.read(partner), secret };
  }

  async read(partner: PartnerPrincipal): Promise<WebhookSubscriptionRead> {
    const subscription = await this.subscriptionOf(partner);
    return {
      ...(await this.view(subscription)),
      recentAttempts: await this.health.recent(subscription.clientId),
    };
  }

  /** A new signing secret, answered once; the old one keeps signing beside it for 14 days. */
  async rotateSecret(
    partner: PartnerPrincipal,
  ): Promise<{ secret: string; previousSecretAcceptedUntil: string }> {
    const now = this.clock.now();
    const rotated = rotateSecret(await this.subscriptionOf(partner), newSigningSecret(), now);
    await this.store.put(rotated);
    return {
      secret: rotated.secret,
      previousSecretAcceptedUntil: new Date(rotated.previousSecret!.acceptedUntil).toISOString(),
    };
  }

  /**
   * Sends a `webhook.test` event at once (no retries). A 2xx re-enables a paused subscription
   * (spec 6.1) and delivers what was held meanwhile.
   */
  async test(partner: PartnerPrincipal, correlationUrn: string): Promise<WebhookTestOutcome> {
    const subscription = await this.subscriptionOf(partner);
    const event = {
      id: randomUuid("urn:event:"),
      type: WEBHOOK_TEST_EVENT_TYPE,
      tenant: subscription.tenant,
      occurredAt: new Date(this.clock.now()).toISOString(),
      correlationUrn,
      data: {},
    };
    const attempt = await this.sender.send(subscription, event, { test: true }, 1);
    let status = subscription.status;
    let released = 0;
    if (attempt.delivered && status === "PAUSED") {
      await this.store.move(subscription.clientId, "PAUSED", "ACTIVE");
      status = "ACTIVE";
      released = await this.deliveries.releaseHeld({ ...subscription, status });
    }
    return {
      delivered: attempt.delivered,
      status: attempt.status,
      error: attempt.error,
      latencyMs: attempt.latencyMs,
      eventUrn: event.id,
      subscriptionStatus: status,
      released,
    };
  }

  /** Spec 4.3's replay for the partner's own subscription. */
  async replay(partner: PartnerPrincipal, since: string, until: string): Promise<string[]> {
    return this.deliveries.replay(await this.subscriptionOf(partner), since, until);
  }

  /** Every subscription of the operator's airline with its health (operators, ADMIN). */
  async healthOf(operator: OperatorPrincipal): Promise<WebhookSubscriptionView[]> {
    const subscriptions = await this.store.ofTenant(operator.tenant);
    return Promise.all(subscriptions.map((subscription) => this.view(subscription)));
  }

  private async subscriptionOf(partner: PartnerPrincipal): Promise<WebhookSubscription> {
    const subscription = await this.store.get(partner.clientId, partner.tenant);
    if (!subscription) {
      throw new DomainError(
        "not-found",
        "webhook-not-registered",
        "The registration has no webhook; PUT /partner/v1/webhooks registers one",
      );
    }
    return subscription;
  }

  private async view(subscription: WebhookSubscription): Promise<WebhookSubscriptionView> {
    const window = subscription.previousSecret;
    return {
      clientId: subscription.clientId,
      partnerUrn: subscription.partnerUrn,
      url: subscription.url,
      eventTypes: subscription.eventTypes,
      status: subscription.status,
      pausedAt: subscription.pausedAt,
      secretRotatedAt: subscription.secretRotatedAt,
      previousSecretAcceptedUntil:
        window && window.acceptedUntil > this.clock.now()
          ? new Date(window.acceptedUntil).toISOString()
          : null,
      createdAt: subscription.createdAt,
      updatedAt: subscription.updatedAt,
      ...(await this.health.figures(subscription.clientId)),
    };
  }
}
