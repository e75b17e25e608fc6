/**
 * One actor type (or the few that work together) on an embedded runtime with a ManualClock,
 * started, with every event published on the tenant's topic recorded in order: what each actor unit
 * test sets up before it drives the actor, so that the tests differ only in the commands they send.
 */
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import type { ActorClass } from "../../src/runtime/actor-runtime.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { recordEvents } from "../support/event-recorder.js";

export interface ActorStage {
  clock: ManualClock;
  runtime: EmbeddedActorRuntime;
  /** Events of the tenant, in publication order. */
  events: DomainEvent[];
}

export async function startActorStage(
  actorClasses: ActorClass | readonly ActorClass[],
  tenant: string,
): Promise<ActorStage> {
  const clock = new ManualClock("2026-11-21T23:00:00Z");
  const bus = new EmbeddedEventBus({ clock });
  const runtime = new EmbeddedActorRuntime({ store: new MemoryStateStore(), bus, clock });
  for (const actorClass of [actorClasses].flat()) runtime.register(actorClass);
  const events = recordEvents(bus, { name: "all", topic: topicFor({ tenant }) });
  await runtime.start();
  return { clock, runtime, events };
}
