import { ReturnLegReminders } from "../../src/app/transport/return-leg-reminders.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { TRANSPORT_EVENT } from "../../src/domain/events/transport.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";

/**
 * Per tenant topic: a booked return leg's reminder came due (`transport.return-leg-due`): the group
 * gets its return-leg e-mail (spec 8.2). The send is idempotent by its dedupe key; a failure (the
 * case store not answering) is retried with backoff.
 */
export function transportSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  return tenants.map((tenant) =>
    eventSubscription({
      name: `transport.return-leg-email.${topicFor({ tenant })}`,
      tenant,
      types: [TRANSPORT_EVENT.returnLegDue],
      onFailure: "retry-with-backoff",
      log: () => context().logger,
      handle: async (event) => {
        await context().container.resolve(ReturnLegReminders).send(event);
      },
    }),
  );
}
