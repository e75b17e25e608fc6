import { CaseActor } from "../../actors/CaseActor.js";
import { caseRefOf } from "../../src/app/cases/case-changes.js";
import { CaseProjection } from "../../src/app/cases/case-projection.js";
import type { CaseEventType } from "../../src/domain/events/case.js";
import {
  EventRefused,
  type EventSubscription,
  eventSubscription,
} from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";

/** Every event that changes what the case projection shows. */
export const CASE_EVENT_TYPES: CaseEventType[] = [
  "case.opened",
  "case.amended",
  "case.closed",
  "case.reopened",
  "case.manual-review",
  "case.returned-to-flow",
  "case.reservation-recorded",
  "case.reaccommodated",
  "case.priority-raised",
];

/**
 * Keeps the case projection (index, passenger logins, review items, disruption feed, token
 * revocation) in step with the case actors from their events, which the outbox delivers at least
 * once: a change whose request died before projecting it is projected here. The handler reads the
 * case's current snapshot rather than the event, so a late or repeated event is harmless; an event
 * whose version the projection already reflects (the request projected it) reads nothing more.
 * An event naming no case, or a case the actors do not know, is refused; failures are retried.
 */
export function caseProjectionSubscriptions(
  tenants: readonly string[],
  context: () => ModuleContext,
): EventSubscription[] {
  return tenants.map((tenant) =>
    eventSubscription({
      name: `cases.projection.${tenant}`,
      tenant,
      types: CASE_EVENT_TYPES,
      onFailure: "retry-with-backoff",
      log: () => context().logger,
      handle: async (event) => {
        if (!event.caseUrn) throw new EventRefused("The event names no case");
        const { runtime } = context();
        const projection = context().container.resolve(CaseProjection);
        const ref = caseRefOf(event.caseUrn);
        const snapshot = () => runtime.actors.invoke(CaseActor, ref.id, "snapshot");
        const version = (event.data as { version?: unknown } | null)?.version;
        if (typeof version !== "number") {
          const current = await snapshot();
          if (!current) throw new EventRefused(`No case ${event.caseUrn}`);
          await projection.apply(current);
          return;
        }
        // The event goes out as the change commits, before the request that made it projects it:
        // after a turn of the event loop that projection is under way, and this one waits for it.
        await new Promise((resolve) => setImmediate(resolve));
        if (!(await projection.catchUp(ref.urn, version, snapshot))) {
          throw new EventRefused(`No case ${event.caseUrn} to project`);
        }
      },
    }),
  );
}
