import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StoreUnavailableError } from "../../src/runtime/store-unavailable-error.js";
import { WorkflowRegistry, type WorkflowState } from "../../src/runtime/workflow-engine.js";
import {
  type HeldAnswer,
  OFFER_ANSWER_EVENT,
  type OfferAnswerEvent,
  type RunStart,
  type SagaAlert,
  type SagaStay,
  type SagaTrigger,
  type StepCall,
  type StepOutcome,
  type StepRefusal,
  SUB_CASE_SAGA_STEPS,
  SUB_CASE_SAGA_WORKFLOW,
  type SubCaseRun,
  type SubCaseSagaInput,
  type SubCaseSagaProgress,
  type SubCaseSagaSteps,
} from "../../src/workflows/sub-case-saga/model.js";
import { registerSubCaseSaga } from "../../src/workflows/sub-case-saga/registration.js";
import type { WorkflowEngineFactory, WorkflowEngineUnderTest } from "../support/workflow-engines.js";

const HOUR = 3_600_000;
/** The steps a run works, in order, and the undos a decline runs, in reverse. */
const FORWARD = SUB_CASE_SAGA_STEPS.map((step) => step.name);
const UNDONE = SUB_CASE_SAGA_STEPS.filter((step) => step.undo)
  .map((step) => `undo ${step.name}`)
  .reverse();

/**
 * The sub-case saga (src/workflows/sub-case-saga) on a runtime, with steps that record what they
 * are asked and answer as each test decides: every path of the README's sub-case state table
 * (offer and accept, decline and rollback, a cancellation refused for good, a step refused for
 * good, a step retried, the deadline with and without an answer held, a run that stands down),
 * and a run that survives a restart while it waits for the answer.
 */
