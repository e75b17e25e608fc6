/**
 * `webhook.delivery-due`: a webhook delivery's retry reminder fired (spec 6.1's backoff), so the
 * next attempt is due. Internal: the delivery itself is the partner's, this only schedules it.
 */
export interface WebhookDeliveryDueData {
  /** The registration (client id) the delivery is for. */
  clientId: string;
  /** The delivered event's URN (X-Svc-Event-Urn). */
  eventUrn: string;
  /** The attempt now due, from 2 to 7. */
  attempt: number;
}

/**
 * `webhook.subscription-paused`: the 7th attempt of a delivery failed and the registration's
 * subscription is paused (spec 6.1); the partner contact is told. Internal.
 */
export interface WebhookSubscriptionPausedData {
  clientId: string;
  partnerUrn: string;
  url: string;
  /** The event whose 7th attempt failed. */
  eventUrn: string;
}

export interface WebhookEventDataByType {
  "webhook.delivery-due": WebhookDeliveryDueData;
  "webhook.subscription-paused": WebhookSubscriptionPausedData;
}
