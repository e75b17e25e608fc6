import { freePort } from "../support/platform.js";
import { DaprWorkflowClient, type WorkflowContext } from "@dapr/dapr";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/runtime/clock.js";
import { DaprWorkflowEngine } from "../../src/runtime/dapr/workflow-engine.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import {
  type WorkflowSidecarOptions,
  startWorkflowSidecar,
} from "../support/standin-sidecar/workflow-grpc.js";
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
  /** A stand-in workflow sidecar over its own memory store and clock. */
  const startSidecar = (options: Partial<WorkflowSidecarOptions> = {}) =>
    startWorkflowSidecar({ stateStore: new MemoryStateStore(), clock: new ManualClock(), ...options });

  it("retries raiseEvent until a workflow worker is connected", async () => {
    const sidecar = await startSidecar();
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
    const sidecar = await startSidecar();
    const engine = new DaprWorkflowEngine({
      registry,
      daprGrpcPort: sidecar.port,
      raiseEventAttempts: 2,
      raiseEventRetryDelayMs: 1,
    });
    try {
      const id = await engine.schedule("approval", undefined, { instanceId: "unserved-1" });
      await expect(engine.raiseEvent(id, "approval", "yes")).rejects.toThrow(/no workflow worker/);
    } finally {
      await engine.close();
      await sidecar.close();
    }
  });

  // daprd 1.16 answers an event for an unknown instance with a bare gRPC UNKNOWN; retrying it for
  // about 13 s, as for a missing worker, would outlast the test's timeout. Only that failed raise
  // asks for the instance: an event for a known one is one call to the sidecar.
  for (const daprVersion of ["1.16.0", "1.16.1"] as const) {
    it(`fails at once raising an event for an instance daprd ${daprVersion} does not know`, async () => {
      const sidecar = await startSidecar({ daprVersion });
      const engine = new DaprWorkflowEngine({ registry, daprGrpcPort: sidecar.port });
      const raise = vi.spyOn(DaprWorkflowClient.prototype, "raiseEvent");
      const read = vi.spyOn(DaprWorkflowClient.prototype, "getWorkflowState");
      try {
        await engine.start();
        expect(await engine.get("nobody")).toBeUndefined();
        raise.mockClear();
        read.mockClear();
        await expect(engine.raiseEvent("nobody", "approval", "yes")).rejects.toThrow(/does not exist/);
        expect([raise.mock.calls.length, read.mock.calls.length]).toEqual([1, 1]);
        // An instance it knows gets its event, in one call.
        const id = await engine.schedule("approval", undefined, { instanceId: `known-${daprVersion}` });
        await vi.waitFor(async () => expect((await engine.get(id))?.customStatus).toBe("waiting"));
        raise.mockClear();
        read.mockClear();
        await engine.raiseEvent(id, "approval", "yes");
        expect([raise.mock.calls.length, read.mock.calls.length]).toEqual([1, 0]);
        expect((await engine.waitForCompletion(id)).output).toBe("yes");
      } finally {
        raise.mockRestore();
        read.mockRestore();
        await engine.close();
        await sidecar.close();
      }
    });
  }

  it("starts no worker and never calls the sidecar when it has no workflows to run", async () => {
    const probe = vi.spyOn(DaprWorkflowClient.prototype, "getWorkflowState");
    const engine = new DaprWorkflowEngine({
      registry: new WorkflowRegistry(),
      daprGrpcPort: await freePort(),
    });
    try {
      await engine.start();
      expect(probe).not.toHaveBeenCalled();
    } finally {
      probe.mockRestore();
      await engine.close();
    }
  });

  it("connects its worker once the sidecar's workflow API comes up after start", async () => {
    const port = await freePort();
    const engine = new DaprWorkflowEngine({ registry, daprGrpcPort: port, connectRetryMaxDelayMs: 20 });
    await engine.start();
    const sidecar = await startSidecar({ port });
    try {
      // The client's own channel reconnects on gRPC's backoff: its first calls may still fail.
      const id = await vi.waitFor(
        () => engine.schedule("approval", undefined, { instanceId: "late-sidecar-1" }),
        { timeout: 5_000, interval: 50 },
      );
      await engine.raiseEvent(id, "approval", "late");
      expect((await engine.waitForCompletion(id, 10_000)).output).toBe("late");
    } finally {
      await engine.close();
      await sidecar.close();
    }
  });

  it("sends DAPR_API_TOKEN as dapr-api-token metadata on the client's and the worker's calls", async () => {
    const sidecar = await startSidecar({ apiToken: "s3cret" });
    const stranger = new DaprWorkflowEngine({ registry, daprGrpcPort: sidecar.port });
    const engine = new DaprWorkflowEngine({ registry, daprGrpcPort: sidecar.port, apiToken: "s3cret" });
    try {
      await expect(stranger.get("any")).rejects.toThrow(/api token/);
      await engine.start();
      const id = await engine.schedule("approval", undefined, { instanceId: "token-1" });
      await engine.raiseEvent(id, "approval", "signed");
      expect((await engine.waitForCompletion(id)).output).toBe("signed");
    } finally {
      await stranger.close();
      await engine.close();
      await sidecar.close();
    }
  });
});
