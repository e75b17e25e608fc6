import { ManualClock } from "../../src/runtime/clock.js";
import { EmbeddedWorkflowEngine } from "../../src/runtime/embedded/workflow-engine.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import { type WorkflowEngineUnderTest, workflowEngineContract } from "./workflow-engine.suite.js";

async function embeddedEngine({
  registry,
}: {
  registry: WorkflowRegistry;
}): Promise<WorkflowEngineUnderTest> {
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
}

workflowEngineContract("embedded", embeddedEngine);
