import { CaseActor } from "../../actors/CaseActor.js";
import { caseRefOf } from "../../src/app/cases/case-changes.js";
import { topicFor } from "../../src/domain/domain-event.js";
import type { Subscription } from "../../src/runtime/event-bus.js";
import type { ModuleContext } from "../module.js";
import { CaseProjection } from "../../src/app/cases/case-projection.js";

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
 * case's current snapshot rather than the event, so a late or repeated event is harmless; an event
 * whose version the projection already reflects (the request projected it) reads nothing more.
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
        const projection = context().container.resolve(CaseProjection);
        const ref = caseRefOf(event.caseUrn);
        const snapshot = () => runtime.actors.invoke(CaseActor, ref.id, "snapshot");
        const version = (event.data as { version?: unknown } | null)?.version;
        if (typeof version !== "number") {
          const current = await snapshot();
          if (!current) return "DROP";
          await projection.apply(current);
          return "SUCCESS";
        }
        // The event goes out as the change commits, before the request that made it projects it:
        // after a turn of the event loop that projection is under way, and this one waits for it.
        await new Promise((resolve) => setImmediate(resolve));
        return (await projection.catchUp(ref.urn, version, snapshot)) ? "SUCCESS" : "DROP";
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
