import type { WorkflowContext } from "@dapr/dapr";
import { describe, expect, it } from "vitest";
import { topicFor } from "../../src/domain/domain-event.js";
import { systemClock } from "../../src/runtime/clock.js";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/runtime.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import { CounterActor, TEST_TENANT } from "../support/test-actors.js";

describe("embedded runtime shutdown", () => {
  it("closes within one grace period while a workflow step, a delivery and a retrying handler never finish", {
    timeout: 5_000,
  }, async () => {
    let stepStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      stepStarted = resolve;
    });
    // A vendor call that never answers.
    const hangingStep = async () => {
      stepStarted();
      return new Promise<never>(() => {});
    };
    async function* booking(ctx: WorkflowContext): AsyncGenerator<unknown, unknown, any> {
      return yield ctx.callActivity(hangingStep);
    }
    const registry = new WorkflowRegistry().addActivity(hangingStep).addWorkflow(booking);
    const delivered: string[] = [];
    const runtime = createEmbeddedRuntime({
      clock: systemClock,
      state: new MemoryStateStore(),
      documents: new MemoryDocumentStore(),
      counters: new MemoryCounterStore(systemClock),
      shutdownTimeoutMs: 300,
      actorTypes: [CounterActor],
      workflows: registry,
      subscriptions: [
        {
          name: "never-returns",
          topic: topicFor({ tenant: TEST_TENANT }),
          handler: (event) => {
            delivered.push(event.type);
            return new Promise(() => {});
          },
        },
        {
          name: "always-fails",
          topic: topicFor({ tenant: TEST_TENANT }),
          handler: async () => {
            throw new Error("downstream unavailable");
          },
        },
      ],
    });
    await runtime.start();
    await runtime.workflows.schedule("booking");
    await started;
    expect(await runtime.actors.invoke(CounterActor, "c1", "increment", { emit: true })).toBe(1);
    await expect.poll(() => delivered).toEqual(["counter.incremented"]);

    // Each stage waiting its own grace period, or the workflow worker waiting for its step, would
    // run past the test's timeout.
    await runtime.close();
  });
});
