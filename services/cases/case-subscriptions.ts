import { CaseActor } from "../../actors/CaseActor.js";
import { caseRefOf } from "../../src/app/cases/case-changes.js";
import { topicFor } from "../../src/domain/domain-event.js";
import type { Subscription } from "../../src/runtime/event-bus.js";
import type { ModuleContext } from "../module.js";
import { casesOf } from "./cases.js";

/** Every event that changes what the case projection shows. */
export const CASE_EVENT_TYPES = [
  "case.opened",
  "case.amended",
  "case.closed",
  "case.reopened",
  "case.manual-review",
  "case.returned-to-flow",
  "case.reservation-recorded",
  "case.reaccommodated",
];

/**
 * Keeps the case projection (index, passenger logins, review items, disruption feed, token
 * revocation) in step with the case actors from their events, which the outbox delivers at least
 * once: a change whose request died before projecting it is projected here. The handler reads the
 * case's current snapshot rather than the event, so a late or repeated event is harmless.
 */
export function caseProjectionSubscriptions(
  tenants: readonly string[],
  context: () => ModuleContext,
): Subscription[] {
  return tenants.map((tenant) => ({
    name: `cases.projection.${tenant}`,
    topic: topicFor({ tenant }),
    types: CASE_EVENT_TYPES,
    handler: async (event) => {
      if (!event.caseUrn) return "DROP";
      const { runtime, logger } = context();
      try {
        const snapshot = await runtime.actors.invoke(CaseActor, caseRefOf(event.caseUrn).id, "snapshot");
        if (!snapshot) return "DROP";
        await casesOf(context()).projection.apply(snapshot);
        return "SUCCESS";
      } catch (error) {
        logger.warn(
          { err: error, eventId: event.id, caseUrn: event.caseUrn },
          "case projection failed; retrying",
        );
        return "RETRY";
      }
    },
  }));
}
