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

export interface WebhookEventDataByType {
  "webhook.delivery-due": WebhookDeliveryDueData;
}