export function subCaseSagaContract(runtime: string, create: WorkflowEngineFactory): void {
  describe(`sub-case saga (${runtime})`, () => {
    let steps: FakeSteps;
    let sut: WorkflowEngineUnderTest;
    let idSeq = 0;
    const registry = new WorkflowRegistry();
    registerSubCaseSaga(registry, () => steps);

    const input = (trigger: SagaTrigger = { kind: "stay-confirmed", reservationUrn: "urn:reservation:r1" }) =>
      ({
        run: {
          tenant: "urn:airline:ZX",
          caseUrn: "urn:case:c1",
          groupId: "G1",
          subCaseUrn: "urn:sub-case:s1",
          correlationUrn: "urn:trace:t1",
        },
        trigger,
        defaultAnswerWindowMs: 12 * HOUR,
        steps: SUB_CASE_SAGA_STEPS,
      }) satisfies SubCaseSagaInput;
    const start = async (trigger?: SagaTrigger, steps: SubCaseSagaInput["steps"] = SUB_CASE_SAGA_STEPS) => {
      const id = `sub-case-saga-${runtime}-${++idSeq}`;
      await sut.engine.schedule(SUB_CASE_SAGA_WORKFLOW, { ...input(trigger), steps }, { instanceId: id });
      return id;
    };
    const progressOf = (state: WorkflowState) =>
      JSON.parse(state.customStatus as string) as SubCaseSagaProgress;
    const awaitingAnswer = (id: string) =>
      sut.engine.waitUntil(
        id,
        (s) => typeof s.customStatus === "string" && progressOf(s).phase === "awaiting-answer",
      );
    const answer = (id: string, kind: OfferAnswerEvent["kind"]) =>
      sut.engine.raiseEvent(id, OFFER_ANSWER_EVENT, { kind, correlationUrn: "urn:trace:answer" });
    /** Advances the clock until the run reaches `reached`: durable timers are armed a step after the work before them. */
    async function advanceUntil(id: string, stepMs: number, reached: (s: WorkflowState) => boolean) {
      await vi.waitFor(
        async () => {
          await sut.clock.advance(stepMs);
          const state = await sut.engine.get(id);
          expect(state && reached(state)).toBe(true);
        },
        { timeout: 20_000, interval: 20 },
      );
    }

    beforeEach(async () => {
      sut = await create({ registry });
      steps = new FakeSteps(() => sut.clock.now());
    });

    afterEach(async () => {
      await sut.close();
    });

    it("takes the run, works the steps in order, offers the stay until the next departure, and settles the case on accept", async () => {
      const id = await start();
      const waiting = await awaitingAnswer(id);
      expect(steps.calls).toEqual(["begin", ...FORWARD, "offer"]);
      expect(steps.offers).toEqual([
        {
          stay: { reservationUrn: "urn:reservation:r1", voucherUrn: "urn:voucher:v1" },
          answerBy: steps.nextDepartureAt,
        },
      ]);
      const progress = progressOf(waiting);
      expect(progress.answerBy).toBe(steps.nextDepartureAt);
      expect(progress.steps.map((s) => [s.name, s.state])).toEqual(
        FORWARD.map((name) => [name, "COMPLETED"]),
      );
      expect(progress.steps.every((s) => s.startedAt && s.endedAt)).toBe(true);
      expect(steps.reported).toEqual(FORWARD.flatMap((name) => [`started ${name}`, `ended ${name}`]));

      await answer(id, "ACCEPTED");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toMatchObject({ outcome: "accepted" });
      expect(steps.calls.slice(FORWARD.length + 2)).toEqual(["settle-case"]);
      expect(steps.alerts).toEqual([]);
    });

    it("rolls the completed steps back in reverse order on decline, alerts an operator and settles the case", async () => {
      const id = await start({ kind: "compensation", compensation: { action: "reoffer" } });
      await awaitingAnswer(id);
      await answer(id, "DECLINED");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toMatchObject({ outcome: "declined" });
      // The rides, then the meal card, then the room.
      expect(steps.calls.slice(FORWARD.length + 2)).toEqual([
        "undo book-transport",
        "undo issue-wallet-card",
        "undo confirm-stay",
        "alert declined",
        "settle-case",
      ]);
      expect(steps.triggers[0]).toEqual({ kind: "compensation", compensation: { action: "reoffer" } });
      const undone = progressOf(state).steps.at(-1);
      expect(undone).toMatchObject({ name: "undo-confirm-stay", state: "UNDONE" });
    });

    it("ends COMPENSATION_FAILED with the vendor's code when the cancellation is refused for good", async () => {
      steps.undoRefusals["confirm-stay"] = {
        message: "the rate is not refundable",
        vendorErrorCode: "NON_REFUNDABLE",
      };
      const id = await start();
      await awaitingAnswer(id);
      await answer(id, "DECLINED");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toMatchObject({ outcome: "compensation-failed" });
      expect(steps.calls.slice(FORWARD.length + 2)).toEqual([
        ...UNDONE,
        "compensation-failed NON_REFUNDABLE",
        "alert compensation-failed",
        "settle-case",
      ]);
      expect(progressOf(state).lastError).toBe("the rate is not refundable");
    });

    it("fails the run with a review item when a step is refused for good, and runs no later step", async () => {
      steps.refusals["confirm-stay"] = { message: "no availability", vendorErrorCode: "NO_AVAILABILITY" };
      const id = await start();
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toMatchObject({ outcome: "failed" });
      expect(steps.calls).toEqual(["begin", "confirm-stay", "fail NO_AVAILABILITY", "alert failed"]);
      expect(progressOf(state).steps).toEqual([
        expect.objectContaining({ name: "confirm-stay", state: "FAILED", error: "no availability" }),
      ]);
    });

    it("retries a step that throws after the retry policy's wait, and fails the run once the attempts run out", async () => {
      steps.throws["issue-voucher"] = 2;
      const id = await start();
      await advanceUntil(id, 1_000, (s) => progressOf(s).phase === "awaiting-answer");
      expect(steps.calls.filter((c) => c === "issue-voucher")).toHaveLength(3);

      steps.throws["notify-passenger"] = 5;
      const second = await start();
      await advanceUntil(second, 60_000, (s) => s.runtimeStatus === "COMPLETED");
      const state = await sut.engine.waitForCompletion(second);
      expect(state.output).toMatchObject({ outcome: "failed" });
      expect(progressOf(state).lastError).toContain("provider down for notify-passenger");
    });

    it("waits a store outage out past the attempts, counting only the other failures", async () => {
      // Ten outages beyond the 5 attempts, then 4 failures of the vendor: the fifth call works.
      steps.outages["issue-voucher"] = 10;
      steps.throws["issue-voucher"] = 4;
      const id = await start();
      await advanceUntil(id, 2_000, (s) => progressOf(s).phase === "awaiting-answer");
      expect(steps.calls.filter((c) => c === "issue-voucher")).toHaveLength(15);
      expect(progressOf((await sut.engine.get(id))!).steps.map((s) => s.state)).toEqual(
        FORWARD.map(() => "COMPLETED"),
      );
    });

    it("at the deadline with no answer, keeps the offer, alerts an operator, and still takes a later answer", async () => {
      steps.nextDepartureAt = null;
      const id = await start();
      const waiting = await awaitingAnswer(id);
      expect(progressOf(waiting).answerBy).toBe(new Date(steps.startedAt! + 12 * HOUR).toISOString());
      await advanceUntil(id, HOUR, () => steps.alerts.includes("unanswered"));
      expect(steps.calls).toContain("answer-of");
      expect((await sut.engine.get(id))?.runtimeStatus).toBe("RUNNING");

      await answer(id, "ACCEPTED");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toMatchObject({ outcome: "accepted" });
    });

    it("gives the default window when the next flight has left already", async () => {
      steps.nextDepartureAt = new Date(sut.clock.now() - HOUR).toISOString();
      const id = await start();
      const waiting = await awaitingAnswer(id);
      expect(progressOf(waiting).answerBy).toBe(new Date(steps.startedAt! + 12 * HOUR).toISOString());
      expect(steps.alerts).toEqual([]);
    });

    it("at the deadline, takes the answer the sub-case holds when its event never came", async () => {
      const id = await start();
      await awaitingAnswer(id);
      steps.held = { kind: "DECLINED", correlationUrn: "urn:trace:lost" };
      await advanceUntil(id, HOUR, (s) => s.runtimeStatus === "COMPLETED");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toMatchObject({ outcome: "declined" });
      expect(steps.alerts).toEqual(["declined"]);
    });

    it("stands down at the deadline when a later run owns the sub-case by then, alerting nobody", async () => {
      const id = await start();
      await awaitingAnswer(id);
      steps.stillCurrent = false;
      await advanceUntil(id, HOUR, (s) => s.runtimeStatus === "COMPLETED");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toMatchObject({ outcome: "superseded" });
      expect(steps.alerts).toEqual([]);
    });

    it("works the steps its input names, fixed when it was scheduled", async () => {
      const id = await start(undefined, SUB_CASE_SAGA_STEPS.slice(0, 1));
      await awaitingAnswer(id);
      expect(steps.calls).toEqual(["begin", "confirm-stay", "offer"]);
      expect(steps.offers[0]?.stay).toEqual({ reservationUrn: "urn:reservation:r1", voucherUrn: null });
    });

    it("stands down when another run owns the sub-case", async () => {
      steps.current = false;
      const id = await start();
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toMatchObject({ outcome: "superseded" });
      expect(steps.calls).toEqual(["begin"]);
    });

    it("survives a restart while it waits for the answer, without working a step twice", async () => {
      const id = await start();
      await awaitingAnswer(id);
      await sut.restart();
      await answer(id, "DECLINED");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toMatchObject({ outcome: "declined" });
      expect(steps.calls).toEqual(["begin", ...FORWARD, "offer", ...UNDONE, "alert declined", "settle-case"]);
    });
  });
}

