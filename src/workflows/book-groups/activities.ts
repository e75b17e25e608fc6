import type { WorkflowActivityContext } from "@dapr/dapr";
import { DomainError } from "../../domain/domain-error.js";
import type { Activity } from "../../runtime/workflow-engine.js";
import type { BookGroupsSteps, LoadedGroups, SettleOrder } from "./model.js";

/** The activities' registered names: the workflow calls them by these, on both runtimes. */
export const BOOK_GROUPS_ACTIVITIES = {
  load: "loadGroupsToBook",
  book: "bookGroup",
  settle: "settleBookedWave",
} as const;

/**
 * The activities, each a thin call into the booking steps. The steps are read when an activity
 * runs, not when it is registered: the runtime that registers them is built before the use cases.
 */
export function bookGroupsActivities(
  steps: () => BookGroupsSteps,
): Record<(typeof BOOK_GROUPS_ACTIVITIES)[keyof typeof BOOK_GROUPS_ACTIVITIES], Activity> {
  return {
    /** A DomainError is the run's answer, not a failure to retry: the wave does not exist, or is another tenant's. */
    async loadGroupsToBook(_: WorkflowActivityContext, request: unknown): Promise<LoadedGroups> {
      try {
        return await steps().load(request);
      } catch (error) {
        if (error instanceof DomainError && error.kind !== "unavailable") return { refusal: error.toShape() };
        throw error;
      }
    },
    bookGroup: (_: WorkflowActivityContext, order: unknown) => steps().book(order),
    settleBookedWave: (_: WorkflowActivityContext, order: SettleOrder) => steps().settle(order),
  };
}
