/**
 * The embedded engine drives internals of @dapr/dapr (pinned to an exact version): these tests
 * fail first if an upgrade moves or changes what it relies on.
 */
import { readFileSync } from "node:fs";
import { WorkflowActivityContext, WorkflowContext } from "@dapr/dapr";
import { describe, expect, it } from "vitest";
import {
  executeActivity,
  failedResult,
  failureDetails,
  type HistoryEvent,
  OrchestrationSession,
  type OrchestratorAction,
  pb,
  toSdkRegistry,
} from "../../src/runtime/embedded/workflow/durable-task.js";
import {
  decodeEvent,
  encodeEvent,
  eventRaised,
  executionStarted,
  orchestratorStarted,
  subOrchestrationCreated,
  taskCompleted,
  taskFailed,
  taskScheduled,
  timerCreated,
  timerFired,
  toFailureDetails,
  toStoredFailure,
} from "../../src/runtime/embedded/workflow/history-events.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";

const Action = pb.OrchestratorAction.OrchestratoractiontypeCase;
const T0 = Date.parse("2026-01-01T00:00:00Z");

function reserve(_: WorkflowActivityContext, order: string) {
  return `seat-${order}`;
}
function charge(_: WorkflowActivityContext, order: string): never {
  throw new RangeError(`declined ${order}`);
}
function release(_: WorkflowActivityContext, order: string) {
  return `released-${order}`;
}
async function* saga(ctx: WorkflowContext, order: string): AsyncGenerator<unknown, object, any> {
  ctx.setCustomStatus("reserving");
  const seat = yield ctx.callActivity(reserve, order);
  try {
    yield ctx.callActivity(charge, order);
    return { seat };
  } catch (error) {
    const released = yield ctx.callActivity(release, order);
    return { released, caught: (error as Error).message, details: (error as { details: unknown }).details };
  }
}
async function* waiter(ctx: WorkflowContext): AsyncGenerator<unknown, unknown, any> {
  yield ctx.createTimer(60);
  return yield ctx.waitForExternalEvent("Approval");
}
async function* rolling(ctx: WorkflowContext, n: number): AsyncGenerator<unknown, void, any> {
  yield ctx.waitForExternalEvent("tick");
  ctx.continueAsNew(n + 1, true);
}

const registry = toSdkRegistry(
  new WorkflowRegistry()
    .addWorkflow(saga)
    .addWorkflow(waiter)
    .addWorkflow(rolling)
    .addActivity(reserve)
    .addActivity(charge)
    .addActivity(release),
);

function only(actions: OrchestratorAction[]): OrchestratorAction {
  expect(actions).toHaveLength(1);
  return actions[0]!;
}

