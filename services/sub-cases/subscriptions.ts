import { SUB_CASE_EVENT, type SubCaseView } from "../../actors/SubCaseActor.js";
import { SubCaseIndex } from "../../src/app/sub-cases/sub-case-index.js";
import { SyncSubCases } from "../../src/app/sub-cases/sync-sub-cases.js";
import type { Subscription } from "../../src/runtime/event-bus.js";
import type { ModuleContext } from "../module.js";

/** Case events after which the case's groups or status may differ from its sub-cases'. */
const CASE_EVENTS = ["case.opened", "case.amended", "case.closed", "case.reopened"];

/**
 * Per tenant topic: (1) a case opened or amended gets one sub-case per passenger group, and
 * loses the sub-cases of groups that left it; closing and reopening the case freeze and thaw its
 * sub-cases; (2) every sub-case change is copied into the
 * `sub-cases` index. The routes copy their own changes at once; this copy also covers the changes
 * nobody waits for (a lock expiring) and a crash between an actor's commit and the route's copy.
 * Both are idempotent, so redeliveries are harmless.
 */
export function subCaseSubscriptions(
  context: () => ModuleContext,
  topics: readonly string[],
): Subscription[] {
  return topics.flatMap((topic): Subscription[] => [
    {
      name: `sub-cases.sync.${topic}`,
      topic,
      types: CASE_EVENTS,
      handler: async (event) => {
        const caseUrn = event.caseUrn ?? (event.data as { caseUrn?: string }).caseUrn;
        if (!caseUrn) return "DROP";
        const sync = context().container.resolve(SyncSubCases);
        // The case commits before its event goes out, so a case not found yet is a store lagging behind.
        return (await sync.execute(caseUrn, event.correlationUrn)) ? "SUCCESS" : "RETRY";
      },
    },
    {
      name: `sub-cases.index.${topic}`,
      topic,
      types: Object.values(SUB_CASE_EVENT),
      handler: async (event) => {
        await context()
          .container.resolve(SubCaseIndex)
          .record(event.data as SubCaseView);
        return "SUCCESS";
      },
    },
  ]);
}
