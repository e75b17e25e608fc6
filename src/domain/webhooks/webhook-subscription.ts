import { DomainError } from "../domain-error.js";
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType, type PartnerEventScope } from "../events/catalogue.js";
import { DUAL_KEY_WINDOW_MS } from "../secret-rotation.js";

/** ACTIVE receives deliveries; PAUSED (after a delivery's 7th failed attempt) keeps them back. */
export type WebhookSubscriptionStatus = "ACTIVE" | "PAUSED";

/** The event types partners may receive by webhook (spec 6.1): those the catalogue gives a scope. */
export type PartnerEventType = {
  [K in EventType]: (typeof EVENT_CATALOGUE)[K]["partnerScopes"] extends readonly [] ? never : K;
}[EventType];

export const PARTNER_EVENT_TYPES = EVENT_TYPES.filter(
  (type) => EVENT_CATALOGUE[type].partnerScopes.length > 0,
) as PartnerEventType[];

export const PARTNER_EVENT_SCOPES: readonly PartnerEventScope[] = [
  "cases.events.subscribe",
  "disruptions.events.subscribe",
  "vouchers.read",
  "wallet.events.subscribe",
];

/** One registration's webhook endpoint (spec 6.1); one per registration, so per partner and airline. */
export interface WebhookSubscription {
  /** The registration's client id: the subscription's key. */
  clientId: string;
  partnerUrn: string;
  tenant: string;
  tier: 1 | 2 | 3;
  url: string;
  eventTypes: PartnerEventType[];
  status: WebhookSubscriptionStatus;
  /** The HMAC signing secret (spec 5.3: per partner, separate from the client secret). */
  secret: string;
  /** The secret a rotation replaced, still signed with until `acceptedUntil` (epoch ms). */
  previousSecret: { value: string; acceptedUntil: number } | null;
  secretRotatedAt: string;
  pausedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function isPartnerEventType(type: string): type is PartnerEventType {
  return (PARTNER_EVENT_TYPES as string[]).includes(type);
}

/** The event types a registration's scopes let it receive. */
export function eventTypesAllowed(scopes: ReadonlySet<string>): PartnerEventType[] {
  return PARTNER_EVENT_TYPES.filter((type) =>
    EVENT_CATALOGUE[type].partnerScopes.some((scope) => scopes.has(scope)),
  );
}

/**
 * The event types a registration subscribes to: those asked for, or every one its scopes allow.
 * Asking for a type the scopes do not allow is forbidden (403), an unknown type invalid.
 */
export function chooseEventTypes(
  requested: readonly string[] | undefined,
  scopes: ReadonlySet<string>,
): PartnerEventType[] {
  const allowed = eventTypesAllowed(scopes);
  if (allowed.length === 0) {
    throw new DomainError(
      "forbidden",
      "insufficient-scope",
      `Webhooks need one of the scopes ${PARTNER_EVENT_SCOPES.join(", ")}`,
    );
  }
  if (requested === undefined) return allowed;
  const unknown = requested.filter((type) => !isPartnerEventType(type));
  if (unknown.length > 0) {
    throw new DomainError("invalid", "unknown-event-type", `No partner event type ${unknown.join(", ")}`, {
      eventTypes: unknown,
    });
  }
  const refused = requested.filter((type) => !(allowed as string[]).includes(type));
  if (refused.length > 0) {
    throw new DomainError(
      "forbidden",
      "event-type-not-in-scope",
      `The registration's scopes do not allow ${refused.join(", ")}`,
      { eventTypes: refused },
    );
  }
  return [...new Set(requested)] as PartnerEventType[];
}

/** Whether the subscription takes this event: its type asked for and still within the scopes. */
export function subscribesTo(
  subscription: Pick<WebhookSubscription, "eventTypes">,
  type: string,
  scopes: ReadonlySet<string>,
): boolean {
  return (
    isPartnerEventType(type) &&
    (subscription.eventTypes as string[]).includes(type) &&
    EVENT_CATALOGUE[type].partnerScopes.some((scope) => scopes.has(scope))
  );
}

/** The secrets deliveries are signed with now: the current one, then the rotated-out one in its window. */
export function signingSecrets(
  subscription: Pick<WebhookSubscription, "secret" | "previousSecret">,
  now: number,
): string[] {
  const previous = subscription.previousSecret;
  return previous && previous.acceptedUntil > now
    ? [subscription.secret, previous.value]
    : [subscription.secret];
}

/** A rotation: the new secret signs at once, the old one beside it for the 14-day window. */
export function rotateSecret(
  subscription: WebhookSubscription,
  secret: string,
  now: number,
): WebhookSubscription {
  const at = new Date(now).toISOString();
  return {
    ...subscription,
    secret,
    previousSecret: { value: subscription.secret, acceptedUntil: now + DUAL_KEY_WINDOW_MS },
    secretRotatedAt: at,
    updatedAt: at,
  };
}
