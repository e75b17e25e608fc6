import { RaiseAlert } from "../../src/app/alerting/raise-alert.js";
import { ALERTING_EVENT_TYPES, alertOf } from "../../src/domain/alert.js";
import { eventSubscription } from "../../src/runtime/subscription-policy.js";
import { registerSingletons, type ServiceModule } from "../module.js";

/**
 * Alerting: the events that call for a person (an SLA breach, paused wallet issuance, a wallet card
 * drifted from its issuer, a PNR-login hard limit, a paused webhook subscription; src/domain/alert.ts) page the tenant's on-call or tell
 * the partner contact, through a signed webhook and e-mail. Each alert is sent once per channel,
 * however often its event comes; a channel that fails is retried with the event.
 */
export const alertingModule: ServiceModule = {
  name: "alerting",
  register: (container) => registerSingletons(container, [RaiseAlert]),
  subscriptions: (context, tenants) => ({
    workers: tenants.map((tenant) =>
      eventSubscription({
        name: `alerting.${tenant}`,
        tenant,
        types: [...ALERTING_EVENT_TYPES],
        onFailure: "retry-with-backoff",
        log: () => context().logger,
        handle: async (event) => {
          const alert = alertOf(event);
          if (alert) await context().container.resolve(RaiseAlert).raise(alert);
        },
      }),
    ),
  }),
};
