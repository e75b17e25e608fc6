import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import type { ActorContext } from "../../src/runtime/actor-runtime.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { ManualClock, settle } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { StateOperation } from "../../src/runtime/state-store.js";
import { StoreUnavailableError } from "../../src/runtime/store-unavailable-error.js";
import { CounterActor, TEST_TENANT } from "../support/test-actors.js";

const topic = topicFor({ tenant: TEST_TENANT });

/** What PairActor.readPair waits for between its two reads (arguments are copied: a promise cannot be one). */
let betweenReads: Promise<void> | undefined;

/** Two keys every write changes together: a look must never see one's old value and the other's new. */
class PairActor {
  constructor(private readonly context: ActorContext<Record<string, unknown>>) {}
  async write(value: number): Promise<void> {
    this.context.state.set("a", value);
    this.context.state.set("b", value);
  }
  async readA(): Promise<number | undefined> {
    return this.context.state.get<number>("a");
  }
  async readPair(): Promise<{ a?: number; b?: number }> {
    const a = await this.context.state.get<number>("a");
    await betweenReads;
    return { a, b: await this.context.state.get<number>("b") };
  }
}

/** A store whose transactions, while held, are applied at once but answered only on release. */
class HeldStore extends MemoryStateStore {
  private held: Promise<void> | undefined;
  private onReached: (() => void) | undefined;

  hold(): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    this.held = new Promise((resolve) => {
      release = resolve;
    });
    const reached = new Promise<void>((resolve) => {
      this.onReached = resolve;
    });
    return {
      reached,
      release: () => {
        this.held = undefined;
        release();
      },
    };
  }

  override async transact(operations: StateOperation[]): Promise<void> {
    await super.transact(operations);
    if (!this.held) return;
    this.onReached?.();
    await this.held;
  }
}

function runtime(store = new MemoryStateStore(), clock = new ManualClock(), idleTimeoutMs = 60_000) {
  const bus = new EmbeddedEventBus({ clock, random: () => 0.5 });
  const actors = new EmbeddedActorRuntime({ store, bus, clock, idleTimeoutMs });
  actors.register(CounterActor);
  return { store, clock, bus, actors };
}

