import type { InputBinding, OutputBinding } from "./bindings.js";
import type { Middleware } from "koa";
import type { ActorClass, ActorRuntime } from "./actor-runtime.js";
import type { Clock } from "./clock.js";
import type { CounterStore } from "./counter-store.js";
import type { DeadLetterStore } from "./dead-letters.js";
import type { DocumentStore } from "./document-store.js";
import type { EventBus, Subscription } from "./event-bus.js";
import type { StateStore } from "./state-store.js";
import type { WorkflowEngine, WorkflowRegistry } from "./workflow-engine.js";

/** Every port a service needs, bound to one runtime's adapters by the composition root. */
export interface Runtime {
  readonly kind: "embedded" | "dapr";
  readonly clock: Clock;
  readonly actors: ActorRuntime;
  readonly bus: EventBus;
  readonly workflows: WorkflowEngine;
  readonly state: StateStore;
  readonly documents: DocumentStore;
  readonly counters: CounterStore;
  /** What subscriptions gave up on, kept in the document store. */
  readonly deadLetters: DeadLetterStore;
  /** Dapr only: the callback routes the sidecar calls (actors, subscriptions, health), mounted first. */
  readonly sidecarRoutes?: Middleware;
  /** Dapr only: the input binding of that name, delivered by the sidecar to `/bindings/<name>`. */
  inputBinding?(name: string): InputBinding;
  /** Dapr only: the output binding component of that name, invoked through the sidecar. */
  outputBinding?(name: string): OutputBinding;
  /** Re-arms reminders, resumes workflows, republishes outboxes. */
  start(): Promise<void>;
  /** Finishes running turns and flushes outboxes (bounded by the shutdown timeout), then releases stores. */
  close(): Promise<void>;
}

/** What the application contributes to a runtime, whichever it is. */
export interface RuntimeContributions {
  actorTypes: ActorClass[];
  workflows: WorkflowRegistry;
  subscriptions: Subscription[];
}

/** What every runtime is built with beside its own settings: the contributions, stores and clock it serves, and its error hook. */
export interface RuntimeOptions extends RuntimeContributions {
  clock: Clock;
  documents: DocumentStore;
  counters: CounterStore;
  onError?: (error: unknown, where: string) => void;
}