/** Saga steps that touch nothing: they record their calls and answer from the test's script. */
class FakeSteps implements SubCaseSagaSteps {
  readonly calls: string[] = [];
  readonly reported: string[] = [];
  readonly alerts: SagaAlert["kind"][] = [];
  readonly offers: { stay: SagaStay; answerBy: string }[] = [];
  readonly triggers: SagaTrigger[] = [];
  current = true;
  nextDepartureAt: string | null;
  startedAt: number | undefined;
  held: OfferAnswerEvent | null = null;
  /** False once a later run owns the sub-case. */
  stillCurrent = true;
  refusals: Record<string, StepRefusal> = {};
  undoRefusals: Record<string, StepRefusal> = {};
  /** How many more times a step throws before it works. */
  throws: Record<string, number> = {};
  /** How many more times a step finds the store unavailable, before it throws or works. */
  outages: Record<string, number> = {};

  constructor(private readonly now: () => number) {
    this.nextDepartureAt = new Date(now() + 8 * HOUR).toISOString();
  }

  async begin(_run: SubCaseRun, trigger: SagaTrigger): Promise<RunStart> {
    this.calls.push("begin");
    this.triggers.push(trigger);
    this.startedAt = this.now();
    return this.current ? { current: true, nextDepartureAt: this.nextDepartureAt } : { current: false };
  }