describe("embedded actor runtime", () => {
  it("deactivates idle actors and reactivates them from the store", async () => {
    const { actors, clock } = runtime();
    await actors.start();
    await actors.invoke(CounterActor, "idle", "increment", { by: 3 });
    expect(actors.activeCount).toBe(1);
    await clock.advance(61_000);
    await clock.advance(31_000);
    expect(actors.activeCount).toBe(0);
    expect(await actors.invoke(CounterActor, "idle", "get")).toBe(3);
    await actors.close();
  });

  it("keeps at most maxActivations, sparing actors in use, and reads the others back from the store", async () => {
    const clock = new ManualClock();
    const bus = new EmbeddedEventBus({ clock });
    const actors = new EmbeddedActorRuntime({
      store: new MemoryStateStore(),
      bus,
      clock,
      maxActivations: 10,
    });
    actors.register(CounterActor);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inTurn = 0;
    let overlapped = false;
    class GatedActor {
      async pass(): Promise<number> {
        overlapped ||= ++inTurn > 1;
        await gate;
        inTurn--;
        return inTurn;
      }
    }
    actors.register(GatedActor);
    await actors.start();
    const waiting = [actors.invoke(GatedActor, "busy", "pass"), actors.invoke(GatedActor, "busy", "pass")];
    for (let i = 0; i < 50; i++) await actors.invoke(CounterActor, `c${i}`, "increment", { by: i });
    expect(actors.activeCount).toBeLessThanOrEqual(10);
    // The busy actor kept its activation: a third call queues behind the two waiting ones.
    waiting.push(actors.invoke(GatedActor, "busy", "pass"));
    release();
    expect(await Promise.all(waiting)).toEqual([0, 0, 0]);
    expect(overlapped).toBe(false);
    for (let i = 0; i < 50; i++) expect(await actors.invoke(CounterActor, `c${i}`, "get")).toBe(i);
    expect(actors.activeCount).toBeLessThanOrEqual(10);
    await actors.close();
  });

  it("fires reminders in due order behind one clock timer, as armed last, and not once disarmed", async () => {
    const clock = new ManualClock();
    const bus = new EmbeddedEventBus({ clock });
    const actors = new EmbeddedActorRuntime({ store: new MemoryStateStore(), bus, clock });
    const fired: string[] = [];
    class AlarmActor {
      constructor(private readonly context: ActorContext<Record<string, unknown>>) {}
      async set(input: { dueInMs: number }): Promise<void> {
        await this.context.reminders.set("alarm", { dueInMs: input.dueInMs });
      }
      async cancel(): Promise<void> {
        await this.context.reminders.cancel("alarm");
      }
      async receiveReminder(name: string): Promise<void> {
        fired.push(`${this.context.actorId}:${name}@${clock.now() - start}`);
      }
    }
    const start = clock.now();
    actors.register(AlarmActor);
    await actors.start();
    // The idle sweep's.
    const otherTimers = clock.pendingTimers();
    await actors.invoke(AlarmActor, "late", "set", { dueInMs: 3_000 });
    await actors.invoke(AlarmActor, "early", "set", { dueInMs: 1_000 });
    await actors.invoke(AlarmActor, "same-as-early", "set", { dueInMs: 1_000 });
    await actors.invoke(AlarmActor, "moved", "set", { dueInMs: 500 });
    await actors.invoke(AlarmActor, "moved", "set", { dueInMs: 2_000 });
    await actors.invoke(AlarmActor, "cancelled", "set", { dueInMs: 1_500 });
    await actors.invoke(AlarmActor, "cancelled", "cancel");
    expect(clock.pendingTimers()).toBe(otherTimers + 1);

    await clock.advance(5_000);
    expect(fired).toEqual([
      "early:alarm@1000",
      "same-as-early:alarm@1000",
      "moved:alarm@2000",
      "late:alarm@3000",
    ]);
    expect(clock.pendingTimers()).toBe(otherTimers);
    await actors.close();
  });

  it("fires a reminder whose turn found the store unavailable again soon, however long the outage", async () => {
    const clock = new ManualClock();
    const bus = new EmbeddedEventBus({ clock });
    const actors = new EmbeddedActorRuntime({ store: new MemoryStateStore(), bus, clock });
    let outages = 20;
    const fired: number[] = [];
    class AlarmActor {
      constructor(private readonly context: ActorContext<Record<string, unknown>>) {}
      async set(): Promise<void> {
        await this.context.reminders.set("alarm", { dueInMs: 1_000 });
      }
      async receiveReminder(): Promise<void> {
        if (outages-- > 0) throw new StoreUnavailableError({ cause: new Error("The client is closed") });
        fired.push(clock.now() - start);
      }
    }
    const start = clock.now();
    actors.register(AlarmActor);
    await actors.start();
    await actors.invoke(AlarmActor, "a", "set");
    // 100, 200, 400, 800, 1600 ms, then 2 s between the tries: 20 failures take 3.1 s + 15 x 2 s.
    await clock.advance(1_000 + 33_000);
    expect(fired).toEqual([]);
    await clock.advance(100);
    expect(fired).toEqual([34_100]);
    await actors.close();
  });

  it("does not block one actor behind another actor's slow turn", async () => {
    const { actors } = runtime();
    await actors.start();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    class GatedActor {
      async wait(): Promise<string> {
        await gate;
        return "released";
      }
    }
    actors.register(GatedActor);
    const slow = actors.invoke(GatedActor, "slow", "wait");
    expect(await actors.invoke(CounterActor, "other", "increment", {})).toBe(1);
    release();
    expect(await slow).toBe("released");
    await actors.close();
  });

  it("answers a look from the committed state without waiting behind the actor's queued turns", async () => {
    const { actors } = runtime();
    await actors.start();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    class LedgerActor {
      constructor(private readonly context: ActorContext<Record<string, unknown>>) {}
      async record(input: { value: number; gated?: boolean }): Promise<void> {
        this.context.state.set("value", { value: input.value });
        if (input.gated) await gate;
      }
      async read(): Promise<{ value: number } | undefined> {
        return this.context.state.peek<{ value: number }>("value");
      }
      async readAndWrite(): Promise<void> {
        this.context.state.set("value", { value: -1 });
      }
    }
    actors.register(LedgerActor);
    await actors.invoke(LedgerActor, "l1", "record", { value: 1 });
    const busy = actors.invoke(LedgerActor, "l1", "record", { value: 2, gated: true });
    const queued = actors.invoke(LedgerActor, "l1", "read");
    // The turn writing 2 holds the actor, and a read invoked after it waits: a look does not.
    const looked = await actors.look(LedgerActor, "l1", "read");
    expect(looked).toEqual({ value: 1 });
    release();
    await busy;
    expect(await queued).toEqual({ value: 2 });
    // What a look answers is its caller's copy.
    const copy = await actors.look(LedgerActor, "l1", "read");
    copy!.value = 99;
    expect(await actors.look(LedgerActor, "l1", "read")).toEqual({ value: 2 });
    // A look may not change the actor.
    await expect(actors.look(LedgerActor, "l1", "readAndWrite")).rejects.toThrow(/changed the actor/);
    expect(await actors.invoke(LedgerActor, "l1", "read")).toEqual({ value: 2 });
    // One the activation has not read yet is read from the store.
    const fresh = runtime(new MemoryStateStore());
    fresh.actors.register(LedgerActor);
    await fresh.actors.start();
    await fresh.actors.invoke(LedgerActor, "l2", "record", { value: 5 });
    await fresh.clock.advance(61_000);
    await fresh.clock.advance(31_000);
    expect(fresh.actors.activeCount).toBe(0);
    expect(await fresh.actors.look(LedgerActor, "l2", "read")).toEqual({ value: 5 });
    await fresh.actors.close();
    await actors.close();
  });

  it("answers a look from one commit whole, though a commit ends between the look's reads", async () => {
    const { actors } = runtime();
    await actors.start();
    actors.register(PairActor);
    await actors.invoke(PairActor, "p1", "write", 1);
    let release!: () => void;
    betweenReads = new Promise<void>((resolve) => {
      release = resolve;
    });
    const looked = actors.look(PairActor, "p1", "readPair");
    await actors.invoke(PairActor, "p1", "write", 2);
    release();
    expect(await looked).toEqual({ a: 1, b: 1 });
    betweenReads = undefined;
    expect(await actors.look(PairActor, "p1", "readPair")).toEqual({ a: 2, b: 2 });
    await actors.close();
  });

  it("answers a look from one commit whole, though it reads from the store a key a commit is writing", async () => {
    const store = new HeldStore();
    const earlier = runtime(store);
    earlier.actors.register(PairActor);
    await earlier.actors.invoke(PairActor, "p2", "write", 1);
    await earlier.actors.close();
    const { actors } = runtime(store);
    actors.register(PairActor);
    await actors.start();
    // The activation knows "a"; "b" it has yet to read from the store.
    expect(await actors.invoke(PairActor, "p2", "readA")).toBe(1);
    const held = store.hold();
    const writing = actors.invoke(PairActor, "p2", "write", 2);
    // The store holds a = b = 2 and has not answered the commit yet.
    await held.reached;
    const looked = actors.look(PairActor, "p2", "readPair");
    await settle();
    held.release();
    await writing;
    const pair = await looked;
    expect(pair.a).toBe(pair.b);
    await actors.close();
  });

  it("answers a look from one commit whole, though its actor was deactivated and committed anew meanwhile", async () => {
    const store = new MemoryStateStore();
    const earlier = runtime(store);
    earlier.actors.register(PairActor);
    await earlier.actors.invoke(PairActor, "p3", "write", 1);
    await earlier.actors.close();
    const { actors, clock } = runtime(store);
    actors.register(PairActor);
    await actors.start();
    expect(await actors.invoke(PairActor, "p3", "readA")).toBe(1);
    let release!: () => void;
    betweenReads = new Promise<void>((resolve) => {
      release = resolve;
    });
    const looked = actors.look(PairActor, "p3", "readPair");
    await clock.advance(61_000);
    await clock.advance(31_000);
    expect(actors.activeCount).toBe(0);
    // A new activation of the actor commits while the look still holds the old one.
    await actors.invoke(PairActor, "p3", "write", 2);
    betweenReads = undefined;
    release();
    const pair = await looked;
    expect(pair.a).toBe(pair.b);
    await actors.close();
  });

  it("republishes outbox events that were committed but not delivered before a restart", async () => {
    const store = new MemoryStateStore();
    const clock = new ManualClock();
    const first = runtime(store, clock);
    first.bus.subscribe({ name: "always-retry", topic, handler: async () => "RETRY" });
    await first.actors.start();
    await first.actors.invoke(CounterActor, "pending", "increment", { emit: true });
    await settle();
    await first.actors.drain();
    await first.bus.close();
    await first.actors.close();
    expect(await store.keys("outbox||")).toHaveLength(1);

    const second = runtime(store, clock);
    const delivered: DomainEvent[] = [];
    second.bus.subscribe({
      name: "after-restart",
      topic,
      handler: async (event) => {
        delivered.push(event);
        return "SUCCESS";
      },
    });
    await second.actors.start();
    await settle(20);
    expect(delivered.map((e) => e.type)).toEqual(["counter.incremented"]);
    expect(await store.keys("outbox||")).toHaveLength(0);
    await second.actors.close();
  });

  it("refuses new calls once closing, after finishing the turns already queued", async () => {
    const { actors } = runtime();
    await actors.start();
    const queued = Array.from({ length: 10 }, () => actors.invoke(CounterActor, "closing", "increment", {}));
    const closed = actors.close();
    expect(() => actors.invoke(CounterActor, "closing", "get")).toThrow(/shutting down/);
    await closed;
    expect((await Promise.all(queued)).at(-1)).toBe(10);
  });
});

