import { AbstractActor, type ActorId, type DaprClient, Temporal } from "@dapr/dapr";
import { type ActorClass, type ReminderSpec, actorTypeOf } from "../actor-runtime.js";
import { isCallableActorMethod } from "../actor-turn.js";
import {
  type ActivationServices,
  type ActorReminderPort,
  DaprActorActivation,
  type ReminderPayload,
} from "./actor-activation.js";

export type DaprActorClass = new (client: DaprClient, id: ActorId) => AbstractActor;

function duration(ms: number): Temporal.Duration {
  return Temporal.Duration.from({ milliseconds: Math.max(0, Math.round(ms)) });
}

/** Method names a plain actor class declares (own and inherited), in declaration order. */
function declaredMethods(actorClass: ActorClass): string[] {
  const names = new Set<string>();
  for (
    let proto = actorClass.prototype;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (typeof descriptor?.value === "function" && isCallableActorMethod(proto, name)) names.add(name);
    }
  }
  return [...names];
}

/**
 * Turns a plain actor class into the AbstractActor subclass the Dapr SDK hosts. The SDK takes the
 * actor type from the class name, so the wrapper is named after the plain class; it gets one thin
 * method per public method of the plain class (prototype methods only: the SDK looks methods up on
 * the wrapper before any instance exists), each running a turn and answering a TurnOutcome.
 */
export function daprActorClass(actorClass: ActorClass, services: ActivationServices): DaprActorClass {
  const type = actorTypeOf(actorClass);

  class Wrapper extends AbstractActor implements ActorReminderPort {
    readonly activation: DaprActorActivation;

    constructor(client: DaprClient, id: ActorId) {
      super(client, id);
      this.activation = new DaprActorActivation(
        actorClass,
        id.getId(),
        this.getStateManager<unknown>(),
        this,
        services,
      );
    }

    override async receiveReminder(data: unknown): Promise<void> {
      await this.activation.remind(data);
    }

    async register(name: string, spec: ReminderSpec): Promise<void> {
      const payload: ReminderPayload = { name, data: spec.data };
      // A JSON string, because the SDK parses the data it gets back with `toString()` first.
      await this.registerActorReminder(
        name,
        duration(spec.dueInMs),
        spec.periodMs === undefined ? undefined : duration(spec.periodMs),
        undefined,
        JSON.stringify(payload),
      );
    }

    async unregister(name: string): Promise<void> {
      await this.unregisterActorReminder(name);
    }
  }

  const reserved = new Set<string>();
  for (let proto = Wrapper.prototype; proto; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) reserved.add(name);
  }
  for (const method of declaredMethods(actorClass)) {
    if (reserved.has(method)) {
      throw new Error(`${type}.${method} collides with a Dapr actor member; rename the method`);
    }
    Object.defineProperty(Wrapper.prototype, method, {
      value: function (this: Wrapper, request: unknown) {
        return this.activation.invoke(method, request);
      },
      writable: true,
      configurable: true,
    });
  }
  Object.defineProperty(Wrapper, "name", { value: type });
  return Wrapper;
}
