import { afterEach, describe, expect, it } from "vitest";
import type { WorkflowContext } from "@dapr/dapr";
import { ManualClock } from "../../src/runtime/clock.js";
import { EmbeddedWorkflowEngine } from "../../src/runtime/embedded/workflow-engine.js";
import {
  WorkflowBackend,
  WorkflowInstanceNotFoundError,
  WorkflowWaitTimeoutError,
} from "../../src/runtime/embedded/workflow/backend.js";
import { pb, ph } from "../../src/runtime/embedded/workflow/durable-task.js";
import { decodeEvent } from "../../src/runtime/embedded/workflow/history-events.js";
import { InstanceStore } from "../../src/runtime/embedded/workflow/instance-store.js";
import type { StoredInstance } from "../../src/runtime/embedded/workflow/stored-instance.js";
import type { OrchestrationWorkItem, WorkItem } from "../../src/runtime/embedded/workflow/work-items.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { StateEntry, StateOperation, StateStore } from "../../src/runtime/state-store.js";
import { StoreUnavailableError } from "../../src/runtime/store-unavailable-error.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";

const EventType = pb.HistoryEvent.EventtypeCase;

/** A worker that only collects what the backend hands out, so each test drives steps by hand. */
class CollectingSink {
  readonly items: WorkItem[] = [];
  deliver(item: WorkItem): void {
    this.items.push(item);
  }
  take<K extends WorkItem["kind"]>(kind: K): Extract<WorkItem, { kind: K }> {
    const index = this.items.findIndex((item) => item.kind === kind);
    if (index < 0) throw new Error(`no ${kind} work item was delivered`);
    return this.items.splice(index, 1)[0] as Extract<WorkItem, { kind: K }>;
  }
}

/** A state store that can be taken down: while `down`, it fails every call as Redis restarting does. */
class OutageStore extends MemoryStateStore {
  down = false;
  private check(): void {
    if (this.down) throw new StoreUnavailableError({ cause: new Error("The client is closed") });
  }
  override async get<T>(key: string): Promise<StateEntry<T> | undefined> {
    this.check();
    return super.get<T>(key);
  }
  override async getMany<T>(keys: string[]): Promise<Map<string, StateEntry<T>>> {
    this.check();
    return super.getMany<T>(keys);
  }
  override async set(key: string, value: unknown, options?: { etag?: string }): Promise<string> {
    this.check();
    return super.set(key, value, options);
  }
  override async transact(operations: StateOperation[]): Promise<void> {
    this.check();
    return super.transact(operations);
  }
}

const scheduleActivity = (taskId: number, name: string) => ph.newScheduleTaskAction(taskId, name, undefined);
const complete = (output: unknown) =>
  ph.newCompleteOrchestrationAction(
    1,
    pb.OrchestrationStatus.ORCHESTRATION_STATUS_COMPLETED,
    JSON.stringify(output),
  );
const step = (...actions: pb.OrchestratorAction[]) => ({ actions, customStatus: "" });

function eventTypes(encoded: string[]): number[] {
  return encoded.map((event) => decodeEvent(event).getEventtypeCase());
}