describe("embedded event bus", () => {
  it("retries a throwing handler, then dead-letters once retries run out", async () => {
    const clock = new ManualClock();
    const bus = new EmbeddedEventBus({
      clock,
      retry: { maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 1_000 },
    });
    let calls = 0;
    bus.subscribe({
      name: "broken",
      topic: "t",
      handler: async () => {
        calls++;
        throw new Error("boom");
      },
    });
    const event = {
      id: "urn:event:1",
      type: "x",
      tenant: TEST_TENANT,
      occurredAt: "",
      correlationUrn: "",
      data: {},
    };
    const published = bus.publish("t", event);
    await clock.advance(10_000);
    await published;
    expect(calls).toBe(3);
    expect(bus.unclaimedDeadLetters).toEqual([
      { subscription: "broken", topic: "t.dead-letter", event, reason: "retries-exhausted" },
    ]);
  });

  it("acknowledges events of types a subscription does not want without calling it", async () => {
    const bus = new EmbeddedEventBus({ clock: new ManualClock() });
    const seen: string[] = [];
    bus.subscribe({
      name: "only-opened",
      topic: "t",
      types: ["case.opened"],
      handler: async (e) => {
        seen.push(e.type);
        return "SUCCESS";
      },
    });
    const base = { tenant: TEST_TENANT, occurredAt: "", correlationUrn: "", data: {} };
    await bus.publish("t", { ...base, id: "urn:event:a", type: "case.amended" });
    await bus.publish("t", { ...base, id: "urn:event:b", type: "case.opened" });
    expect(seen).toEqual(["case.opened"]);
  });

  it("delivers to a subscription made after events of its type went out, from the next one on", async () => {
    const bus = new EmbeddedEventBus({ clock: new ManualClock() });
    const seen: string[] = [];
    const recorder = (name: string) => async (e: DomainEvent) => {
      seen.push(`${name}:${e.id}`);
      return "SUCCESS" as const;
    };
    bus.subscribe({ name: "first", topic: "t", types: ["case.opened"], handler: recorder("first") });
    const base = { tenant: TEST_TENANT, occurredAt: "", correlationUrn: "", data: {}, type: "case.opened" };
    await bus.publish("t", { ...base, id: "urn:event:a" });
    bus.subscribe({ name: "second", topic: "t", types: ["case.opened"], handler: recorder("second") });
    await bus.publish("t", { ...base, id: "urn:event:b" });
    expect(seen).toEqual(["first:urn:event:a", "first:urn:event:b", "second:urn:event:b"]);
  });

  it("refuses duplicate subscription names", () => {
    const bus = new EmbeddedEventBus({ clock: new ManualClock() });
    const sub = { name: "dup", topic: "t", handler: async () => "SUCCESS" as const };
    bus.subscribe(sub);
    expect(() => bus.subscribe(sub)).toThrow(/Duplicate/);
  });
});
