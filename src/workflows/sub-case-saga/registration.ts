import type { WorkflowRegistry } from "../../runtime/workflow-engine.js";
import { subCaseSagaActivities } from "./activities.js";
import { SUB_CASE_SAGA_WORKFLOW, type SubCaseSagaSteps } from "./model.js";
import { subCaseSaga } from "./workflow.js";

/** What the sub-cases module calls from `registerWorkflows`: the saga and its activities, under their names. */
export function registerSubCaseSaga(registry: WorkflowRegistry, steps: () => SubCaseSagaSteps): void {
  registry.addWorkflow(subCaseSaga, SUB_CASE_SAGA_WORKFLOW);
  for (const [name, activity] of Object.entries(subCaseSagaActivities(steps)))
    registry.addActivity(activity, name);
}
