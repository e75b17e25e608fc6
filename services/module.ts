import type { Logger } from "pino";
import type { AuditLog } from "../src/app/audit-log.js";
import type { Config } from "../src/config.js";
import type { Route } from "../src/http/route.js";
import type { Directory } from "../src/identity/directory.js";
import type { PassengerIdentity } from "../src/passenger-identity/passenger-identity.js";
import type { ActorClass } from "../src/runtime/actor-runtime.js";
import type { Subscription } from "../src/runtime/event-bus.js";
import type { Runtime } from "../src/runtime/runtime.js";
import type { WorkflowRegistry } from "../src/runtime/workflow-engine.js";

/** What every module's routes and event handlers may use, bound once the runtime is up. */
export interface ModuleContext {
  config: Config;
  runtime: Runtime;
  logger: Logger;
  audit: AuditLog;
  directory: Directory;
  passengers: PassengerIdentity;
}

/**
 * One product area (cases, policies, hotels...): its actors, workflows, event subscriptions and
 * routes. The composition root gathers every module; modules never know the runtime's adapters.
 */
export interface ServiceModule {
  name: string;
  actorTypes?: ActorClass[];
  registerWorkflows?(registry: WorkflowRegistry): void;
  /**
   * Subscriptions are registered before the runtime starts (Dapr reads them once); their handlers
   * read the context when an event arrives, through `context()`. Events travel on one topic per
   * tenant (spec 5.4), so the tenants this deployment serves are given here.
   */
  subscriptions?(context: () => ModuleContext, tenants: readonly string[]): Subscription[];
  routes?(context: ModuleContext): Route[];
  /** Runs once the runtime has started (seed data, indexes, schedules). */
  start?(context: ModuleContext): Promise<void>;
}
