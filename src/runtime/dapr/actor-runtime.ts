import { createRequire } from "node:module";
import { CommunicationProtocolEnum, DaprClient, LogLevel } from "@dapr/dapr";
import type SdkActorRuntimeModule from "@dapr/dapr/actors/runtime/ActorRuntime.js";
import { DomainError } from "../../domain/domain-error.js";
import { type ActorClass, type ActorRuntime, actorTypeOf } from "../actor-runtime.js";
import type { Clock } from "../clock.js";
import type { EventBus } from "../event-bus.js";
import type { ActivationServices } from "./actor-activation.js";
import { daprActorClass } from "./actor-host.js";
import { type SidecarAddress, SidecarHttp } from "./sidecar-http.js";
import { type InvocationRequest, type TurnOutcome, isTurnOutcome, unwrapOutcome } from "./turn-outcome.js";

// The package root does not export the actor runtime class. `require` yields the same CommonJS
// module under Node, tsx and vitest, whose default-import interop for it differs.
const { default: SdkActorRuntime } = createRequire(import.meta.url)(
  "@dapr/dapr/actors/runtime/ActorRuntime",
) as typeof SdkActorRuntimeModule;
type SdkActorRuntime = (typeof SdkActorRuntime)["prototype"];

/** Actor settings this app reports to its sidecar, as Go durations. */
export interface DaprActorSettings {
  /** Default `1h`. */
  actorIdleTimeout?: string;
  /** Default `30s`. */
  drainOngoingCallTimeout?: string;
}

/** The answer to the sidecar's `GET /dapr/config`. */
export interface DaprActorConfig {
  entities: string[];
  actorIdleTimeout: string;
  drainOngoingCallTimeout: string;
  drainRebalancedActors: boolean;
  reentrancy: { enabled: false };
}

export interface DaprActorRuntimeOptions {
  sidecar: SidecarAddress;
  /** Where actor outboxes are published (normally the DaprEventBus of the same sidecar). */
  bus: EventBus;
  clock: Clock;
  settings?: DaprActorSettings;
  onError?: (error: unknown, where: string) => void;
}

/**
 * Actors on Dapr. Callers go through the sidecar (`POST /v1.0/actors/{type}/{id}/method/{m}`),
 * which places the actor and runs one call at a time per id; the hosted side is dispatched from
 * the Koa sidecar routes into the SDK's actor runtime.
 *
 * Each instance owns its own SDK ActorRuntime rather than the SDK's process-wide singleton, which
 * keeps the first DaprClient forever and would share activations (and their state caches) between
 * two app instances in one process, as when a test restarts the app.
 */
export class DaprActorRuntime implements ActorRuntime {
  private readonly sidecar: SidecarHttp;
  private readonly sdk: SdkActorRuntime;
  private readonly services: ActivationServices;
  private readonly turns = new Set<Promise<unknown>>();
  private readonly settings: Required<DaprActorSettings>;
  private closing = false;

  constructor(options: DaprActorRuntimeOptions) {
    this.sidecar = new SidecarHttp(options.sidecar);
    this.settings = {
      actorIdleTimeout: options.settings?.actorIdleTimeout ?? "1h",
      drainOngoingCallTimeout: options.settings?.drainOngoingCallTimeout ?? "30s",
    };
    const client = new DaprClient({
      daprHost: options.sidecar.host ?? "127.0.0.1",
      daprPort: String(options.sidecar.httpPort),
      communicationProtocol: CommunicationProtocolEnum.HTTP,
      daprApiToken: options.sidecar.apiToken,
      logger: { level: LogLevel.Error },
    });
    this.sdk = new (SdkActorRuntime as unknown as new (client: DaprClient) => SdkActorRuntime)(client);
    const onError = options.onError ?? ((error, where) => console.error(`[dapr actors] ${where}`, error));
    this.services = {
      bus: options.bus,
      clock: options.clock,
      onError,
      isClosing: () => this.closing,
      track: (turn) => {
        this.turns.add(turn);
        return turn.finally(() => this.turns.delete(turn));
      },
    };
  }

  register(actorClass: ActorClass): void {
    this.sdk.registerActor(daprActorClass(actorClass, this.services));
  }

  async invoke(
    actorClass: ActorClass<any>,
    actorId: string,
    method: string,
    ...args: unknown[]
  ): Promise<any> {
    return this.call(actorClass, actorId, method, { arg: args[0] });
  }

  /** The answer came over the wire: the caller's own. */
  invokeReadOnly(
    actorClass: ActorClass<any>,
    actorId: string,
    method: string,
    ...args: unknown[]
  ): Promise<any> {
    return this.invoke(actorClass, actorId, method, ...args);
  }

  /**
   * Dapr's actors are turn-based, with no read beside the turns: a look is a turn, marked so that
   * the actor's side refuses it if it changed anything.
   */
  look(actorClass: ActorClass<any>, actorId: string, method: string, ...args: unknown[]): Promise<any> {
    return this.call(actorClass, actorId, method, { arg: args[0], look: true });
  }

  /** The answer came over the wire: the caller's own, as a look's is. */
  peek(actorClass: ActorClass<any>, actorId: string, method: string, ...args: unknown[]): Promise<any> {
    return this.look(actorClass, actorId, method, ...args);
  }

  private async call(
    actorClass: ActorClass<any>,
    actorId: string,
    method: string,
    request: InvocationRequest,
  ): Promise<any> {
    if (this.closing) throw new DomainError("unavailable", "shutting-down", "The service is shutting down");
    const path = `/v1.0/actors/${encodeURIComponent(actorTypeOf(actorClass))}/${encodeURIComponent(actorId)}/method/${encodeURIComponent(method)}`;
    const outcome = await this.sidecar.json<TurnOutcome>("POST", path, { body: request });
    if (!isTurnOutcome(outcome)) throw new Error(`${path} answered without a turn outcome`);
    return unwrapOutcome(outcome);
  }

  /** Refuses new turns and waits for the ones running here; reminders stay with the sidecar. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.turns]);
  }

  config(): DaprActorConfig {
    return {
      entities: this.sdk.getRegisteredActorTypes(),
      ...this.settings,
      drainRebalancedActors: true,
      reentrancy: { enabled: false },
    };
  }

  // The sidecar's callbacks. Bodies stay raw: the SDK runtime parses them itself.

  dispatchMethod(type: string, id: string, method: string, body: Buffer): Promise<unknown> {
    return this.sdk.invoke(type, id, method, body);
  }

  dispatchReminder(type: string, id: string, name: string, body: Buffer): Promise<void> {
    return this.sdk.fireReminder(type, id, name, body);
  }

  dispatchTimer(type: string, id: string, name: string, body: Buffer): Promise<void> {
    return this.sdk.fireTimer(type, id, name, body);
  }

  /** False when the actor was not active here (the sidecar may deactivate an id it placed elsewhere). */
  async deactivate(type: string, id: string): Promise<boolean> {
    try {
      await this.sdk.deactivate(type, id);
      return true;
    } catch (error) {
      if (error instanceof Error && error.message.includes("ACTOR_NOT_ACTIVATED")) return false;
      throw error;
    }
  }
}
