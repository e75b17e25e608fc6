import type { Logger } from "pino";
import type { DependencyContainer } from "tsyringe";
import type { AuditLog } from "../src/app/audit-log.js";
import type { Config, ServiceName } from "../src/config.js";
import type { Route } from "../src/http/route.js";
import type { Directory } from "../src/app/directory.js";
import type { PassengerIdentity } from "../src/passenger-identity/passenger-identity.js";
import type { ActorClass } from "../src/runtime/actor-runtime.js";
import type { Runtime } from "../src/runtime/runtime.js";
import type { EventSubscription } from "../src/runtime/subscription-policy.js";
import { WorkflowRegistry } from "../src/runtime/workflow-engine.js";
import { type Incarnation, SOLE_INCARNATION } from "../src/domain/incarnation.js";
import { TOKENS } from "../src/runtime/tokens.js";

/**
 * What every module's routes and event handlers may use, bound once the runtime is up: the
 * platform's container (its use cases, and the adapters the composition root chose), and those
 * adapters by name for the routes and handlers that call a port directly.
 */
export interface ModuleContext {
  container: DependencyContainer;
  config: Config;
  runtime: Runtime;
  logger: Logger;
  audit: AuditLog;
  directory: Directory;
  passengers: PassengerIdentity;
}

/**
 * One product area (cases, policies, hotels...): its actors, workflows, use cases, event
 * subscriptions and routes. The composition root gathers every module; modules never know the
 * runtime's adapters.
 */
export interface ServiceModule {
  name: string;
  actorTypes?: ActorClass[];
  /** Activities read the context when they run, through `context()`, as event handlers do. */
  registerWorkflows?(registry: WorkflowRegistry, context: () => ModuleContext): void;
  /**
   * Registers the module's use cases in one platform's container, as singletons of that container
   * (a process may run several platforms: each has its own). Their ports are resolved from what
   * the composition root bound.
   */
  register?(container: DependencyContainer): void;
  /**
   * Subscriptions, by the service (SERVICES) whose app handles them. They are registered before
   * the runtime starts (Dapr reads them once); their handlers read the context when an event
   * arrives, through `context()`. Events travel on one topic per tenant (spec 5.4), so the tenants
   * this deployment serves are given here. Each declares what its failures lead to
   * (src/runtime/subscription-policy.ts).
   */
  subscriptions?(context: () => ModuleContext, tenants: readonly string[]): HandledBy;
  /** The module's routes, given the use cases they call from the context's container. */
  routes?(context: ModuleContext): Route[];
  /** Runs once the runtime has started (seed data, indexes, schedules). */
  start?(context: ModuleContext): Promise<void>;
  /**
   * Runs first when the platform closes, before the HTTP servers stop: ends what would hold them
   * open (long-lived responses such as event streams).
   */
  stop?(context: ModuleContext): Promise<void>;
}

/** A module's subscriptions, keyed by the service whose app handles them. */
export type HandledBy = Partial<Record<ServiceName, EventSubscription[]>>;

/**
 * The subscriptions an app makes: under Dapr, only those of the services it runs (SERVICES), so
 * that each Dapr app id, a consumer group of its own on the pub/sub component, handles each event
 * once across the distributed run, and an app that handles none (identity, vendor-sim) subscribes
 * to nothing. The embedded runtime's bus is in process: it takes them all (`"all"`), whatever the
 * services it serves.
 */
export function subscriptionsHandledBy(
  modules: readonly ServiceModule[],
  services: readonly ServiceName[] | "all",
  context: () => ModuleContext,
  tenants: readonly string[],
): EventSubscription[] {
  return modules.flatMap((module) =>
    Object.entries(module.subscriptions?.(context, tenants) ?? {}).flatMap(([service, subscriptions]) =>
      services === "all" || services.includes(service as ServiceName) ? (subscriptions ?? []) : [],
    ),
  );
}

/**
 * The service whose app runs the workflows under Dapr: only its subscriptions schedule them. Other
 * apps register none and start no workflow worker, which their sidecars could not serve anyway
 * (workflows are actors inside daprd, and identity's and vendor-sim's sidecars load no actor state
 * store). The embedded runtime runs them all (`"all"`).
 */
export const WORKFLOW_SERVICE: ServiceName = "workers";

export function workflowsRunBy(
  modules: readonly ServiceModule[],
  services: readonly ServiceName[] | "all",
  context: () => ModuleContext,
): WorkflowRegistry {
  const registry = new WorkflowRegistry();
  if (services !== "all" && !services.includes(WORKFLOW_SERVICE)) return registry;
  for (const module of modules) module.registerWorkflows?.(registry, context);
  return registry;
}

/** Use-case classes (`@injectable`), each one instance per platform container. */
export function registerSingletons(
  container: DependencyContainer,
  classes: readonly (new (...args: any[]) => unknown)[],
): void {
  for (const useCase of classes) container.registerSingleton(useCase);
}

/**
 * Which start of its node this process is (src/main.ts registers it); a container without one
 * (tests, one in-memory process) is the sole incarnation of a node that never restarts.
 */
export function incarnationOf(container: DependencyContainer): Incarnation {
  return container.isRegistered(TOKENS.incarnation, true)
    ? container.resolve<Incarnation>(TOKENS.incarnation)
    : SOLE_INCARNATION;
}
