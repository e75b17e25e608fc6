import type { WorkflowActivityContext } from "@dapr/dapr";
import { DomainError } from "../../domain/domain-error.js";
import type { Activity } from "../../runtime/workflow-engine.js";
import {
  type SagaAlert,
  type SagaStay,
  type StepCall,
  type StepOutcome,
  type StepRefusal,
  SUB_CASE_SAGA_STEPS,
  type SubCaseRun,
  type SubCaseSagaSteps,
  type SagaTrigger,
} from "./model.js";

/** The registered names of the activities besides the steps' own (SUB_CASE_SAGA_STEPS names those). */
export const SUB_CASE_SAGA_ACTIVITIES = {
  begin: "beginSubCaseRun",
  offer: "offerSubCaseStay",
  answerOf: "readSubCaseAnswer",
  fail: "failSubCaseRun",
  failCompensation: "failSubCaseCompensation",
  alert: "alertSubCaseOperators",
  settleCase: "settleSubCaseCase",
} as const;

/**
 * The activities, each a thin call into the saga steps (read when an activity runs: the runtime
 * that registers them is built before the use cases). A step reports itself on the operator
 * channel as it starts and ends (graph.step.*); a DomainError it throws, other than the store or
 * an actor being unavailable, is its refusal, not a failure to retry.
 */
export function subCaseSagaActivities(steps: () => SubCaseSagaSteps): Record<string, Activity> {
  const activities: Record<string, Activity> = {
    [SUB_CASE_SAGA_ACTIVITIES.begin]: (
      _: WorkflowActivityContext,
      input: { run: SubCaseRun; trigger: SagaTrigger },
    ) => steps().begin(input.run, input.trigger),
    [SUB_CASE_SAGA_ACTIVITIES.offer]: (
      _: WorkflowActivityContext,
      input: { run: SubCaseRun; stay: SagaStay; answerBy: string },
    ) => steps().offer(input.run, input.stay, input.answerBy),
    [SUB_CASE_SAGA_ACTIVITIES.answerOf]: (_: WorkflowActivityContext, run: SubCaseRun) =>
      steps().answerOf(run),
    [SUB_CASE_SAGA_ACTIVITIES.fail]: (
      _: WorkflowActivityContext,
      input: { run: SubCaseRun; refusal: StepRefusal },
    ) => steps().fail(input.run, input.refusal),
    [SUB_CASE_SAGA_ACTIVITIES.failCompensation]: (
      _: WorkflowActivityContext,
      input: { run: SubCaseRun; refusal: StepRefusal },
    ) => steps().failCompensation(input.run, input.refusal),
    [SUB_CASE_SAGA_ACTIVITIES.alert]: (
      _: WorkflowActivityContext,
      input: { run: SubCaseRun; alert: SagaAlert },
    ) => steps().alert(input.run, input.alert),
    [SUB_CASE_SAGA_ACTIVITIES.settleCase]: (_: WorkflowActivityContext, run: SubCaseRun) =>
      steps().settleCase(run),
  };
  for (const step of SUB_CASE_SAGA_STEPS) {
    activities[step.activity] = (_: WorkflowActivityContext, call: StepCall) =>
      reported(steps(), step.name, call, () => steps().runStep(step.name, call));
    if (step.undo) {
      const name = `undo-${step.name}`;
      activities[step.undo] = (_: WorkflowActivityContext, call: StepCall) =>
        reported(steps(), name, call, () => steps().undoStep(step.name, call));
    }
  }
  return activities;
}

async function reported(
  steps: SubCaseSagaSteps,
  name: string,
  call: StepCall,
  work: () => Promise<StepOutcome>,
): Promise<StepOutcome> {
  await steps.stepStarted(call.run, name);
  let outcome: StepOutcome;
  try {
    outcome = await work();
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind === "unavailable") throw error;
    const code = error.details?.vendorErrorCode;
    outcome = {
      done: false,
      refusal: { message: error.message, vendorErrorCode: typeof code === "string" ? code : null },
    };
  }
  await steps.stepEnded(
    call.run,
    name,
    outcome.done
      ? outcome.result
      : { refused: outcome.refusal.message, vendorErrorCode: outcome.refusal.vendorErrorCode },
  );
  return outcome;
}
