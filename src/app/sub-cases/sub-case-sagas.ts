import { SubCaseActor, subCaseActorIdFor } from "../../../actors/SubCaseActor.js";
import type { SubCaseEventData, SubCaseView } from "../../domain/events/sub-case.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TERMINAL_STATUSES, type WorkflowEngine } from "../../runtime/workflow-engine.js";
import {
  type CompensationAction,
  OFFER_ANSWER_EVENT,
  type OfferAnswerEvent,
  SUB_CASE_SAGA_STEPS,
  SUB_CASE_SAGA_WORKFLOW,
  type SagaTrigger,
  type SubCaseSagaInput,
  sagaInstanceIdFor,
} from "../../workflows/sub-case-saga/model.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * How long a passenger has to answer an offer when the case names no next flight (whose departure
 * is the deadline otherwise): twelve hours covers a night at the hotel. The spec gives no figure.
 */
export const DEFAULT_ANSWER_WINDOW_MS = 12 * 3_600_000;

/**
 * Starts sub-case saga runs (src/workflows/sub-case-saga) without waiting for them, and hands them
 * the passenger's answer: one run when the group's reservation is confirmed, one per compensation
 * an operator submits. Each run's instance id derives from the sub-case and its cause (the
 * reservation, the compensation's correlation URN), so a redelivered event schedules nothing new.
 * Everything here acts on events in the workers, the one app that runs workflows on Dapr.
 */
@injectable()
export class SubCaseSagas {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.workflows) private readonly workflows: WorkflowEngine,
  ) {}

  /** The saga's instance id for a compensation accepted under `correlationUrn`. */
  static compensationRunOf(subCaseUrn: string, correlationUrn: string): string {
    return sagaInstanceIdFor(subCaseUrn, correlationUrn);
  }

  /**
   * `reservation.confirmed`: a run for the group's sub-case while nobody has worked it yet (OPEN).
   * A reservation confirmed under a run (a re-booking) or after the offer leaves the sub-case alone.
   * Throws while the sub-case does not exist yet (the case's sync lags behind), to be redelivered.
   */
  async forConfirmedStay(stay: {
    tenant: string;
    caseUrn: string;
    groupId: string;
    reservationUrn: string;
    correlationUrn: string;
  }): Promise<string | undefined> {
    const view = await this.actors.invoke(SubCaseActor, subCaseActorIdFor(stay.caseUrn, stay.groupId), "get");
    if (!view) throw new Error(`No sub-case yet for group ${stay.groupId} of ${stay.caseUrn}`);
    const instanceId = sagaInstanceIdFor(view.subCaseUrn, stay.reservationUrn);
    if (view.retiredAt || (view.status !== "OPEN" && view.sagaInstanceId !== instanceId)) return undefined;
    return this.schedule(
      view,
      stay.correlationUrn,
      { kind: "stay-confirmed", reservationUrn: stay.reservationUrn },
      instanceId,
    );
  }

  /**
   * `subcase.processing` of an operator's compensation (its run id derives from the request's
   * correlation URN): schedules the run and stops the one it replaces. The processing a run
   * announces itself (a confirmed stay's) schedules nothing.
   */
  async forCompensation(processing: SubCaseEventData, correlationUrn: string): Promise<string | undefined> {
    const instanceId = processing.sagaInstanceId;
    if (!instanceId || instanceId !== SubCaseSagas.compensationRunOf(processing.subCaseUrn, correlationUrn)) {
      return undefined;
    }
    const compensation: CompensationAction = { action: "reoffer" };
    if (processing.compensationAction !== compensation.action) {
      throw new Error(`Unknown compensation action ${processing.compensationAction}`);
    }
    await this.schedule(processing, correlationUrn, { kind: "compensation", compensation }, instanceId);
    if (processing.replacedSagaInstanceId) await this.stop(processing.replacedSagaInstanceId);
    return instanceId;
  }

  /**
   * `subcase.resolved` or `subcase.declined`: the passenger's answer, decided by the SubCaseActor,
   * reaches the run that waits for it as its external event. A run that ended (or was stopped)
   * waits for nothing.
   */
  async deliverAnswer(answered: SubCaseView, correlationUrn: string): Promise<void> {
    const instanceId = answered.sagaInstanceId;
    if (!answered.answer || !instanceId) return;
    const state = await this.workflows.get(instanceId);
    if (!state || TERMINAL_STATUSES.has(state.runtimeStatus)) return;
    const event: OfferAnswerEvent = { kind: answered.answer.kind, correlationUrn };
    await this.workflows.raiseEvent(instanceId, OFFER_ANSWER_EVENT, event);
  }

  /** Stops a run a later one replaced; one that ended already is left as it is. */
  async stop(instanceId: string): Promise<void> {
    const state = await this.workflows.get(instanceId);
    if (state && !TERMINAL_STATUSES.has(state.runtimeStatus)) {
      await this.workflows.terminate(instanceId, { outcome: "superseded" });
    }
  }

  private schedule(
    view: SubCaseView,
    correlationUrn: string,
    trigger: SagaTrigger,
    instanceId: string,
  ): Promise<string> {
    const input: SubCaseSagaInput = {
      run: {
        tenant: view.tenant,
        caseUrn: view.caseUrn,
        groupId: view.groupId,
        subCaseUrn: view.subCaseUrn,
        correlationUrn,
      },
      trigger,
      defaultAnswerWindowMs: DEFAULT_ANSWER_WINDOW_MS,
      steps: SUB_CASE_SAGA_STEPS,
    };
    return this.workflows.schedule(SUB_CASE_SAGA_WORKFLOW, input, { instanceId });
  }
}
