import { DaprWorkflowClient, type WorkflowContext } from "@dapr/dapr";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/runtime/clock.js";
import { DaprWorkflowEngine } from "../../src/runtime/dapr/workflow-engine.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import { startWorkflowSidecar } from "../support/standin-sidecar/workflow-grpc.js";
import { daprWorkflowEngine } from "../support/workflow-engines.js";
import { workflowEngineContract } from "./workflow-engine.suite.js";

/** The contract against Dapr Workflow (see test/support/workflow-engines.ts). */
beforeAll(() => {
  // The SDK logs every request and work item at info level.
  vi.spyOn(console, "info").mockImplementation(() => {});
});

workflowEngineContract("dapr", daprWorkflowEngine);

describe("DaprWorkflowEngine", () => {
  async function* approval(ctx: WorkflowContext): AsyncGenerator<unknown, unknown, any> {
    ctx.setCustomStatus("waiting");
    return yield ctx.waitForExternalEvent("approval");
  }
  const registry = new WorkflowRegistry().addWorkflow(approval);

  it("retries raiseEvent until a workflow worker is connected", async () => {
    const sidecar = await startWorkflowSidecar({
      stateStore: new MemoryStateStore(),
      clock: new ManualClock(),
    });
    const first = new DaprWorkflowEngine({ registry, daprGrpcPort: sidecar.port });
    await first.start();
    const id = await first.schedule("approval", undefined, { instanceId: "retry-1" });
    await vi.waitFor(async () => expect((await first.get(id))?.customStatus).toBe("waiting"));
    await first.close();

    const raise = vi.spyOn(DaprWorkflowClient.prototype, "raiseEvent");
    const second = new DaprWorkflowEngine({
      registry,
      daprGrpcPort: sidecar.port,
      raiseEventRetryDelayMs: 20,
    });
    try {
      const raised = second.raiseEvent(id, "approval", "yes");
      await vi.waitFor(() => expect(raise).toHaveBeenCalled());
      await second.start();
      await raised;
      expect(raise.mock.calls.length).toBeGreaterThan(1);
      expect((await second.waitForCompletion(id)).output).toBe("yes");
    } finally {
      raise.mockRestore();
      await second.close();
      await sidecar.close();
    }
  });

  it("gives up raising an event after its attempts", async () => {
    const sidecar = await startWorkflowSidecar({
      stateStore: new MemoryStateStore(),
      clock: new ManualClock(),
    });
    const engine = new DaprWorkflowEngine({
      registry,
      daprGrpcPort: sidecar.port,
      raiseEventAttempts: 2,
      raiseEventRetryDelayMs: 1,
    });
    try {
      await expect(engine.raiseEvent("nobody", "approval", "yes")).rejects.toThrow(/no workflow worker/);
    } finally {
      await engine.close();
      await sidecar.close();
    }
  });
});
