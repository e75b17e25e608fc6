import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DomainError } from "../../src/domain/domain-error.js";
import { settle } from "../../src/runtime/clock.js";
import { StoreUnavailableError } from "../../src/runtime/store-unavailable-error.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import {
  BOOK_GROUPS_WORKFLOW,
  type BookGroupsInput,
  type BookGroupsSteps,
  type GroupStatus,
  type LoadedGroups,
  type PlannedGroup,
  type SettleOrder,
  restingOutcome,
} from "../../src/workflows/book-groups/model.js";
import { registerBookGroups } from "../../src/workflows/book-groups/registration.js";
import type { WorkflowEngineFactory, WorkflowEngineUnderTest } from "../support/workflow-engines.js";

/**
 * The book-groups workflow (src/workflows/book-groups) on a runtime, with booking steps that record
 * what they are asked and answer as each test decides: the lanes and their bound, the order of the
 * groups, the rounds behind an open circuit, the retry of a step that throws, the load step's
 * refusal, and a run that survives a restart while it waits.
 */
export function bookGroupsContract(runtime: string, create: WorkflowEngineFactory): void {
  describe(`book-groups workflow (${runtime})`, () => {
    let steps: FakeSteps;
    let sut: WorkflowEngineUnderTest;
    let idSeq = 0;
    const registry = new WorkflowRegistry();
    registerBookGroups(registry, () => steps);

    const settleOrder: SettleOrder = {
      waveUrn: "urn:wave:w1",
      caseUrn: "urn:case:c1",
      correlationUrn: "urn:trace:t1",
    };
    const loadOf = (groups: PlannedGroup<string>[], settle: SettleOrder | null = settleOrder) => ({
      caseUrn: settleOrder.caseUrn,
      groups,
      settle,
    });
    const input = (request: string, concurrentGroupsPerVendor = 2): BookGroupsInput<string> => ({
      request,
      retryInMs: 30_000,
      concurrentGroupsPerVendor,
    });
    const start = (request: string, limit?: number) =>
      sut.engine.schedule(BOOK_GROUPS_WORKFLOW, input(request, limit), {
        instanceId: `book-groups-${runtime}-${++idSeq}`,
      });
    /** Advances the clock until the run ends: durable timers are armed a step after the work before them. */
    async function completeWithClock(id: string, stepMs: number) {
      await vi.waitFor(
        async () => {
          await sut.clock.advance(stepMs);
          expect((await sut.engine.get(id))?.runtimeStatus).toMatch(/COMPLETED|FAILED/);
        },
        { timeout: 20_000, interval: 20 },
      );
      return sut.engine.waitForCompletion(id);
    }

    beforeEach(async () => {
      steps = new FakeSteps();
      sut = await create({ registry });
    });

    afterEach(async () => {
      steps.releaseAll();
      await sut.close();
    });

    it("books each vendor's groups in the planned order, at most the bound at a time, then settles once", async () => {
      steps.loaded = loadOf([
        toBook("A1"),
        toBook("A2"),
        { groupId: "S1", decided: { groupId: "S1", state: "SKIPPED", reservationUrn: null } },
        toBook("B1", "vendor-b"),
        toBook("A3"),
      ]);
      steps.hold = true;
      const id = await start("wave-1", 2);

      await vi.waitFor(() => expect(steps.started).toHaveLength(3), { timeout: 10_000 });
      expect([...steps.started].sort()).toEqual(["A1", "A2", "B1"]);
      steps.release("A2");
      await vi.waitFor(() => expect(steps.started).toHaveLength(4), { timeout: 10_000 });
      expect(steps.started[3]).toBe("A3");
      expect(steps.settled).toEqual([]);
      steps.releaseAll();

      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toEqual({
        caseUrn: settleOrder.caseUrn,
        groups: [
          booked("A1"),
          booked("A2"),
          { groupId: "S1", state: "SKIPPED", reservationUrn: null },
          booked("B1"),
          booked("A3"),
        ],
      });
      expect(steps.loads).toEqual(["wave-1"]);
      expect(steps.maxInFlight).toEqual({ "vendor-a": 2, "vendor-b": 1 });
      expect(steps.settled).toEqual([settleOrder]);
    });

    it("rests while it waits to book the PENDING groups again, books only those, and settles after", async () => {
      steps.loaded = loadOf([toBook("G1"), toBook("G2")]);
      steps.answers.G2 = ["PENDING", "PENDING"];
      const id = await start("wave-2");

      const resting = await sut.engine.waitUntil(id, (s) => restingOutcome(s) !== undefined);
      expect(resting.runtimeStatus).toBe("RUNNING");
      expect(restingOutcome(resting)).toEqual({
        caseUrn: settleOrder.caseUrn,
        groups: [booked("G1"), { groupId: "G2", state: "PENDING", reservationUrn: null }],
      });
      expect(steps.settled).toEqual([]);

      await sut.clock.advance(29_000);
      await settle(20);
      expect(steps.started).toEqual(["G1", "G2"]);
      const state = await completeWithClock(id, 30_000);
      expect(state.output).toEqual({ caseUrn: settleOrder.caseUrn, groups: [booked("G1"), booked("G2")] });
      expect(steps.started).toEqual(["G1", "G2", "G2", "G2"]);
      expect(steps.settled).toEqual([settleOrder]);
    });

    it("survives a restart while it waits to book again", async () => {
      steps.loaded = loadOf([toBook("G1")], null);
      steps.answers.G1 = ["PENDING"];
      const id = await start("wave-3");
      await sut.engine.waitUntil(id, (s) => restingOutcome(s) !== undefined);

      await sut.restart();
      const state = await completeWithClock(id, 30_000);
      expect(state.output).toEqual({ caseUrn: settleOrder.caseUrn, groups: [booked("G1")] });
      expect(steps.loads).toEqual(["wave-3"]);
      expect(steps.started).toEqual(["G1", "G1"]);
    });

    it("books a group again after the retry policy's wait when its step throws", async () => {
      steps.loaded = loadOf([toBook("G1")]);
      steps.answers.G1 = ["throw", "throw"];
      const id = await start("wave-4");
      const state = await completeWithClock(id, 1_000);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toEqual({ caseUrn: settleOrder.caseUrn, groups: [booked("G1")] });
      expect(steps.started).toEqual(["G1", "G1", "G1"]);
      expect(steps.settled).toEqual([settleOrder]);
    });

    it("fails the run once a step runs out of attempts, without settling", async () => {
      steps.loaded = loadOf([toBook("G1")]);
      steps.answers.G1 = Array.from({ length: 5 }, () => "throw" as const);
      const id = await start("wave-5");
      const state = await completeWithClock(id, 60_000);
      expect(state.runtimeStatus).toBe("FAILED");
      expect(state.failure?.message).toContain("vendor timed out for G1");
      expect(steps.started).toHaveLength(5);
      expect(steps.settled).toEqual([]);
    });

    it("waits a store outage out past the attempts, counting only the other failures", async () => {
      // Ten outages beyond the 5 attempts, then 4 failures of the vendor: the fifth call books.
      steps.loaded = loadOf([toBook("G1")]);
      steps.answers.G1 = [
        ...Array.from({ length: 10 }, () => "outage" as const),
        ...Array.from({ length: 4 }, () => "throw" as const),
      ];
      const id = await start("wave-6");
      const state = await completeWithClock(id, 2_000);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toEqual({ caseUrn: settleOrder.caseUrn, groups: [booked("G1")] });
      expect(steps.started).toHaveLength(15);

      // Five failures of the vendor, an outage before each: the run fails after the fifth.
      steps.loaded = loadOf([toBook("G2")]);
      steps.answers.G2 = Array.from({ length: 5 }, () => ["outage", "throw"] as const).flat();
      const second = await start("wave-7");
      const failed = await completeWithClock(second, 2_000);
      expect(failed.runtimeStatus).toBe("FAILED");
      expect(failed.failure?.message).toContain("vendor timed out for G2");
      expect(steps.started.filter((g) => g === "G2")).toHaveLength(10);
    });

    it("answers the load step's refusal and books nothing", async () => {
      steps.refusal = new DomainError("not-found", "wave", "No wave urn:wave:missing");
      const id = await start("wave-missing");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toEqual({
        refusal: { kind: "not-found", code: "wave", message: "No wave urn:wave:missing" },
      });
      expect(steps.started).toEqual([]);
    });
  });
}