describe("Dapr SDK durable-task internals", () => {
  it("is the pinned @dapr/dapr version", () => {
    const manifest = JSON.parse(readFileSync("node_modules/@dapr/dapr/package.json", "utf8"));
    const ours = JSON.parse(readFileSync("package.json", "utf8"));
    expect(manifest.version).toBe("3.18.0");
    expect(ours.dependencies["@dapr/dapr"]).toBe("3.18.0");
  });

  it("runs a workflow step by step and delivers an activity failure as a catchable error", async () => {
    const session = new OrchestrationSession(registry, "wf-1");
    const first = await session.run([], [orchestratorStarted(T0), executionStarted("saga", "wf-1", '"o1"')]);
    const reserveAction = only(first.actions);
    expect(reserveAction.getOrchestratoractiontypeCase()).toBe(Action.SCHEDULETASK);
    expect(reserveAction.getScheduletask()?.getName()).toBe("reserve");
    expect(reserveAction.getScheduletask()?.getInput()?.getValue()).toBe('"o1"');
    expect(first.customStatus).toBe("reserving");
    expect(await session.confirm([taskScheduled(1, "reserve", '"o1"')])).toBe(true);

    const second = await session.run([], [orchestratorStarted(T0), taskCompleted(1, '"seat-o1"')]);
    expect(only(second.actions).getScheduletask()?.getName()).toBe("charge");
    expect(await session.confirm([taskScheduled(2, "charge", '"o1"')])).toBe(true);

    const outcome = await executeActivity(registry, "wf-1", "charge", 2, '"o1"');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure.getErrormessage()).toBe("declined o1");
    expect(outcome.failure.getErrortype()).toBe("RangeError");

    const third = await session.run([], [orchestratorStarted(T0), taskFailed(2, outcome.failure)]);
    expect(only(third.actions).getScheduletask()?.getName()).toBe("release");
    expect(await session.confirm([taskScheduled(3, "release", '"o1"')])).toBe(true);

    const last = await session.run([], [orchestratorStarted(T0), taskCompleted(3, '"released-o1"')]);
    const completion = only(last.actions).getCompleteorchestration();
    expect(completion?.getOrchestrationstatus()).toBe(pb.OrchestrationStatus.ORCHESTRATION_STATUS_COMPLETED);
    const output = JSON.parse(completion?.getResult()?.getValue() ?? "null");
    expect(output.released).toBe("released-o1");
    expect(output.caught).toContain("declined o1");
    expect(output.details).toMatchObject({ _message: "declined o1", _errorType: "RangeError" });
    expect(await session.confirm([])).toBe(false);
  });

  it("computes from a full replay the same step as a session kept in memory", async () => {
    const history: HistoryEvent[] = [
      orchestratorStarted(T0),
      executionStarted("saga", "wf-2", '"o2"'),
      taskScheduled(1, "reserve", '"o2"'),
    ];
    const replayed = await new OrchestrationSession(registry, "wf-2").run(history, [
      orchestratorStarted(T0),
      taskCompleted(1, '"seat-o2"'),
    ]);
    expect(only(replayed.actions).getScheduletask()?.getName()).toBe("charge");
    expect(only(replayed.actions).getId()).toBe(2);
  });

  it("fails the step on history the workflow does not produce", async () => {
    const history = [
      orchestratorStarted(T0),
      executionStarted("saga", "wf-3", '"o3"'),
      taskScheduled(1, "other", ""),
    ];
    const result = await new OrchestrationSession(registry, "wf-3").run(history, [orchestratorStarted(T0)]);
    const completion = only(result.actions).getCompleteorchestration();
    expect(completion?.getOrchestrationstatus()).toBe(pb.OrchestrationStatus.ORCHESTRATION_STATUS_FAILED);
    expect(completion?.getFailuredetails()?.getErrortype()).toBe("NonDeterminismError");
  });

  it("fails an instance whose workflow is not registered", async () => {
    const result = await new OrchestrationSession(registry, "wf-4").run(
      [],
      [orchestratorStarted(T0), executionStarted("unknown", "wf-4", undefined)],
    );
    const completion = only(result.actions).getCompleteorchestration();
    expect(completion?.getOrchestrationstatus()).toBe(pb.OrchestrationStatus.ORCHESTRATION_STATUS_FAILED);
    expect(completion?.getFailuredetails()?.getErrormessage()).toContain("unknown");
  });

  it("takes timer time from the OrchestratorStarted event and matches events case-insensitively", async () => {
    const session = new OrchestrationSession(registry, "wf-5");
    const first = await session.run(
      [],
      [
        orchestratorStarted(T0),
        executionStarted("waiter", "wf-5", undefined),
        eventRaised("approval", '"early"'),
      ],
    );
    const timer = only(first.actions);
    expect(timer.getOrchestratoractiontypeCase()).toBe(Action.CREATETIMER);
    expect(timer.getCreatetimer()?.getFireat()?.toDate().getTime()).toBe(T0 + 60_000);
    expect(await session.confirm([timerCreated(1, T0 + 60_000)])).toBe(true);

    const done = await session.run([], [orchestratorStarted(T0 + 60_000), timerFired(1, T0 + 60_000)]);
    expect(only(done.actions).getCompleteorchestration()?.getResult()?.getValue()).toBe('"early"');
  });

  it("continues as new with the new input and the events not yet consumed", async () => {
    const result = await new OrchestrationSession(registry, "wf-6").run(
      [],
      [
        orchestratorStarted(T0),
        executionStarted("rolling", "wf-6", "1"),
        eventRaised("tick", '"a"'),
        eventRaised("tick", '"b"'),
      ],
    );
    const completion = only(result.actions).getCompleteorchestration();
    expect(completion?.getOrchestrationstatus()).toBe(
      pb.OrchestrationStatus.ORCHESTRATION_STATUS_CONTINUED_AS_NEW,
    );
    expect(completion?.getResult()?.getValue()).toBe("2");
    const carried = completion?.getCarryovereventsList() ?? [];
    expect(carried.map((event) => event.getEventraised()?.getInput()?.getValue())).toEqual(['"b"']);
  });

  it("wraps workflows and activities in the SDK's public context classes", async () => {
    const seen: unknown[] = [];
    async function* probe(ctx: WorkflowContext): AsyncGenerator<unknown, void, any> {
      seen.push(ctx instanceof WorkflowContext, ctx.getWorkflowInstanceId());
      yield ctx.callActivity(probeActivity);
    }
    function probeActivity(ctx: WorkflowActivityContext) {
      seen.push(
        ctx instanceof WorkflowActivityContext,
        ctx.getWorkflowInstanceId(),
        ctx.getWorkflowActivityId(),
      );
    }
    const probing = toSdkRegistry(new WorkflowRegistry().addWorkflow(probe).addActivity(probeActivity));
    await new OrchestrationSession(probing, "wf-7").run(
      [],
      [orchestratorStarted(T0), executionStarted("probe", "wf-7", undefined)],
    );
    expect(await executeActivity(probing, "wf-7", "probeActivity", 1, undefined)).toEqual({
      ok: true,
      result: undefined,
    });
    expect(seen).toEqual([true, "wf-7", true, "wf-7", 1]);
  });

  it("round-trips history events and failure details through their stored forms", () => {
    const failure = toFailureDetails({ message: "boom", errorType: "Error", stackTrace: "at x" });
    const event = decodeEvent(encodeEvent(taskFailed(7, failure)));
    expect(event.getTaskfailed()?.getTaskscheduledid()).toBe(7);
    expect(toStoredFailure(event.getTaskfailed()?.getFailuredetails())).toEqual({
      message: "boom",
      errorType: "Error",
      stackTrace: "at x",
    });
    const started = decodeEvent(encodeEvent(orchestratorStarted(T0)));
    expect(started.getTimestamp()?.toDate().getTime()).toBe(T0);
  });

  it("stores every event as the SDK's own serializeBinary encodes it, multi-byte text included", () => {
    const text = JSON.stringify({ guest: "Zoë Ångström", note: "小田急 🛏️", empty: "" });
    const failure = toFailureDetails({ message: "refusé ✗", errorType: "VendorError", stackTrace: "at é" });
    const events = [
      orchestratorStarted(T0),
      executionStarted("subCaseSaga", "saga:ZX:é", text),
      executionStarted("noInput", "wf-9", undefined),
      taskScheduled(3, "confirmStay", text),
      taskCompleted(3, text),
      taskCompleted(4, undefined),
      taskFailed(5, failure),
      timerCreated(6, T0 + 60_000),
      timerFired(6, T0 + 60_000),
      eventRaised("offer-answer", text),
      subOrchestrationCreated(7, "child", "wf-9:0007", text),
    ];
    for (const event of events) {
      const bytes = event.serializeBinary();
      expect(encodeEvent(event)).toBe(Buffer.from(bytes).toString("base64"));
      expect(decodeEvent(encodeEvent(event)).toObject()).toEqual(event.toObject());
    }
  });

  it("answers a step that throws outside the workflow with a failed completion", () => {
    const completion = only(failedResult(new TypeError("broken")).actions).getCompleteorchestration();
    expect(completion?.getOrchestrationstatus()).toBe(pb.OrchestrationStatus.ORCHESTRATION_STATUS_FAILED);
    expect(completion?.getFailuredetails()?.getErrormessage()).toBe("broken");
    expect(completion?.getFailuredetails()?.getErrortype()).toBe("TypeError");
  });

  it("fails a workflow when a task of a whenAll it caught a failure from completes later (SDK 3.18 bug)", async () => {
    // Sagas must not catch a whenAll failure while sibling tasks still run: when a sibling ends,
    // the SDK's WhenAllTask throws "Task is already completed" and the whole workflow fails.
    async function* fanOut(ctx: WorkflowContext): AsyncGenerator<unknown, string, any> {
      try {
        yield ctx.whenAll([ctx.callActivity(reserve, "a"), ctx.callActivity(reserve, "b")]);
        return "booked";
      } catch {
        yield ctx.callActivity(release, "a");
        return "compensated";
      }
    }
    const fanning = toSdkRegistry(
      new WorkflowRegistry().addWorkflow(fanOut).addActivity(reserve).addActivity(release),
    );
    const session = new OrchestrationSession(fanning, "wf-8");
    await session.run([], [orchestratorStarted(T0), executionStarted("fanOut", "wf-8", undefined)]);
    await session.confirm([taskScheduled(1, "reserve", '"a"'), taskScheduled(2, "reserve", '"b"')]);
    const failed = failureDetails(new Error("no seat"));
    const caught = await session.run([], [orchestratorStarted(T0), taskFailed(1, failed)]);
    expect(only(caught.actions).getScheduletask()?.getName()).toBe("release");
    await session.confirm([taskScheduled(3, "release", '"a"')]);

    const late = await session.run([], [orchestratorStarted(T0), taskCompleted(2, '"seat-b"')]);
    const completion = only(late.actions).getCompleteorchestration();
    expect(completion?.getOrchestrationstatus()).toBe(pb.OrchestrationStatus.ORCHESTRATION_STATUS_FAILED);
    expect(completion?.getFailuredetails()?.getErrormessage()).toBe("Task is already completed");
  });

  it("numbers orchestration statuses as the sidecar protocol does", () => {
    expect(pb.OrchestrationStatus).toMatchObject({
      ORCHESTRATION_STATUS_RUNNING: 0,
      ORCHESTRATION_STATUS_COMPLETED: 1,
      ORCHESTRATION_STATUS_CONTINUED_AS_NEW: 2,
      ORCHESTRATION_STATUS_FAILED: 3,
      ORCHESTRATION_STATUS_TERMINATED: 5,
      ORCHESTRATION_STATUS_PENDING: 6,
      ORCHESTRATION_STATUS_SUSPENDED: 7,
    });
  });
});