describe("WorkflowBackend", () => {
  const backends: WorkflowBackend[] = [];

  async function open(store: StateStore, clock = new ManualClock()) {
    const backend = new WorkflowBackend({ store, clock, onError: (error) => console.error(error) });
    const sink = new CollectingSink();
    backend.attach(sink);
    await backend.start();
    backends.push(backend);
    return { backend, sink };
  }

  async function stored(store: StateStore, instanceId: string): Promise<StoredInstance> {
    const entry = await new InstanceStore(store, "workflow||").read(instanceId);
    if (!entry) throw new Error(`${instanceId} is not stored`);
    return entry.record;
  }

  afterEach(async () => {
    await Promise.all(backends.splice(0).map((backend) => backend.close()));
  });

  it("creates an instance once and hands out its first step", async () => {
    const store = new MemoryStateStore();
    const { backend, sink } = await open(store);
    expect(await backend.createInstance({ name: "saga", instanceId: "i-1", input: '"x"' })).toBe(true);
    expect(await backend.createInstance({ name: "saga", instanceId: "i-1", input: '"y"' })).toBe(false);

    const first = sink.take("orchestration");
    expect(first.newEvents.map((event) => event.getEventtypeCase())).toEqual([
      EventType.ORCHESTRATORSTARTED,
      EventType.EXECUTIONSTARTED,
    ]);
    expect(sink.items).toEqual([]);
    expect((await stored(store, "i-1")).input).toBe('"x"');
    expect((await stored(store, "i-1")).status).toBe("PENDING");
  });

  it("lets only one of two processes commit the same step", async () => {
    const store = new MemoryStateStore();
    const one = await open(store);
    await one.backend.createInstance({ name: "saga", instanceId: "i-2" });
    const two = await open(store); // recovers the pending instance and hands out the same step
    const stepOfOne = one.sink.take("orchestration");
    const stepOfTwo = two.sink.take("orchestration");

    expect(await one.backend.completeOrchestration(stepOfOne, step(scheduleActivity(1, "reserve")))).toEqual(
      expect.objectContaining({ turn: 1 }),
    );
    expect(
      await two.backend.completeOrchestration(stepOfTwo, step(scheduleActivity(1, "reserve"))),
    ).toBeUndefined();

    const record = await stored(store, "i-2");
    expect(record.turn).toBe(1);
    expect(eventTypes(record.history).filter((type) => type === EventType.TASKSCHEDULED)).toHaveLength(1);
    expect(Object.keys(record.activities)).toEqual(["1"]);
    expect(one.sink.take("activity").name).toBe("reserve");
    expect(two.sink.items.filter((item) => item.kind === "activity")).toEqual([]);
  });

  it("writes at each step only the history events it added, and reads the whole history back", async () => {
    const store = new MemoryStateStore();
    let written = 0;
    const counted: StateStore = Object.assign(Object.create(store) as MemoryStateStore, {
      set: (key: string, value: unknown, options?: { etag?: string }) => {
        written += JSON.stringify(value).length;
        return store.set(key, value, options);
      },
      transact: (operations: Parameters<StateStore["transact"]>[0]) => {
        for (const op of operations)
          if (op.operation === "upsert") written += JSON.stringify(op.value).length;
        return store.transact(operations);
      },
    });
    const { backend, sink } = await open(counted);
    await backend.createInstance({ name: "saga", instanceId: "long" });
    const perStep: number[] = [];
    for (let task = 1; task <= 40; task++) {
      written = 0;
      await backend.completeOrchestration(
        sink.take("orchestration"),
        step(scheduleActivity(task, "reserve")),
      );
      await backend.completeActivity(sink.take("activity"), { ok: true, result: `"seat ${task}"` });
      perStep.push(written);
    }
    const history = (await backend.getInstance("long"))!.history;
    expect(history.length).toBeGreaterThan(80);

    // A step costs what it adds, not the history before it.
    expect(perStep.at(-1)!).toBeLessThan(perStep[1]! * 2);
    expect((await stored(store, "long")).history).toEqual(history);
  });

  it("hands out again, after a restart, an activity whose result was never stored", async () => {
    const store = new MemoryStateStore();
    const first = await open(store);
    await first.backend.createInstance({ name: "saga", instanceId: "i-3" });
    await first.backend.completeOrchestration(
      first.sink.take("orchestration"),
      step(scheduleActivity(1, "reserve")),
    );
    expect(first.sink.take("activity").taskId).toBe(1);
    await first.backend.close();

    const second = await open(store);
    const again = second.sink.take("activity");
    expect(again).toMatchObject({ instanceId: "i-3", taskId: 1, name: "reserve" });
    await second.backend.completeActivity(again, { ok: true, result: '"seat"' });
    const next = second.sink.take("orchestration");
    expect(next.pastEvents().map((event) => event.getEventtypeCase())).toContain(EventType.TASKSCHEDULED);
    expect(next.newEvents.at(-1)?.getTaskcompleted()?.getResult()?.getValue()).toBe('"seat"');
  });

  it("stores the results a dropped step carried", async () => {
    const store = new MemoryStateStore();
    const { backend, sink } = await open(store);
    await backend.createInstance({ name: "saga", instanceId: "i-4" });
    await backend.completeOrchestration(sink.take("orchestration"), step(scheduleActivity(1, "reserve")));
    await backend.completeActivity(sink.take("activity"), { ok: true, result: '"seat"' });

    const carrying: OrchestrationWorkItem = sink.take("orchestration");
    expect(carrying.unsaved.map((result) => result.taskId)).toEqual([1]);
    expect((await stored(store, "i-4")).inbox).toEqual([]);

    backend.abandon(carrying);
    const again = await waitForItem(sink, "orchestration");
    const record = await stored(store, "i-4");
    expect(eventTypes(record.inbox)).toEqual([EventType.TASKCOMPLETED]);
    expect(record.activities).toEqual({});
    expect(again.unsaved).toEqual([]);
    expect(again.newEvents.at(-1)?.getEventtypeCase()).toBe(EventType.TASKCOMPLETED);
  });

  it("delivers a SendEvent action to its target instance", async () => {
    const store = new MemoryStateStore();
    const { backend, sink } = await open(store);
    await backend.createInstance({ name: "sender", instanceId: "from" });
    await backend.createInstance({ name: "receiver", instanceId: "to" });
    const sender = sink.take("orchestration");
    const send = new pb.SendEventAction();
    send.setInstance(new pb.OrchestrationInstance().setInstanceid("to"));
    send.setName("ping");
    send.setData(ph.getStringValue('{"n":1}'));
    const action = new pb.OrchestratorAction().setId(1).setSendevent(send);
    await backend.completeOrchestration(sender, step(action));

    await waitForRecord(store, "to", (record) => record.inbox.length === 2);
    const raised = decodeEvent((await stored(store, "to")).inbox[1]!).getEventraised();
    expect(raised?.getName()).toBe("ping");
    expect(raised?.getInput()?.getValue()).toBe('{"n":1}');
  });

  it("creates a child in the same commit and tells the parent when it completes", async () => {
    const store = new MemoryStateStore();
    const { backend, sink } = await open(store);
    await backend.createInstance({ name: "parent", instanceId: "p" });
    const createChild = ph.newCreateSubOrchestrationAction(1, "child", "p-child", '"in"');
    await backend.completeOrchestration(sink.take("orchestration"), step(createChild));
    expect((await stored(store, "p")).children).toEqual({ "1": "p-child" });
    expect((await stored(store, "p-child")).parent).toEqual({ instanceId: "p", taskId: 1 });

    const childStep = await waitForItem(sink, "orchestration");
    expect(childStep.instanceId).toBe("p-child");
    await backend.completeOrchestration(childStep, step(complete("out")));

    const parentStep = await waitForItem(sink, "orchestration");
    expect(parentStep.instanceId).toBe("p");
    const done = parentStep.newEvents.at(-1)?.getSuborchestrationinstancecompleted();
    expect(done?.getTaskscheduledid()).toBe(1);
    expect(done?.getResult()?.getValue()).toBe('"out"');
    expect((await stored(store, "p")).children).toEqual({});
  });

  it("terminates the children of a terminated instance", async () => {
    const store = new MemoryStateStore();
    const { backend, sink } = await open(store);
    await backend.createInstance({ name: "parent", instanceId: "q" });
    const createChild = ph.newCreateSubOrchestrationAction(1, "child", "q-child", undefined);
    await backend.completeOrchestration(sink.take("orchestration"), step(createChild));

    await backend.terminate("q", '"stop"');
    expect((await stored(store, "q")).status).toBe("TERMINATED");
    expect((await stored(store, "q")).output).toBe('"stop"');
    expect((await stored(store, "q-child")).status).toBe("TERMINATED");
  });

  it("drops a step computed from an earlier turn", async () => {
    const store = new MemoryStateStore();
    const { backend, sink } = await open(store);
    await backend.createInstance({ name: "saga", instanceId: "i-5" });
    const first = sink.take("orchestration");
    await backend.completeOrchestration(first, step(scheduleActivity(1, "reserve")));
    expect(await backend.completeOrchestration(first, step(scheduleActivity(1, "reserve")))).toBeUndefined();
    expect((await stored(store, "i-5")).turn).toBe(1);
  });

  it("refuses events for an instance that does not exist", async () => {
    const { backend } = await open(new MemoryStateStore());
    await expect(backend.raiseEvent("nobody", "x")).rejects.toBeInstanceOf(WorkflowInstanceNotFoundError);
    await expect(backend.terminate("nobody")).rejects.toBeInstanceOf(WorkflowInstanceNotFoundError);
    await expect(backend.waitFor("nobody", () => true, 1000)).rejects.toBeInstanceOf(
      WorkflowInstanceNotFoundError,
    );
  });

  it("gives up waiting after the timeout", async () => {
    const { backend } = await open(new MemoryStateStore());
    await backend.createInstance({ name: "saga", instanceId: "i-6" });
    await expect(backend.waitFor("i-6", () => false, 5)).rejects.toBeInstanceOf(WorkflowWaitTimeoutError);
  });

  it("runs over a store that cannot list keys, without restart recovery", async () => {
    const memory = new MemoryStateStore();
    const plain: StateStore = {
      get: (key) => memory.get(key),
      getMany: (keys) => memory.getMany(keys),
      set: (key, value, options) => memory.set(key, value, options),
      delete: (key, options) => memory.delete(key, options),
      transact: (operations) => memory.transact(operations),
      close: () => memory.close(),
    };
    const { backend, sink } = await open(plain);
    await backend.createInstance({ name: "saga", instanceId: "i-7" });
    await backend.completeOrchestration(sink.take("orchestration"), step(complete(42)));
    expect((await backend.getInstance("i-7"))?.status).toBe("COMPLETED");
  });

  it("re-arms a stored timer at start and fires it when due", async () => {
    const store = new MemoryStateStore();
    const clock = new ManualClock();
    const first = await open(store, clock);
    await first.backend.createInstance({ name: "saga", instanceId: "i-8" });
    const fireAt = new Date(clock.now() + 30_000);
    await first.backend.completeOrchestration(
      first.sink.take("orchestration"),
      step(ph.newCreateTimerAction(1, fireAt)),
    );
    await first.backend.close();
    expect(clock.pendingTimers()).toBe(0);

    const second = await open(store, clock);
    expect(clock.pendingTimers()).toBe(1);
    await clock.advance(30_000);
    const fired = second.sink.take("orchestration").newEvents.at(-1)?.getTimerfired();
    expect(fired?.getTimerid()).toBe(1);
    expect(fired?.getFireat()?.toDate()).toEqual(fireAt);
  });

  describe("while the state store is unavailable", () => {
    it("fires a timer that came due during the outage once the store is back", async () => {
      const store = new OutageStore();
      const clock = new ManualClock();
      const { backend, sink } = await open(store, clock);
      await backend.createInstance({ name: "saga", instanceId: "i-9" });
      await backend.completeOrchestration(
        sink.take("orchestration"),
        step(ph.newCreateTimerAction(1, new Date(clock.now() + 30_000))),
      );
      store.down = true;
      await clock.advance(90_000);
      expect(sink.items).toEqual([]);
      store.down = false;
      await clock.advance(2_000);
      expect(sink.take("orchestration").newEvents.at(-1)?.getTimerfired()?.getTimerid()).toBe(1);
    });

    it("commits a step and an activity's result once the store is back, however long it was away", async () => {
      const store = new OutageStore();
      const clock = new ManualClock();
      const { backend, sink } = await open(store, clock);
      await backend.createInstance({ name: "saga", instanceId: "i-10" });
      await backend.completeOrchestration(sink.take("orchestration"), step(scheduleActivity(1, "reserve")));
      const activity = sink.take("activity");
      store.down = true;
      let stepped = false;
      const activityDone = backend.completeActivity(activity, { ok: true, result: '"seat"' });
      // The result goes straight into the next step, unsaved; that step's commit meets the outage.
      const carrying = await waitForItem(sink, "orchestration");
      const committed = backend.completeOrchestration(carrying, step(complete("done"))).then(() => {
        stepped = true;
      });
      await activityDone;
      await clock.advance(60_000);
      expect(stepped).toBe(false);
      store.down = false;
      await clock.advance(2_000);
      await committed;
      const record = await stored(store, "i-10");
      expect(record.status).toBe("COMPLETED");
      expect(record.output).toBe('"done"');
    });

    it("lets the engine close while an activity's result waits for the store", async () => {
      const store = new OutageStore();
      const clock = new ManualClock();
      let ran!: () => void;
      const activityRan = new Promise<void>((resolve) => {
        ran = resolve;
      });
      const registry = new WorkflowRegistry()
        .addActivity(async () => {
          store.down = true;
          ran();
          return "seat";
        }, "reserve")
        .addWorkflow(async function* saga(ctx: WorkflowContext) {
          return yield ctx.callActivity("reserve");
        }, "saga");
      const engine = new EmbeddedWorkflowEngine({ registry, store, clock, onError: () => {} });
      await engine.start();
      await engine.schedule("saga", undefined, { instanceId: "i-12" });
      await activityRan;
      await clock.advance(10_000);
      await engine.close();
      expect(clock.pendingTimers()).toBe(0);
    });

    it("gives up waiting when shutdown begins, leaving no timer", async () => {
      const store = new OutageStore();
      const clock = new ManualClock();
      const { backend, sink } = await open(store, clock);
      await backend.createInstance({ name: "saga", instanceId: "i-11" });
      store.down = true;
      const committed = backend.completeOrchestration(sink.take("orchestration"), step(complete("done")));
      await clock.advance(10_000);
      await backend.close();
      await expect(committed).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(clock.pendingTimers()).toBe(0);
    });
  });
});

async function waitForItem<K extends WorkItem["kind"]>(sink: CollectingSink, kind: K) {
  for (let round = 0; round < 100; round++) {
    if (sink.items.some((item) => item.kind === kind)) return sink.take(kind);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`no ${kind} work item arrived`);
}

async function waitForRecord(
  store: StateStore,
  instanceId: string,
  ready: (record: StoredInstance) => boolean,
) {
  for (let round = 0; round < 100; round++) {
    const entry = await store.get<StoredInstance>(`workflow||${instanceId}`);
    if (entry && ready(entry.value)) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`${instanceId} never reached the expected state`);
}