  async runStep(step: string, _call: StepCall): Promise<StepOutcome> {
    this.calls.push(step);
    if ((this.outages[step] ?? 0) > 0) {
      this.outages[step]!--;
      throw new StoreUnavailableError({ cause: new Error("The client is closed") });
    }
    if ((this.throws[step] ?? 0) > 0) {
      this.throws[step]!--;
      throw new Error(`provider down for ${step}`);
    }
    const refusal = this.refusals[step];
    if (refusal) return { done: false, refusal };
    const stay =
      step === "confirm-stay"
        ? { reservationUrn: "urn:reservation:r1" }
        : step === "issue-voucher"
          ? { voucherUrn: "urn:voucher:v1" }
          : {};
    return { done: true, stay, result: { step } };
  }

  async undoStep(step: string, call: StepCall): Promise<StepOutcome> {
    this.calls.push(`undo ${step}`);
    expect(call.stay.reservationUrn).toBe("urn:reservation:r1");
    const refusal = this.undoRefusals[step];
    if (refusal) return { done: false, refusal };
    return { done: true, stay: {}, result: { undone: step } };
  }

  async stepStarted(_run: SubCaseRun, step: string): Promise<void> {
    if (!step.startsWith("undo")) this.reported.push(`started ${step}`);
  }

  async stepEnded(_run: SubCaseRun, step: string): Promise<void> {
    if (!step.startsWith("undo")) this.reported.push(`ended ${step}`);
  }

  async offer(_run: SubCaseRun, stay: SagaStay, answerBy: string): Promise<{ current: boolean }> {
    this.calls.push("offer");
    this.offers.push({ stay, answerBy });
    return { current: true };
  }

  async answerOf(): Promise<HeldAnswer> {
    this.calls.push("answer-of");
    return this.stillCurrent ? { current: true, answer: this.held } : { current: false };
  }

  async fail(_run: SubCaseRun, refusal: StepRefusal): Promise<void> {
    this.calls.push(`fail ${refusal.vendorErrorCode}`);
  }

  async failCompensation(_run: SubCaseRun, refusal: StepRefusal): Promise<void> {
    this.calls.push(`compensation-failed ${refusal.vendorErrorCode}`);
  }

  async alert(_run: SubCaseRun, alert: SagaAlert): Promise<void> {
    this.calls.push(`alert ${alert.kind}`);
    this.alerts.push(alert.kind);
  }

  async settleCase(): Promise<void> {
    this.calls.push("settle-case");
  }
}
