/** Injection tokens of the runtime ports; only the composition root binds them to adapters. */
export const TOKENS = {
  config: Symbol.for("Config"),
  logger: Symbol.for("Logger"),
  clock: Symbol.for("Clock"),
  actors: Symbol.for("ActorRuntime"),
  bus: Symbol.for("EventBus"),
  workflows: Symbol.for("WorkflowEngine"),
  state: Symbol.for("StateStore"),
  documents: Symbol.for("DocumentStore"),
  counters: Symbol.for("CounterStore"),
  runtime: Symbol.for("Runtime"),
} as const;