/** A group to book whose order is its id: the fake steps need nothing more. */
function toBook(groupId: string, lane = "vendor-a"): PlannedGroup<string> {
  return { groupId, lane, order: groupId };
}

function booked(groupId: string): GroupStatus {
  return { groupId, state: "BOOKED", reservationUrn: `urn:reservation:${groupId}` };
}

/** `outage`: the store is unavailable; `throw`: any other failure. */
type Answer = "BOOKED" | "PENDING" | "throw" | "outage";

/** Booking steps that book nothing: they record calls and answer from a script per group. */
class FakeSteps implements BookGroupsSteps<string, string> {
  loaded: LoadedGroups<string> = { caseUrn: "urn:case:none", groups: [], settle: null };
  refusal: DomainError | undefined;
  /** Answers per group, in turn; BOOKED once the script runs out. */
  answers: Record<string, Answer[]> = {};
  /** Whether a booking waits for `release` before it answers. */
  hold = false;
  readonly loads: string[] = [];
  readonly started: string[] = [];
  readonly settled: SettleOrder[] = [];
  readonly maxInFlight: Record<string, number> = {};
  private readonly inFlight: Record<string, number> = {};
  private readonly gates = new Map<string, () => void>();

  async load(request: string): Promise<LoadedGroups<string>> {
    this.loads.push(request);
    if (this.refusal) throw this.refusal;
    return this.loaded;
  }

  async book(groupId: string): Promise<GroupStatus> {
    this.started.push(groupId);
    const lane = this.laneOf(groupId);
    this.inFlight[lane] = (this.inFlight[lane] ?? 0) + 1;
    this.maxInFlight[lane] = Math.max(this.maxInFlight[lane] ?? 0, this.inFlight[lane]);
    try {
      if (this.hold) await new Promise<void>((resolve) => this.gates.set(groupId, resolve));
      const answer = this.answers[groupId]?.shift() ?? "BOOKED";
      if (answer === "throw") throw new Error(`vendor timed out for ${groupId}`);
      if (answer === "outage") throw new StoreUnavailableError({ cause: new Error("The client is closed") });
      return answer === "BOOKED" ? booked(groupId) : { groupId, state: "PENDING", reservationUrn: null };
    } finally {
      this.inFlight[lane]!--;
    }
  }

  async settle(order: SettleOrder): Promise<void> {
    this.settled.push(order);
  }

  release(groupId: string): void {
    this.gates.get(groupId)?.();
    this.gates.delete(groupId);
  }

  releaseAll(): void {
    this.hold = false;
    for (const groupId of [...this.gates.keys()]) this.release(groupId);
  }

  private laneOf(groupId: string): string {
    const planned =
      "groups" in this.loaded ? this.loaded.groups.find((g) => g.groupId === groupId) : undefined;
    return planned && "lane" in planned ? planned.lane : "none";
  }
}
