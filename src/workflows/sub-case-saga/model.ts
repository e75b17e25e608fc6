import { uuidFromParts } from "../../domain/uuid.js";

/**
 * The compensation saga of one sub-case (spec 1 steps 6 and 9, 3.4): one durable run per sub-case
 * run, started when the group's stay is confirmed and again by each compensation an operator
 * submits. It takes the run (PROCESSING), works through its steps (confirm the stay, issue the
 * meal card, book the rides, issue the voucher, notify the passenger: `SUB_CASE_SAGA_STEPS`), offers the stay (OFFER_READY), and waits
 * for the passenger's answer against a deadline. An accept resolves the sub-case; a decline rolls
 * the completed steps back in reverse order. The README's sub-case state table is the whole story.
 */
export const SUB_CASE_SAGA_WORKFLOW = "subCaseSaga";

/** The external event the run waits for: raised by AnswerOffer once the SubCaseActor decided. */
export const OFFER_ANSWER_EVENT = "offer-answer";

export interface OfferAnswerEvent {
  kind: "ACCEPTED" | "DECLINED";
  correlationUrn: string;
}

/** Who the saga acts as, in audit trails, notifications and review items. */
export const SUB_CASE_SAGA_ACTOR = "urn:system:compensation-saga";

/**
 * What an operator's compensation asks the run to do (spec 4.1 compensate):
 *   reoffer   the group keeps the stay it holds: the voucher and the offer go out again
 *   rebook    the group is booked at the named hotel (and offer, when given); the stay it held
 *             before is cancelled with its vendor once the new one is confirmed
 */
export type CompensationAction =
  | { action: "reoffer" }
  | { action: "rebook"; hotelUrn: string; providerOfferId?: string };

/** Why the run started. */
export type SagaTrigger =
  | { kind: "stay-confirmed"; reservationUrn: string }
  | { kind: "compensation"; compensation: CompensationAction };

/** The sub-case a run works for, and under which correlation. */
export interface SubCaseRun {
  tenant: string;
  caseUrn: string;
  groupId: string;
  subCaseUrn: string;
  correlationUrn: string;
  /** The workflow instance id: the run the SubCaseActor follows. */
  sagaInstanceId: string;
}

export interface SubCaseSagaInput {
  run: Omit<SubCaseRun, "sagaInstanceId">;
  trigger: SagaTrigger;
  /**
   * How long the passenger has to answer when the case names no next flight (the deadline is
   * otherwise the next flight's departure). Fixed when the run starts.
   */
  defaultAnswerWindowMs: number;
  /**
   * The steps the run works through (SUB_CASE_SAGA_STEPS when it was scheduled): fixed in the
   * input, so a run in flight replays the same steps after the list grows (card, transport legs).
   */
  steps: readonly SagaStepDefinition[];
}

/** The stay a run offers, built up by its steps. */
export interface SagaStay {
  reservationUrn: string | null;
  voucherUrn: string | null;
}

/** A refusal no retry changes (a vendor's permanent error, nothing left to book or cancel). */
export interface StepRefusal {
  message: string;
  vendorErrorCode: string | null;
}

/**
 * What a step answers: done (with what it adds to the stay and what it reports), or refused for
 * good. A step that throws may work later and is retried (activity-retry.ts).
 */
export type StepOutcome =
  | { done: true; stay: Partial<SagaStay>; result: Record<string, unknown> }
  | { done: false; refusal: StepRefusal };

/** One step of the run, with the activity that undoes it on a decline (if it leaves anything to undo). */
export interface SagaStepDefinition {
  name: string;
  activity: string;
  undo: string | null;
}

/**
 * The run's steps, in order; a decline undoes the completed ones in reverse: the rides are
 * cancelled, then the meal card, then the room. The transport leg comes before the voucher, whose
 * transport block it fills.
 */
