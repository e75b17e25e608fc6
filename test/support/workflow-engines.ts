/**
 * The workflow engines the contract suites run on: the embedded engine over a memory state store,
 * and Dapr Workflow through the stand-in sidecar (the SDK's own client and worker talking gRPC to
 * it). Each comes with a ManualClock that drives every durable timer, and a restart that closes the
 * engine (and the sidecar) and starts anew over the same durable state, as after a crash.
 */
import { ManualClock } from "../../src/runtime/clock.js";
import { DaprWorkflowEngine } from "../../src/runtime/dapr/workflow-engine.js";
import { EmbeddedWorkflowEngine } from "../../src/runtime/embedded/workflow-engine.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { WorkflowEngine, WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import { startWorkflowSidecar } from "./standin-sidecar/workflow-grpc.js";

export interface WorkflowEngineUnderTest {
  /** The running engine; `restart` replaces it. */
  engine: WorkflowEngine;
  /** Drives every durable timer of the engine. */
  clock: ManualClock;
  /** Closes the engine (and whatever holds its durable state), runs `whileDown`, and starts anew over the same state. */
  restart(whileDown?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

export type WorkflowEngineFactory = (options: {
  registry: WorkflowRegistry;
}) => Promise<WorkflowEngineUnderTest>;

export const embeddedWorkflowEngine: WorkflowEngineFactory = async ({ registry }) => {
  const store = new MemoryStateStore();
  const clock = new ManualClock();
  const open = async () => {
    const engine = new EmbeddedWorkflowEngine({ registry, store, clock });
    await engine.start();
    return engine;
  };
  const sut: WorkflowEngineUnderTest = {
    engine: await open(),
    clock,
    async restart(whileDown) {
      await sut.engine.close();
      await whileDown?.();
      sut.engine = await open();
    },
    close: () => sut.engine.close(),
  };
  return sut;
};

/** A restart stops both the app's engine and the sidecar, then starts new ones over the same store and clock. */
export const daprWorkflowEngine: WorkflowEngineFactory = async ({ registry }) => {
  const stateStore = new MemoryStateStore();
  const clock = new ManualClock();
  const open = async () => {
    const sidecar = await startWorkflowSidecar({ stateStore, clock });
    const engine = new DaprWorkflowEngine({ registry, daprGrpcPort: sidecar.port });
    await engine.start();
    return { sidecar, engine };
  };
  const stop = async (running: Awaited<ReturnType<typeof open>>) => {
    await running.engine.close();
    await running.sidecar.close();
  };
  let running = await open();
  const sut: WorkflowEngineUnderTest = {
    engine: running.engine,
    clock,
    async restart(whileDown) {
      await stop(running);
      await whileDown?.();
      running = await open();
      sut.engine = running.engine;
    },
    close: () => stop(running),
  };
  return sut;
};
