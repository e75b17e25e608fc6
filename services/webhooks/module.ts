import { WebhookDeliveryActor } from "../../actors/WebhookDeliveryActor.js";
import { EVENT_REPLAY_WINDOW_MS } from "../../src/app/webhooks/webhook-event-log.js";
import type { TimerHandle } from "../../src/runtime/clock.js";
import type { ServiceModule } from "../module.js";
import { webhookAdminRoutes, webhookRoutes } from "./webhook-routes.js";
import { webhookSubscriptions } from "./webhook-subscriptions.js";
import { registerWebhookUseCases, webhookUseCases } from "./webhook-use-cases.js";

const HOUR_MS = 60 * 60 * 1000;

/**
 * Partner webhooks (spec 6.1): subscriptions, signed deliveries with retries, replay, health. The
 * workers app delivers, as it handles the other events; the APIs serve the routes.
 */
export const webhooksModule: ServiceModule = {
  name: "webhooks",
  actorTypes: [WebhookDeliveryActor],
  register: registerWebhookUseCases,
  subscriptions: (context, tenants) => ({ workers: webhookSubscriptions(context, tenants) }),
  routes: ({ container }) => {
    const { subscriptions } = webhookUseCases(container);
    return [...webhookRoutes(subscriptions), ...webhookAdminRoutes(subscriptions)];
  },
  start: async ({ container, runtime }) => {
    const webhooks = webhookUseCases(container);
    await Promise.all([
      webhooks.store.ensureIndexes(),
      webhooks.eventLog.ensureIndexes(),
      webhooks.sender.ensureIndexes(),
      webhooks.deliveries.ensureIndexes(),
    ]);
    // The 7-day window is enforced on every read; pruning only keeps the stores small.
    const pruning = { stopped: false, timer: undefined as TimerHandle | undefined };
    const prune = async () => {
      try {
        await Promise.all([
          webhooks.eventLog.prune(),
          webhooks.health.prune(),
          webhooks.deliveries.pruneHeld(runtime.clock.now() - EVENT_REPLAY_WINDOW_MS),
        ]);
      } finally {
        if (!pruning.stopped)
          pruning.timer = runtime.clock.setTimer(() => void prune().catch(() => undefined), HOUR_MS);
      }
    };
    await prune();
    stops.set(container, () => {
      pruning.stopped = true;
      pruning.timer?.cancel();
    });
  },
  stop: async ({ container }) => {
    stops.get(container)?.();
    await webhookUseCases(container).dispatcher.drain();
  },
};

const stops = new WeakMap<object, () => void>();
