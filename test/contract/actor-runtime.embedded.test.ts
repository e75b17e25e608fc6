import { ManualClock, settle } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import {
  type ActorRuntimeUnderTest,
  type RuntimeSetup,
  actorRuntimeContract,
} from "./actor-runtime.contract.js";

async function embedded(setup: RuntimeSetup, store = new MemoryStateStore(), clock = new ManualClock()) {
  const bus = new EmbeddedEventBus({ clock, random: () => 0.5 });
  const actors = new EmbeddedActorRuntime({ store, bus, clock });
  setup({ actors, bus });
  await actors.start();
  const under: ActorRuntimeUnderTest = {
    actors,
    bus,
    clock,
    settle: () => settle(20),
    close: async () => {
      await actors.drain();
      await bus.close();
      await actors.close();
    },
    restart: async () => {
      await under.close();
      return embedded(setup, store, clock);
    },
  };
  return under;
}

actorRuntimeContract("embedded over the memory state store", (setup) => embedded(setup));
