import { subscriptionReporting } from "../dead-letters.js";
import type { Runtime, RuntimeOptions } from "../runtime.js";
import type { ScannableStateStore } from "../state-store.js";
import { EmbeddedActorRuntime } from "./actor-runtime.js";
import { EmbeddedEventBus } from "./event-bus.js";
import { EmbeddedWorkflowEngine } from "./workflow-engine.js";

export interface EmbeddedRuntimeOptions extends RuntimeOptions {
  state: ScannableStateStore;
  /** Longest time `close()` waits for outbox deliveries in flight before abandoning them to the store. */
  shutdownTimeoutMs: number;
}

/** Actors, bus, workflows and stores in this process. */
export function createEmbeddedRuntime(options: EmbeddedRuntimeOptions): Runtime {
  const { clock, state, documents, counters, onError } = options;
  const { store: deadLetters, busOptions } = subscriptionReporting(documents, clock, onError);
  const bus = new EmbeddedEventBus({ clock, ...busOptions });
  const actors = new EmbeddedActorRuntime({ store: state, bus, clock, onError });
  const workflows = new EmbeddedWorkflowEngine({ store: state, clock, registry: options.workflows });
  for (const actorType of options.actorTypes) actors.register(actorType);
  for (const subscription of options.subscriptions) bus.subscribe(subscription);

  return {
    kind: "embedded",
    clock,
    actors,
    bus,
    workflows,
    state,
    documents,
    counters,
    deadLetters,
    async start() {
      await actors.start();
      await workflows.start();
    },
    async close() {
      // One grace period for the whole shutdown, not one per step: running turns finish, workflow
      // steps end and outboxes flush within it. What is left then (deliveries still retrying, a step
      // waiting on a vendor, turns queued behind it) stays in the state store for the next start,
      // and a handler that never returns does not hold the process.
      const graceOver = new Promise((resolve) => setTimeout(resolve, options.shutdownTimeoutMs).unref());
      const withinGrace = (work: Promise<unknown>) => Promise.race([work, graceOver]);
      await withinGrace(actors.drain());
      await withinGrace(workflows.close());
      await withinGrace(actors.close());
      await withinGrace(bus.close());
      await withinGrace(actors.close());
      await Promise.all([documents.close(), counters.close(), state.close()]);
    },
  };
}
