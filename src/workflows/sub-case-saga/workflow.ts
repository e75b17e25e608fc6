import type { Task, WorkflowContext } from "@dapr/dapr";
import { callWithRetry } from "../activity-retry.js";
import { SUB_CASE_SAGA_ACTIVITIES } from "./activities.js";
import {
  OFFER_ANSWER_EVENT,
  type HeldAnswer,
  type OfferAnswerEvent,
  type RunStart,
  type SagaAlert,
  type SagaStay,
  type SagaStepDefinition,
  type SagaStepProgress,
  type StepCall,
  type StepOutcome,
  type SubCaseRun,
  type SubCaseSagaInput,
  type SubCaseSagaOutput,
  type SubCaseSagaProgress,
} from "./model.js";

/**
 * One sub-case run (see model.ts and the README's sub-case state table):
 *   1. take the run (PROCESSING); another run owning the sub-case ends this one at once;
 *   2. the steps its input names (SUB_CASE_SAGA_STEPS when it was scheduled), in order; a step
 *      refused for good, or still throwing once its retries ran out, ends the run FAILED with a
 *      review item;
 *   3. the offer (OFFER_READY, subcase.offer-ready), then the passenger's answer raced against a
 *      durable timer at the deadline (the next flight's departure, else the input's default window).
 *      At the deadline the run reads the answer from the sub-case (a raise that got lost); with no
 *      answer the offer stands, an operator gets a review item, and the run waits on without one;
 *   4. accepted: the sub-case is RESOLVED already (AnswerOffer); the run settles the case;
 *      declined: the completed steps are undone in reverse order, then an operator is alerted; an
 *      undo refused for good (NON_REFUNDABLE, BOOKING_PAST_CANCELLATION_DEADLINE) ends the rollback
 *      COMPENSATION_FAILED with a manual-reconciliation review item.
 * The progress of every step is the run's custom status, read by the progress route.
 */
export async function* subCaseSaga(
  ctx: WorkflowContext,
  input: SubCaseSagaInput,
): AsyncGenerator<unknown, SubCaseSagaOutput, any> {
  const run: SubCaseRun = { ...input.run, sagaInstanceId: ctx.getWorkflowInstanceId() };
  const progress: SubCaseSagaProgress = { phase: "starting", steps: [], answerBy: null, lastError: null };
  const report = () => ctx.setCustomStatus(JSON.stringify(progress));
  const now = () => ctx.getCurrentUtcDateTime().toISOString();
  const A = SUB_CASE_SAGA_ACTIVITIES;
  let stay: SagaStay = { reservationUrn: null, voucherUrn: null };
  report();

  const start: RunStart = yield* callWithRetry(ctx, A.begin, { run, trigger: input.trigger });
  if (!start.current) return end("superseded");

  // 2. the steps
  progress.phase = "working";
  const completed: SagaStepDefinition[] = [];
  for (const step of input.steps) {
    const outcome = yield* tracked(step.name, step.activity, "COMPLETED");
    if (!outcome.done) {
      yield* callWithRetry(ctx, A.fail, { run, refusal: outcome.refusal });
      yield* alert({ kind: "failed", refusal: outcome.refusal, step: step.name });
      return end("failed");
    }
    stay = { ...stay, ...outcome.stay };
    completed.push(step);
  }

  // 3. the offer and the answer
  const answerBy = deadlineOf(
    start.nextDepartureAt,
    ctx.getCurrentUtcDateTime(),
    input.defaultAnswerWindowMs,
  );
  progress.answerBy = answerBy;
  const offered: { current: boolean } = yield* callWithRetry(ctx, A.offer, { run, stay, answerBy });
  if (!offered.current) return end("superseded");
  progress.phase = "awaiting-answer";
  report();
  const answer: OfferAnswerEvent | null = yield* awaitAnswer(answerBy);
  if (!answer) return end("superseded");

  // 4. accepted, or declined and rolled back
  if (answer.kind === "ACCEPTED") {
    yield* callWithRetry(ctx, A.settleCase, run);
    return end("accepted");
  }
  progress.phase = "rolling-back";
  report();
  for (const step of [...completed].reverse()) {
    if (!step.undo) continue;
    const outcome = yield* tracked(`undo-${step.name}`, step.undo, "UNDONE");
    if (!outcome.done) {
      yield* callWithRetry(ctx, A.failCompensation, { run, refusal: outcome.refusal });
      yield* alert({ kind: "compensation-failed", refusal: outcome.refusal, step: step.name });
      yield* callWithRetry(ctx, A.settleCase, run);
      return end("compensation-failed");
    }
  }
  yield* alert({ kind: "declined", reason: null });
  yield* callWithRetry(ctx, A.settleCase, run);
  return end("declined");

  /** A step (or undo) as `attempt` runs it, with its progress entry: RUNNING, then `done` or FAILED. */
  async function* tracked(
    name: string,
    activity: string,
    done: "COMPLETED" | "UNDONE",
  ): AsyncGenerator<unknown, StepOutcome, any> {
    const entry: SagaStepProgress = { name, state: "RUNNING", startedAt: now(), endedAt: null, error: null };
    progress.steps.push(entry);
    report();
    const outcome = yield* attempt(activity, { run, trigger: input.trigger, stay });
    entry.endedAt = now();
    if (outcome.done) {
      entry.state = done;
    } else {
      entry.state = "FAILED";
      entry.error = outcome.refusal.message;
      progress.lastError = outcome.refusal.message;
    }
    return outcome;
  }

  /** A step (or undo) with retries; retries that run out are the step's refusal, not the run's crash. */
  async function* attempt(activity: string, call: StepCall): AsyncGenerator<unknown, StepOutcome, any> {
    try {
      return yield* callWithRetry<StepOutcome>(ctx, activity, call);
    } catch (error) {
      return { done: false, refusal: { message: messageOf(error), vendorErrorCode: null } };
    }
  }

  async function* alert(what: SagaAlert): AsyncGenerator<unknown, void, any> {
    yield* callWithRetry(ctx, A.alert, { run, alert: what });
  }

  /**
   * The answer raised by AnswerOffer, or, at the deadline, the one the sub-case holds; null when
   * a later run owns the sub-case by then (an operator compensated meanwhile).
   */
  async function* awaitAnswer(deadline: string): AsyncGenerator<unknown, OfferAnswerEvent | null, any> {
    const raised: Task<OfferAnswerEvent> = ctx.waitForExternalEvent(OFFER_ANSWER_EVENT);
    const timer = ctx.createTimer(new Date(deadline));
    const first: Task<unknown> = yield ctx.whenAny([raised, timer]);
    if (first === raised) return raised.getResult() as OfferAnswerEvent;
    const held: HeldAnswer = yield* callWithRetry(ctx, A.answerOf, run);
    if (!held.current) return null;
    if (held.answer) return held.answer;
    progress.lastError = `no answer by ${deadline}`;
    report();
    yield* alert({ kind: "unanswered", answerBy: deadline });
    return (yield raised) as OfferAnswerEvent;
  }

  function end(outcome: SubCaseSagaOutput["outcome"]): SubCaseSagaOutput {
    progress.phase = "ended";
    report();
    return { outcome, stay };
  }
}

/**
 * Until when the passenger may answer: the next flight's departure, or, when the case names none
 * or it has left already, the default window from the offer on.
 */
function deadlineOf(nextDepartureAt: string | null, now: Date, defaultWindowMs: number): string {
  if (nextDepartureAt && Date.parse(nextDepartureAt) > now.getTime()) return nextDepartureAt;
  return new Date(now.getTime() + defaultWindowMs).toISOString();
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) return String(error.message);
  return String(error);
}
