import { SubCaseIndex } from "../../src/app/sub-cases/sub-case-index.js";
import { SubCaseSagas } from "../../src/app/sub-cases/sub-case-sagas.js";
import { SyncSubCases } from "../../src/app/sub-cases/sync-sub-cases.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { SUB_CASE_EVENT } from "../../src/domain/events/sub-case.js";
import { SUB_CASE_MOVES } from "../../src/domain/sub-case.js";
import {
  EventRefused,
  type EventSubscription,
  eventSubscription,
} from "../../src/runtime/subscription-policy.js";
import type { ModuleContext } from "../module.js";

/**
 * Per tenant topic: (1) a case opened or amended gets one sub-case per passenger group, and
 * loses the sub-cases of groups that left it; closing and reopening the case freeze and thaw its
 * sub-cases; (2) the sub-case sagas, which run in this app: a group's confirmed reservation starts
 * its sub-case's run (spec 1 step 6), an operator's compensation (`subcase.processing`) starts
 * another, each under an id derived from its cause so a redelivery finds it, and the passenger's
 * answer (`subcase.resolved`, `subcase.declined`) reaches the run that waits for it; (3) every sub-case
 * change is copied into the
 * `sub-cases` index. The routes copy their own changes at once; this copy also covers the changes
 * nobody waits for (a lock expiring) and a crash between an actor's commit and the route's copy.
 * Both are idempotent, so redeliveries are harmless, and both retry failures with backoff.
 */
export function subCaseSubscriptions(
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  return tenants.flatMap((tenant) => {
    const topic = topicFor({ tenant });
    return [
      eventSubscription({
        name: `sub-cases.sync.${topic}`,
        tenant,
        types: ["case.opened", "case.amended", "case.closed", "case.reopened"],
        onFailure: "retry-with-backoff",
        log: () => context().logger,
        handle: async (event) => {
          const caseUrn = event.caseUrn ?? event.data.caseUrn;
          if (!caseUrn) throw new EventRefused("The event names no case");
          const sync = context().container.resolve(SyncSubCases);
          // The case commits before its event goes out, so a case not found yet is a store lagging behind.
          if (!(await sync.execute(caseUrn, event.correlationUrn))) {
            throw new Error(`Case ${caseUrn} not found yet`);
          }
        },
      }),
      eventSubscription({
        name: `sub-cases.saga.${topic}`,
        tenant,
        types: ["reservation.confirmed", "subcase.processing", "subcase.resolved", "subcase.declined"],
        onFailure: "retry-with-backoff",
        log: () => context().logger,
        handle: async (event) => {
          const sagas = context().container.resolve(SubCaseSagas);
          if (event.type === "subcase.processing") {
            await sagas.forCompensation(event.data, event.correlationUrn);
          } else if (event.type === "subcase.resolved" || event.type === "subcase.declined") {
            await sagas.deliverAnswer(event.data, event.correlationUrn);
          } else {
            if (!event.caseUrn) throw new EventRefused("The event names no case");
            await sagas.forConfirmedStay({
              tenant: event.tenant,
              caseUrn: event.caseUrn,
              groupId: event.data.groupId,
              reservationUrn: event.data.reservationUrn,
              correlationUrn: event.correlationUrn,
            });
          }
        },
      }),
      eventSubscription({
        name: `sub-cases.index.${topic}`,
        tenant,
        types: [...new Set([...Object.values(SUB_CASE_EVENT), ...SUB_CASE_MOVES])],
        onFailure: "retry-with-backoff",
        log: () => context().logger,
        handle: (event) => context().container.resolve(SubCaseIndex).record(event.data),
      }),
    ];
  });
}
