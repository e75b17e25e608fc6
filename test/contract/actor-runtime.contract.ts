import { afterEach, describe, expect, it } from "vitest";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { DomainError } from "../../src/domain/domain-error.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";
import type { ManualClock } from "../../src/runtime/clock.js";
import type { DeliveryResult, EventBus } from "../../src/runtime/event-bus.js";
import { CounterActor, TEST_TENANT } from "../support/test-actors.js";
import { recordEvents } from "../support/event-recorder.js";

export interface ActorRuntimeUnderTest {
  actors: ActorRuntime;
  bus: EventBus;
  clock: ManualClock;
  /** Lets deliveries, reminders and HTTP round trips in flight finish (no time passes). */
  settle(): Promise<void>;
  /** Closes this runtime and starts a new one over the same durable state (same setup). */
  restart(): Promise<ActorRuntimeUnderTest>;
  close(): Promise<void>;
}

/** Registers actor types and subscriptions; called again after every restart. */
export type RuntimeSetup = (runtime: { actors: ActorRuntime; bus: EventBus }) => void;

export type RuntimeFactory = (setup: RuntimeSetup) => Promise<ActorRuntimeUnderTest>;

const topic = topicFor({ tenant: TEST_TENANT });

/** The same behaviour, whichever runtime hosts the actors. */
export function actorRuntimeContract(name: string, create: RuntimeFactory): void {
  describe(`actor runtime contract: ${name}`, () => {
    let current: ActorRuntimeUnderTest | undefined;
    afterEach(async () => {
      await current?.close();
      current = undefined;
    });

    const start = async (setup: RuntimeSetup = ({ actors }) => actors.register(CounterActor)) => {
      current = await create(setup);
      return current;
    };

    it("serializes 100 concurrent calls on one actor", async () => {
      const { actors } = await start();
      const results = await Promise.all(
        Array.from({ length: 100 }, () => actors.invoke(CounterActor, "serial", "increment", {})),
      );
      expect(new Set(results).size).toBe(100);
      expect(Math.max(...results)).toBe(100);
      expect(await actors.invoke(CounterActor, "serial", "get")).toBe(100);
    });

    it("keeps separate actors independent", async () => {
      const { actors } = await start();
      await Promise.all(
        ["a", "b", "c"].flatMap((id) =>
          Array.from({ length: 10 }, () => actors.invoke(CounterActor, id, "increment", {})),
        ),
      );
      expect(await Promise.all(["a", "b", "c"].map((id) => actors.invoke(CounterActor, id, "get")))).toEqual([
        10, 10, 10,
      ]);
    });

    it("discards staged state and events when a turn throws, and the domain error reaches the caller", async () => {
      const delivered: DomainEvent[] = [];
      const { actors, settle } = await start(({ actors, bus }) => {
        actors.register(CounterActor);
        recordEvents(bus, { name: "rollback-watch", topic }, delivered);
      });
      await actors.invoke(CounterActor, "rollback", "increment", {});
      const error = await actors
        .invoke(CounterActor, "rollback", "incrementThenRefuse")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind: "conflict", code: "counter-refused", details: { value: 2 } });
      expect(await actors.invoke(CounterActor, "rollback", "get")).toBe(1);
      await settle();
      expect(delivered).toHaveLength(0);
    });

    it("does not keep in-place mutations of state read in a failed turn", async () => {
      const { actors } = await start();
      await actors.invoke(CounterActor, "mutate", "appendLog", "first");
      await expect(actors.invoke(CounterActor, "mutate", "mutateReadThenFail")).rejects.toThrow(
        "plain failure",
      );
      expect(await actors.invoke(CounterActor, "mutate", "getLog")).toEqual(["first"]);
    });

    it("keeps state intact whatever the caller does to a turn's result, read or written", async () => {
      const { actors } = await start();
      const written: string[] = await actors.invoke(CounterActor, "results", "appendLog", "first");
      written.push("caller-after-write");
      const read: string[] = await actors.invoke(CounterActor, "results", "getLog");
      read.push("caller-after-read");
      expect(await actors.invoke(CounterActor, "results", "getLog")).toEqual(["first"]);
    });

    it("answers a peek at state with a copy: the caller's changes to it never reach the state", async () => {
      const { actors } = await start();
      await actors.invoke(CounterActor, "peek", "appendLog", "first");
      const peeked: string[] = await actors.invoke(CounterActor, "peek", "peekLog");
      expect(peeked).toEqual(["first"]);
      peeked.push("caller-after-peek");
      expect(await actors.invoke(CounterActor, "peek", "peekLog")).toEqual(["first"]);
      expect(await actors.invoke(CounterActor, "peek", "appendLog", "second")).toEqual(["first", "second"]);
      expect(await actors.invoke(CounterActor, "peek", "peekLog")).toEqual(["first", "second"]);
    });

    it("answers a look from committed state, and fails a look that changes the actor, keeping nothing of it", async () => {
      const delivered: DomainEvent[] = [];
      const { actors, settle } = await start(({ actors, bus }) => {
        actors.register(CounterActor);
        recordEvents(bus, { name: "look-watch", topic }, delivered);
      });
      await actors.invoke(CounterActor, "look", "increment", {});
      expect(await actors.look(CounterActor, "look", "get")).toBe(1);
      await expect(actors.look(CounterActor, "look", "increment", { emit: true })).rejects.toThrow(
        "CounterActor.increment changed the actor in a look",
      );
      expect(await actors.invoke(CounterActor, "look", "get")).toBe(1);
      await settle();
      expect(delivered).toHaveLength(0);
    });

    it("answers a runtime peek as a look, and what it answered stays as it was read after later turns", async () => {
      const { actors } = await start();
      await actors.invoke(CounterActor, "runtime-peek", "appendLog", "first");
      const peeked = await actors.peek(CounterActor, "runtime-peek", "peekLog");
      expect(peeked).toEqual(await actors.look(CounterActor, "runtime-peek", "peekLog"));
      await actors.invoke(CounterActor, "runtime-peek", "appendLog", "second");
      expect(peeked).toEqual(["first"]);
      expect(await actors.peek(CounterActor, "runtime-peek", "peekLog")).toEqual(["first", "second"]);
      await expect(actors.peek(CounterActor, "runtime-peek", "increment", { emit: true })).rejects.toThrow(
        "CounterActor.increment changed the actor in a look",
      );
    });

    it("runs a read-only invoke as a turn, and what it answered stays as it was after later turns", async () => {
      const { actors } = await start();
      const written = await actors.invokeReadOnly(CounterActor, "read-only", "appendLog", "first");
      expect(written).toEqual(["first"]);
      await actors.invoke(CounterActor, "read-only", "appendLog", "second");
      expect(written).toEqual(["first"]);
      expect(await actors.invokeReadOnly(CounterActor, "read-only", "getLog")).toEqual(["first", "second"]);
      expect(await actors.invokeReadOnly(CounterActor, "read-only", "increment", {})).toBe(1);
      expect(await actors.invoke(CounterActor, "read-only", "get")).toBe(1);
    });

    it("publishes an outbox event once per committed turn, with a URN id and the envelope fields", async () => {
      const delivered: DomainEvent[] = [];
      const { actors, settle } = await start(({ actors, bus }) => {
        actors.register(CounterActor);
        recordEvents(bus, { name: "outbox-watch", topic }, delivered);
      });
      for (let i = 0; i < 5; i++) await actors.invoke(CounterActor, "outbox", "increment", { emit: true });
      await settle();
      expect(delivered).toHaveLength(5);
      expect(new Set(delivered.map((e) => e.id)).size).toBe(5);
      for (const event of delivered) {
        expect(event.id).toMatch(/^urn:event:[0-9a-f-]{36}$/);
        expect(event).toMatchObject({
          type: "counter.incremented",
          tenant: TEST_TENANT,
          correlationUrn: "urn:trace:test",
        });
        expect(Number.isNaN(Date.parse(event.occurredAt))).toBe(false);
      }
      expect(delivered.map((e) => (e.data as { value: number }).value)).toEqual([1, 2, 3, 4, 5]);
    });

    it("redelivers an event the subscriber answered RETRY, keeping its id", async () => {
      const attempts: DomainEvent[] = [];
      const answers: DeliveryResult[] = ["RETRY", "RETRY", "SUCCESS"];
      const under = await start(({ actors, bus }) => {
        actors.register(CounterActor);
        bus.subscribe({
          name: "retry-watch",
          topic,
          handler: async (event) => {
            attempts.push(event);
            return answers[attempts.length - 1] ?? "SUCCESS";
          },
        });
      });
      await under.actors.invoke(CounterActor, "retry", "increment", { emit: true });
      await under.settle();
      expect(attempts).toHaveLength(1);
      for (let i = 0; i < 2; i++) {
        await under.clock.advance(60_000);
        await under.settle();
      }
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((e) => e.id)).size).toBe(1);
      await under.clock.advance(10 * 60_000);
      await under.settle();
      expect(attempts).toHaveLength(3);
    });

    it("sends a dropped event to the dead-letter topic", async () => {
      const deadLetters: DomainEvent[] = [];
      const under = await start(({ actors, bus }) => {
        actors.register(CounterActor);
        bus.subscribe({
          name: "dropper",
          topic,
          deadLetterTopic: "contract.dead-letter",
          handler: async () => "DROP",
        });
        recordEvents(bus, { name: "dead-letter-watch", topic: "contract.dead-letter" }, deadLetters);
      });
      await under.actors.invoke(CounterActor, "drop", "increment", { emit: true });
      await under.settle();
      expect(deadLetters).toHaveLength(1);
      expect(deadLetters[0]?.type).toBe("counter.incremented");
    });

    it("fires a one-shot reminder at its due time, not before, and only once", async () => {
      const under = await start();
      await under.actors.invoke(CounterActor, "remind", "remind", { name: "wake", dueInMs: 60_000 });
      await under.clock.advance(59_000);
      await under.settle();
      expect(await under.actors.invoke(CounterActor, "remind", "fired")).toEqual([]);
      await under.clock.advance(1_000);
      await under.settle();
      expect(await under.actors.invoke(CounterActor, "remind", "fired")).toEqual([
        { name: "wake", data: { note: "wake" } },
      ]);
      await under.clock.advance(10 * 60_000);
      await under.settle();
      expect(await under.actors.invoke(CounterActor, "remind", "fired")).toHaveLength(1);
    });

    it("repeats a periodic reminder until it is cancelled", async () => {
      const under = await start();
      await under.actors.invoke(CounterActor, "tick", "remind", {
        name: "tick",
        dueInMs: 1_000,
        periodMs: 10_000,
      });
      for (let i = 0; i < 3; i++) {
        await under.clock.advance(i === 0 ? 1_000 : 10_000);
        await under.settle();
      }
      expect(await under.actors.invoke(CounterActor, "tick", "fired")).toHaveLength(3);
      await under.actors.invoke(CounterActor, "tick", "forget", "tick");
      await under.clock.advance(60_000);
      await under.settle();
      expect(await under.actors.invoke(CounterActor, "tick", "fired")).toHaveLength(3);
    });

    it("keeps state and fires reminders after a restart", async () => {
      const first = await start();
      await first.actors.invoke(CounterActor, "durable", "increment", { by: 7 });
      await first.actors.invoke(CounterActor, "durable", "remind", { name: "later", dueInMs: 30_000 });
      const second = await first.restart();
      current = second;
      expect(await second.actors.invoke(CounterActor, "durable", "get")).toBe(7);
      await second.clock.advance(30_000);
      await second.settle();
      expect(await second.actors.invoke(CounterActor, "durable", "fired")).toEqual([
        { name: "later", data: { note: "later" } },
      ]);
    });

    it("refuses an unknown method", async () => {
      const { actors } = await start();
      await expect(actors.invoke(CounterActor, "x", "nope" as "get")).rejects.toThrow();
    });
  });
}
