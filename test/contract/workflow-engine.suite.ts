import type { WorkflowActivityContext, WorkflowContext } from "@dapr/dapr";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { settle } from "../../src/runtime/clock.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import type { WorkflowEngineFactory, WorkflowEngineUnderTest } from "../support/workflow-engines.js";

/**
 * The behaviour every WorkflowEngine must show, whatever runs it. A runtime joins by passing a
 * factory; the same workflows then run on the embedded engine and on Dapr (through the stand-in
 * sidecar), so a saga written once behaves the same on both.
 */
export function workflowEngineContract(runtime: string, create: WorkflowEngineFactory): void {
  describe(`WorkflowEngine contract (${runtime})`, () => {
    const calls: string[] = [];
    let sut: WorkflowEngineUnderTest;
    let idSeq = 0;

    // Activities and workflows are plain named functions: the names are what both runtimes register.
    function double(_: WorkflowActivityContext, n: number): number {
      calls.push(`double:${n}`);
      return n * 2;
    }
    function step(_: WorkflowActivityContext, label: string): string {
      calls.push(`step:${label}`);
      return label.toUpperCase();
    }
    function reserveSeat(_: WorkflowActivityContext, order: string): string {
      calls.push(`reserve:${order}`);
      return `seat-for-${order}`;
    }
    function chargeCard(_: WorkflowActivityContext, order: string): never {
      calls.push(`charge:${order}`);
      throw new Error(`card declined for ${order}`);
    }
    function releaseSeat(_: WorkflowActivityContext, order: string): string {
      calls.push(`release:${order}`);
      return `released-${order}`;
    }
    function explode(_: WorkflowActivityContext): never {
      calls.push("explode");
      throw new Error("boom: vendor unavailable");
    }
    async function observeStatus(context: WorkflowActivityContext): Promise<unknown> {
      const state = await sut.engine.get(context.getWorkflowInstanceId());
      return state?.customStatus;
    }

    async function* threeSteps(ctx: WorkflowContext, n: number): AsyncGenerator<unknown, number[], any> {
      const a = yield ctx.callActivity(double, n);
      const b = yield ctx.callActivity(double, a);
      const c = yield ctx.callActivity(double, b);
      return [a, b, c];
    }
    async function* sleeper(ctx: WorkflowContext): AsyncGenerator<unknown, string, any> {
      ctx.setCustomStatus("sleeping");
      yield ctx.createTimer(60);
      return ctx.getCurrentUtcDateTime().toISOString();
    }
    async function* approval(ctx: WorkflowContext): AsyncGenerator<unknown, unknown, any> {
      ctx.setCustomStatus("awaiting approval");
      return yield ctx.waitForExternalEvent("approval");
    }
    async function* lateListener(ctx: WorkflowContext): AsyncGenerator<unknown, unknown, any> {
      ctx.setCustomStatus("sleeping");
      yield ctx.createTimer(10);
      ctx.setCustomStatus("listening");
      return yield ctx.waitForExternalEvent("note");
    }
    async function* bookWithCompensation(
      ctx: WorkflowContext,
      order: string,
    ): AsyncGenerator<unknown, object, any> {
      const seat = yield ctx.callActivity(reserveSeat, order);
      try {
        yield ctx.callActivity(chargeCard, order);
        return { booked: seat };
      } catch (error) {
        const released = yield ctx.callActivity(releaseSeat, order);
        return { compensated: released, reason: (error as Error).message };
      }
    }
    async function* failing(ctx: WorkflowContext): AsyncGenerator<unknown, void, any> {
      yield ctx.callActivity(explode);
    }
    async function* fanOut(ctx: WorkflowContext, ns: number[]): AsyncGenerator<unknown, number[], any> {
      return yield ctx.whenAll(ns.map((n) => ctx.callActivity(double, n)));
    }
    async function* race(ctx: WorkflowContext): AsyncGenerator<unknown, object, any> {
      ctx.setCustomStatus("racing");
      const go = ctx.waitForExternalEvent("go");
      const timeout = ctx.createTimer(3600);
      const winner = yield ctx.whenAny([go, timeout]);
      return winner === go ? { by: "event", value: go.getResult() } : { by: "timeout" };
    }
    async function* child(ctx: WorkflowContext, n: number): AsyncGenerator<unknown, number, any> {
      return yield ctx.callActivity(double, n);
    }
    async function* parent(ctx: WorkflowContext, n: number): AsyncGenerator<unknown, number, any> {
      const fromChild = yield ctx.callChildWorkflow(child, n);
      return fromChild + 1;
    }
    async function* parentOfFailing(ctx: WorkflowContext): AsyncGenerator<unknown, string, any> {
      try {
        yield ctx.callChildWorkflow(failing);
        return "child succeeded";
      } catch (error) {
        return `child failed: ${(error as Error).message}`;
      }
    }
    async function* countdown(
      ctx: WorkflowContext,
      state: { left: number },
    ): AsyncGenerator<unknown, string | undefined, any> {
      if (state.left === 0) return "liftoff";
      yield ctx.callActivity(step, `left-${state.left}`);
      ctx.continueAsNew({ left: state.left - 1 }, false);
    }
    async function* collector(
      ctx: WorkflowContext,
      state: { items: string[] },
    ): AsyncGenerator<unknown, string[], any> {
      if (state.items.length === 0) {
        ctx.setCustomStatus("sleeping");
        yield ctx.createTimer(10);
      }
      const item = yield ctx.waitForExternalEvent("item");
      const items = [...state.items, item];
      if (items.length === 3) return items;
      ctx.continueAsNew({ items }, true);
      return items;
    }
    async function* reporter(ctx: WorkflowContext): AsyncGenerator<unknown, unknown, any> {
      ctx.setCustomStatus("reserving");
      const seen = yield ctx.callActivity(observeStatus);
      ctx.setCustomStatus("done");
      return seen;
    }
    async function* resumable(ctx: WorkflowContext): AsyncGenerator<unknown, object, any> {
      const a = yield ctx.callActivity(step, "a");
      ctx.setCustomStatus("sleeping");
      yield ctx.createTimer(60);
      ctx.setCustomStatus("waiting");
      const resume = yield ctx.waitForExternalEvent("resume");
      const b = yield ctx.callActivity(step, "b");
      return { a, resume, b };
    }

    const registry = new WorkflowRegistry();
    for (const activity of [double, step, reserveSeat, chargeCard, releaseSeat, explode, observeStatus]) {
      registry.addActivity(activity);
    }
    for (const workflow of [
      threeSteps,
      sleeper,
      approval,
      lateListener,
      bookWithCompensation,
      failing,
      fanOut,
      race,
      child,
      parent,
      parentOfFailing,
      countdown,
      collector,
      reporter,
      resumable,
    ]) {
      registry.addWorkflow(workflow);
    }

    const nextId = (prefix: string) => `${prefix}-${runtime}-${++idSeq}`;

    /** Durable progress is observable only through state; custom status marks the points a test waits for. */
    async function untilCustomStatus(instanceId: string, customStatus: string): Promise<void> {
      await vi.waitFor(
        async () => {
          expect((await sut.engine.get(instanceId))?.customStatus).toBe(customStatus);
        },
        { timeout: 10_000, interval: 2 },
      );
    }

    beforeEach(async () => {
      calls.length = 0;
      sut = await create({ registry });
    });

    afterEach(async () => {
      await sut.close();
    });

    it("runs activities in sequence and returns their results", async () => {
      const id = await sut.engine.schedule("threeSteps", 3, { instanceId: nextId("seq") });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toEqual([6, 12, 24]);
      expect(state.input).toBe(3);
      expect(state.name).toBe("threeSteps");
      expect(state.instanceId).toBe(id);
      expect(calls).toEqual(["double:3", "double:6", "double:12"]);
    });

    it("returns undefined for an instance that does not exist", async () => {
      expect(await sut.engine.get(nextId("missing"))).toBeUndefined();
    });

    it("refuses to raise, wait for or terminate an instance that does not exist", async () => {
      const missing = nextId("missing");
      await expect(sut.engine.raiseEvent(missing, "approval", true)).rejects.toThrow();
      await expect(sut.engine.waitForCompletion(missing)).rejects.toThrow();
      await expect(sut.engine.terminate(missing)).rejects.toThrow();
    });

    it("fires a timer on the injected clock, not before it is due", async () => {
      const startedAt = sut.clock.now();
      const id = await sut.engine.schedule("sleeper", undefined, { instanceId: nextId("timer") });
      await untilCustomStatus(id, "sleeping");

      await sut.clock.advance(59_000);
      await settle(20);
      expect((await sut.engine.get(id))?.runtimeStatus).toBe("RUNNING");

      await sut.clock.advance(1_000);
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toBe(new Date(startedAt + 60_000).toISOString());
    });

    it("waits until the workflow marks a point with its custom status, or until it ends", async () => {
      const sleeping = await sut.engine.schedule("sleeper", undefined, { instanceId: nextId("until") });
      const marked = await sut.engine.waitUntil(sleeping, (state) => state.customStatus === "sleeping");
      expect(marked).toMatchObject({
        instanceId: sleeping,
        runtimeStatus: "RUNNING",
        customStatus: "sleeping",
      });

      const done = await sut.engine.schedule("threeSteps", 1, { instanceId: nextId("until-end") });
      const ended = await sut.engine.waitUntil(done, () => false);
      expect(ended).toMatchObject({ runtimeStatus: "COMPLETED", output: [2, 4, 8] });
      await expect(sut.engine.waitUntil(nextId("missing"), () => true)).rejects.toThrow();
    });

    it("delivers an external event to a waiting workflow", async () => {
      const id = await sut.engine.schedule("approval", undefined, { instanceId: nextId("event") });
      await untilCustomStatus(id, "awaiting approval");
      await sut.engine.raiseEvent(id, "approval", { approved: true, by: "ops" });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toEqual({ approved: true, by: "ops" });
    });

    it("keeps an event raised before the workflow waits for it", async () => {
      const id = await sut.engine.schedule("lateListener", undefined, { instanceId: nextId("early-event") });
      await untilCustomStatus(id, "sleeping");
      await sut.engine.raiseEvent(id, "note", { n: 1 });
      await sut.clock.advance(10_000);
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toEqual({ n: 1 });
    });

    it("lets a workflow catch a failed activity and compensate", async () => {
      const id = await sut.engine.schedule("bookWithCompensation", "o-1", { instanceId: nextId("saga") });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toMatchObject({ compensated: "released-o-1" });
      expect((state.output as { reason: string }).reason).toContain("card declined for o-1");
      expect(calls).toEqual(["reserve:o-1", "charge:o-1", "release:o-1"]);
    });

    it("fails the workflow with the activity's message when the failure is not caught", async () => {
      const id = await sut.engine.schedule("failing", undefined, { instanceId: nextId("fail") });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("FAILED");
      expect(state.failure?.message).toContain("boom: vendor unavailable");
      expect(state.output).toBeUndefined();
    });

    it("waits for all tasks with whenAll", async () => {
      const id = await sut.engine.schedule("fanOut", [1, 2, 3], { instanceId: nextId("all") });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toEqual([2, 4, 6]);
      expect([...calls].sort()).toEqual(["double:1", "double:2", "double:3"]);
    });

    it("takes the first task to finish with whenAny: the event", async () => {
      const id = await sut.engine.schedule("race", undefined, { instanceId: nextId("any-event") });
      await untilCustomStatus(id, "racing");
      await sut.engine.raiseEvent(id, "go", "now");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toEqual({ by: "event", value: "now" });
    });

    it("takes the first task to finish with whenAny: the timer", async () => {
      const id = await sut.engine.schedule("race", undefined, { instanceId: nextId("any-timer") });
      await untilCustomStatus(id, "racing");
      await sut.clock.advance(3_600_000);
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toEqual({ by: "timeout" });
    });

    it("runs a child workflow and returns its result to the parent", async () => {
      const id = await sut.engine.schedule("parent", 5, { instanceId: nextId("parent") });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toBe(11);
      expect(calls).toEqual(["double:5"]);
    });

    it("surfaces a failed child workflow to the parent as a catchable error", async () => {
      const id = await sut.engine.schedule("parentOfFailing", undefined, { instanceId: nextId("bad-child") });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toMatch(/^child failed: .*boom: vendor unavailable/);
    });

    it("continues as new with the new input", async () => {
      const id = await sut.engine.schedule("countdown", { left: 3 }, { instanceId: nextId("can") });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toBe("liftoff");
      expect(state.input).toEqual({ left: 0 });
      expect(calls).toEqual(["step:left-3", "step:left-2", "step:left-1"]);
    });

    it("carries unprocessed events over to the new execution when asked", async () => {
      const id = await sut.engine.schedule("collector", { items: [] }, { instanceId: nextId("carry") });
      await untilCustomStatus(id, "sleeping");
      for (const item of ["a", "b", "c"]) await sut.engine.raiseEvent(id, "item", item);
      await sut.clock.advance(10_000);
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toEqual(["a", "b", "c"]);
    });

    it("shows the custom status through get while running and after completion", async () => {
      const id = await sut.engine.schedule("reporter", undefined, { instanceId: nextId("status") });
      const state = await sut.engine.waitForCompletion(id);
      expect(state.output).toBe("reserving");
      expect(state.customStatus).toBe("done");
      expect((await sut.engine.get(id))?.customStatus).toBe("done");
    });

    it("terminates a running workflow", async () => {
      const id = await sut.engine.schedule("approval", undefined, { instanceId: nextId("term") });
      await untilCustomStatus(id, "awaiting approval");
      await sut.engine.terminate(id, "cancelled by operator");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("TERMINATED");
      expect(state.output).toBe("cancelled by operator");
    });

    it("treats scheduling an existing instance id as a no-op", async () => {
      const instanceId = nextId("idem");
      expect(await sut.engine.schedule("threeSteps", 1, { instanceId })).toBe(instanceId);
      expect(await sut.engine.schedule("threeSteps", 100, { instanceId })).toBe(instanceId);
      const state = await sut.engine.waitForCompletion(instanceId);
      expect(state.output).toEqual([2, 4, 8]);
      expect(await sut.engine.schedule("threeSteps", 100, { instanceId })).toBe(instanceId);
      expect((await sut.engine.get(instanceId))?.input).toBe(1);
      expect(calls).toEqual(["double:1", "double:2", "double:4"]);
    });

    it("gives each scheduled instance an id when none is given", async () => {
      const first = await sut.engine.schedule("threeSteps", 1);
      const second = await sut.engine.schedule("threeSteps", 1);
      expect(first).not.toBe(second);
      expect((await sut.engine.waitForCompletion(first)).runtimeStatus).toBe("COMPLETED");
      expect((await sut.engine.waitForCompletion(second)).runtimeStatus).toBe("COMPLETED");
    });

    it("resumes after restarts without re-running completed activities", async () => {
      const id = await sut.engine.schedule("resumable", undefined, { instanceId: nextId("restart") });
      await untilCustomStatus(id, "sleeping");

      await sut.restart();
      await sut.clock.advance(60_000);
      await untilCustomStatus(id, "waiting");

      await sut.restart();
      await sut.engine.raiseEvent(id, "resume", "go on");
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(state.output).toEqual({ a: "A", resume: "go on", b: "B" });
      expect(calls).toEqual(["step:a", "step:b"]);
    });

    it("fires at restart a timer that fell due while no engine ran", async () => {
      const id = await sut.engine.schedule("sleeper", undefined, { instanceId: nextId("due") });
      await untilCustomStatus(id, "sleeping");
      const startedAt = sut.clock.now();
      await sut.restart(() => sut.clock.advance(120_000));
      const state = await sut.engine.waitForCompletion(id);
      expect(state.runtimeStatus).toBe("COMPLETED");
      expect(Date.parse(state.output as string)).toBeGreaterThanOrEqual(startedAt + 60_000);
    });
  });
}
