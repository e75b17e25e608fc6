import type { WorkflowRegistry } from "../../runtime/workflow-engine.js";
import { bookGroupsActivities } from "./activities.js";
import { BOOK_GROUPS_WORKFLOW, type BookGroupsSteps } from "./model.js";
import { bookGroups } from "./workflow.js";

/** What the booking module calls from `registerWorkflows`: the workflow and its activities, under their names. */
export function registerBookGroups<Request, Order>(
  registry: WorkflowRegistry,
  steps: () => BookGroupsSteps<Request, Order>,
): void {
  registry.addWorkflow(bookGroups, BOOK_GROUPS_WORKFLOW);
  const activities = bookGroupsActivities(steps as () => BookGroupsSteps);
  for (const [name, activity] of Object.entries(activities)) registry.addActivity(activity, name);
}