export const SUB_CASE_SAGA_STEPS: readonly SagaStepDefinition[] = [
  { name: "confirm-stay", activity: "confirmSubCaseStay", undo: "cancelSubCaseStay" },
  { name: "issue-wallet-card", activity: "issueSubCaseWalletCard", undo: "cancelSubCaseWalletCard" },
  { name: "book-transport", activity: "bookSubCaseTransport", undo: "cancelSubCaseTransport" },
  { name: "issue-voucher", activity: "issueSubCaseVoucher", undo: null },
  { name: "notify-passenger", activity: "notifySubCasePassenger", undo: null },
];

export interface StepCall {
  run: SubCaseRun;
  trigger: SagaTrigger;
  stay: SagaStay;
}

export type HeldAnswer = { current: false } | { current: true; answer: OfferAnswerEvent | null };

export type RunStart = { current: false } | { current: true; nextDepartureAt: string | null };

/** Why a run ends, and where the sub-case stands. */
export type SagaOutcome = "superseded" | "failed" | "accepted" | "declined" | "compensation-failed";

export interface SubCaseSagaOutput {
  outcome: SagaOutcome;
  stay: SagaStay;
}

/** Where one step of a run stands, for the progress read (GET /v1/orchestration/cases/{urn}/progress). */
export interface SagaStepProgress {
  name: string;
  state: "RUNNING" | "COMPLETED" | "FAILED" | "UNDONE";
  startedAt: string;
  endedAt: string | null;
  error: string | null;
}

/** The run's custom status: its steps so far and where it waits. */
export interface SubCaseSagaProgress {
  phase: "starting" | "working" | "awaiting-answer" | "rolling-back" | "ended";
  steps: SagaStepProgress[];
  answerBy: string | null;
  lastError: string | null;
}

/** Findings the run hands to operators as review items (all BOOKING_FAILED in the queue, spec 2.5). */
export type SagaAlert =
  | { kind: "failed"; refusal: StepRefusal; step: string }
  | { kind: "declined"; reason: string | null }
  | { kind: "compensation-failed"; refusal: StepRefusal; step: string }
  | { kind: "unanswered"; answerBy: string };

/**
 * What the activities do, implemented by the sub-case use cases (src/app/sub-cases/saga-steps.ts).
 * Each is idempotent: a retried or replayed activity changes nothing twice.
 */
export interface SubCaseSagaSteps {
  /** Takes the run for the sub-case (PROCESSING); not current when another run owns it. */
  begin(run: SubCaseRun, trigger: SagaTrigger): Promise<RunStart>;
  /** Runs the step named `step` (one of SUB_CASE_SAGA_STEPS) or its undo. */
  runStep(step: string, call: StepCall): Promise<StepOutcome>;
  undoStep(step: string, call: StepCall): Promise<StepOutcome>;
  /** Reports a step on the operator channel (graph.step.*). */
  stepStarted(run: SubCaseRun, step: string): Promise<void>;
  stepEnded(run: SubCaseRun, step: string, result: Record<string, unknown>): Promise<void>;
  offer(run: SubCaseRun, stay: SagaStay, answerBy: string): Promise<{ current: boolean }>;
  /**
   * The answer the SubCaseActor holds, if the passenger answered (a lost external event); not
   * current when a later run owns the sub-case.
   */
  answerOf(run: SubCaseRun): Promise<HeldAnswer>;
  fail(run: SubCaseRun, refusal: StepRefusal): Promise<void>;
  failCompensation(run: SubCaseRun, refusal: StepRefusal): Promise<void>;
  alert(run: SubCaseRun, alert: SagaAlert): Promise<void>;
  /** Publishes case.resolved once every sub-case of the case is terminal. */
  settleCase(run: SubCaseRun): Promise<void>;
}

/**
 * A run's instance id, from the sub-case and what started it (the reservation confirmed, or the
 * compensation's correlation URN): a redelivered event or a replayed request finds its run.
 */
export function sagaInstanceIdFor(subCaseUrn: string, cause: string): string {
  return uuidFromParts("sub-case-saga-", subCaseUrn, cause);
}
