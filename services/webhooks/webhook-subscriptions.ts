import { WebhookDeliveries } from "../../src/app/webhooks/webhook-deliveries.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { PARTNER_EVENT_TYPES } from "../../src/domain/webhooks/webhook-subscription.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";

/**
 * Webhooks' event handlers, one pair per tenant topic (spec 5.4: a tenant's events reach only its
 * registrations). Partner events begin deliveries; `webhook.delivery-due` makes a retry. Both are
 * idempotent by event URN (a redelivered event finds its deliveries begun, a stale retry is
 * ignored), and retried with backoff when the stores fail.
 */
export function webhookSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  // Resolved at the first event (the context is bound once the platform has started), not per event.
  let deliveries: WebhookDeliveries | undefined;
  const webhooks = () => (deliveries ??= context().container.resolve(WebhookDeliveries));
  const common = { onFailure: "retry-with-backoff", log: () => context().logger } as const;
  return tenants.flatMap((tenant) => [
    eventSubscription({
      ...common,
      name: `webhooks.deliver.${topicFor({ tenant })}`,
      tenant,
      types: PARTNER_EVENT_TYPES,
      handle: (event) => webhooks().accept(event),
    }),
    eventSubscription({
      ...common,
      name: `webhooks.retry.${topicFor({ tenant })}`,
      tenant,
      types: ["webhook.delivery-due"],
      handle: (event) => webhooks().attemptDue(event.tenant, event.data),
    }),
  ]);
}
