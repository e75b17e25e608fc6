import type { DependencyContainer } from "tsyringe";
import { WebhookDeliveries } from "../../src/app/webhooks/webhook-deliveries.js";
import { WebhookDispatcher } from "../../src/app/webhooks/webhook-dispatcher.js";
import { WebhookEventLog } from "../../src/app/webhooks/webhook-event-log.js";
import { WebhookHealth } from "../../src/app/webhooks/webhook-health.js";
import { WebhookSender } from "../../src/app/webhooks/webhook-sender.js";
import { WebhookSubscriptionStore } from "../../src/app/webhooks/webhook-subscription-store.js";
import { WebhookSubscriptions } from "../../src/app/webhooks/webhook-subscriptions.js";
import { registerSingletons } from "../module.js";

/** Webhooks' use cases, as routes, event handlers and start-up receive them. */
export interface WebhookUseCases {
  subscriptions: WebhookSubscriptions;
  deliveries: WebhookDeliveries;
  dispatcher: WebhookDispatcher;
  eventLog: WebhookEventLog;
  health: WebhookHealth;
  store: WebhookSubscriptionStore;
  sender: WebhookSender;
}

export function registerWebhookUseCases(container: DependencyContainer): void {
  registerSingletons(container, [
    WebhookDispatcher,
    WebhookSubscriptionStore,
    WebhookEventLog,
    WebhookSender,
    WebhookHealth,
    WebhookDeliveries,
    WebhookSubscriptions,
  ]);
}

export function webhookUseCases(container: DependencyContainer): WebhookUseCases {
  return {
    subscriptions: container.resolve(WebhookSubscriptions),
    deliveries: container.resolve(WebhookDeliveries),
    dispatcher: container.resolve(WebhookDispatcher),
    eventLog: container.resolve(WebhookEventLog),
    health: container.resolve(WebhookHealth),
    store: container.resolve(WebhookSubscriptionStore),
    sender: container.resolve(WebhookSender),
  };
}
