import type { DomainEvent } from "../../domain/domain-event.js";
import type { Doc } from "../../runtime/document-store.js";
import type { WebhookSubscription } from "../../domain/webhooks/webhook-subscription.js";

/** Where webhooks keep their documents. */
export const WEBHOOK_COLLECTIONS = {
  subscriptions: "webhook-subscriptions",
  attempts: "webhook-attempts",
  events: "webhook-event-log",
  held: "webhook-held-events",
} as const;

/** A registration's subscription, keyed by its client id. */
export interface SubscriptionDoc extends Doc, WebhookSubscription {
  _id: string;
}

/** One delivery attempt, kept for the partner's and the operators' health reads (7 days). */
export interface AttemptDoc extends Doc {
  _id: string;
  clientId: string;
  tenant: string;
  eventUrn: string;
  eventType: string;
  attempt: number;
  /** Epoch ms the attempt was made. */
  at: number;
  delivered: boolean;
  /** The receiver's HTTP status; null when none came (connection error, timeout, refused address). */
  status: number | null;
  error: string | null;
  /** How long the receiver took to answer. */
  latencyMs: number;
}

/** A partner event as it was published, for replay and for deliveries held during a pause. */
export interface LoggedEventDoc extends Doc {
  _id: string;
  tenant: string;
  type: string;
  occurredAtMs: number;
  event: DomainEvent;
}

/** An event kept back while its registration's subscription is paused. */
export interface HeldEventDoc extends Doc {
  _id: string;
  clientId: string;
  eventUrn: string;
  occurredAtMs: number;
}
