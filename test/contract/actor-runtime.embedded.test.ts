import { randomUUID } from "node:crypto";
import { afterAll, describe } from "vitest";
import { RedisStateStore } from "../../src/runtime/redis/state-store.js";
import { REDIS_URL, deleteKeysStartingWith, redisForTests } from "../support/redis.js";
import { ManualClock, settle } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { ScannableStateStore } from "../../src/runtime/state-store.js";
import {
  type ActorRuntimeUnderTest,
  type RuntimeSetup,
  actorRuntimeContract,
} from "./actor-runtime.contract.js";

async function embedded(
  setup: RuntimeSetup,
  store: ScannableStateStore = new MemoryStateStore(),
  clock = new ManualClock(),
) {
  const bus = new EmbeddedEventBus({ clock, random: () => 0.5 });
  const actors = new EmbeddedActorRuntime({ store, bus, clock });
  setup({ actors, bus });
  await actors.start();
  const under: ActorRuntimeUnderTest = {
    actors,
    bus,
    clock,
    settle: async () => {
      await settle(5);
      await actors.idle();
      await settle(10);
    },
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

const redis = await redisForTests("Embedded actor runtime over Redis");
const runPrefix = `test:actor-runtime:${randomUUID()}:`;
let run = 0;

const opened: RedisStateStore[] = [];

describe.skipIf(!redis.reachable)("over the Redis state store", () => {
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await deleteKeysStartingWith(runPrefix);
  });
  // A durable store: state, reminders and outboxes survive the restart through Redis itself.
  actorRuntimeContract("embedded over the Redis state store", async (setup) => {
    const store = await RedisStateStore.connect({ url: REDIS_URL, prefix: `${runPrefix}${run++}:` });
    opened.push(store);
    return embedded(setup, store);
  });
});
