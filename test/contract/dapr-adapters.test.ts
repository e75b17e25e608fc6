import type { Server } from "node:http";
import { type AddressInfo, type Socket, createServer } from "node:net";
import Koa from "koa";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { type ActorContext, type ActorRuntime, OUTBOX_KEY } from "../../src/runtime/actor-runtime.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { DeadLetterOffice, DocumentDeadLetters } from "../../src/runtime/dead-letters.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import type { DeliveryResult, EventBus } from "../../src/runtime/event-bus.js";
import { daprActorClass } from "../../src/runtime/dapr/actor-host.js";
import { DaprActorRuntime } from "../../src/runtime/dapr/actor-runtime.js";
import { DaprEventBus } from "../../src/runtime/dapr/event-bus.js";
import { createDaprRuntime } from "../../src/runtime/dapr/runtime.js";
import { sidecarRouter } from "../../src/runtime/dapr/sidecar-routes.js";
import { probeSidecar } from "../../src/runtime/dapr/sidecar-probe.js";
import { DaprStateStore } from "../../src/runtime/dapr/state-store.js";
import { EtagMismatchError } from "../../src/runtime/state-store.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import {
  type ResiliencyDocument,
  type StandinSidecar,
  startStandinSidecar,
} from "../support/standin-sidecar/index.js";
import {
  type ActorRuntimeUnderTest,
  type RuntimeSetup,
  actorRuntimeContract,
} from "./actor-runtime.contract.js";
import { recordEvents } from "../support/event-recorder.js";

const TENANT = "urn:airline:LH";
const TOPIC = topicFor({ tenant: TENANT });
const DEAD_LETTERS = `${TOPIC}.dead`;

interface Reminded {
  name: string;
  data: unknown;
}

/** A tiny actor: a counter that can announce, refuse, crash and be reminded. */
class Counter {
  constructor(private readonly context: ActorContext<Record<string, unknown>>) {}

  async increment(by: number): Promise<number> {
    const next = ((await this.context.state.get<number>("count")) ?? 0) + by;
    this.context.state.set("count", next);
    return next;
  }

  async incrementAndAnnounce(by: number): Promise<number> {
    const count = await this.increment(by);
    this.context.emit({
      type: "counter.incremented",
      tenant: TENANT,
      correlationUrn: `urn:counter:${this.context.actorId}`,
      data: { count },
    });
    return count;
  }

  async incrementThenRefuse(by: number): Promise<never> {
    await this.incrementAndAnnounce(by);
    throw new DomainError("conflict", "counter-frozen", "The counter is frozen", { by });
  }

  async incrementThenCrash(by: number): Promise<never> {
    await this.incrementAndAnnounce(by);
    throw new Error("disk on fire");
  }

  async count(_: null): Promise<number> {
    return (await this.context.state.get<number>("count")) ?? 0;
  }

  async remindLater(spec: { dueInMs: number; periodMs?: number; note: string }): Promise<void> {
    await this.context.reminders.set("tick", {
      dueInMs: spec.dueInMs,
      periodMs: spec.periodMs,
      data: { note: spec.note },
    });
  }

  async stopReminding(_: null): Promise<void> {
    await this.context.reminders.cancel("tick");
  }

  async receiveReminder(name: string, data: unknown): Promise<void> {
    const seen = (await this.context.state.get<Reminded[]>("reminded")) ?? [];
    this.context.state.set("reminded", [...seen, { name, data }]);
  }

  async reminded(_: null): Promise<Reminded[]> {
    return (await this.context.state.get<Reminded[]>("reminded")) ?? [];
  }
}

interface App {
  port: number;
  actors: ActorRuntime;
  bus: DaprEventBus;
  close(): Promise<void>;
}

let clock: ManualClock;
let sidecar: StandinSidecar;
const apps = new Set<App>();

/** One app process: Koa with the sidecar routes on a free port, attached to the stand-in. */
async function startAppWith(setup: RuntimeSetup, deadLetters?: DeadLetterOffice): Promise<App> {
  const address = { httpPort: sidecar.httpPort };
  const bus = new DaprEventBus({
    sidecar: address,
    pubsubName: "pubsub",
    appId: "app",
    ...(deadLetters ? { deadLetters } : {}),
  });
  const actors = new DaprActorRuntime({ sidecar: address, bus, clock, onError: () => {} });
  setup({ actors, bus });
  const koa = new Koa();
  koa.use(sidecarRouter({ actors, bus }).routes());
  const server: Server = koa.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const port = (server.address() as AddressInfo).port;
  await sidecar.attachApp(port);
  const app: App = {
    port,
    actors,
    bus,
    async close() {
      apps.delete(app);
      await actors.close();
      await bus.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  apps.add(app);
  return app;
}

/** An app hosting the test's Counter, with the subscriptions a test needs. */
function startApp(subscribe: (bus: EventBus) => void = () => {}): Promise<App> {
  return startAppWith(({ actors, bus }) => {
    actors.register(Counter);
    subscribe(bus);
  });
}

async function settled(): Promise<void> {
  await sidecar.idle();
}

/** How often the sidecar redelivers a failed delivery before it dead-letters it. */
const PUBSUB_RETRIES = 3;

/**
 * The inbound pub/sub policy daprd loads from the resiliency file: redelivery waits exactly 100,
 * 200, 400 ms (no jitter), then the event goes to the dead letter.
 */
const resiliency: ResiliencyDocument[] = [
  {
    kind: "Resiliency",
    spec: {
      policies: {
        retries: {
          pubsubRetry: {
            policy: "exponential",
            initialInterval: "100ms",
            multiplier: 2,
            randomizationFactor: 0,
            maxInterval: "1s",
            maxRetries: PUBSUB_RETRIES,
          },
        },
      },
      targets: { components: { pubsub: { inbound: { retry: "pubsubRetry" } } } },
    },
  },
];

beforeEach(async () => {
  clock = new ManualClock("2026-03-01T08:00:00Z");
  sidecar = await startStandinSidecar({ clock, resiliency, random: () => 1 });
});

afterEach(async () => {
  for (const app of apps) await app.close();
  await sidecar.close();
});

/** The runtime contract every ActorRuntime passes, here over the Dapr adapters and the stand-in. */
async function daprUnderTest(setup: RuntimeSetup): Promise<ActorRuntimeUnderTest> {
  const app = await startAppWith(setup);
  return {
    actors: app.actors,
    bus: app.bus,
    clock,
    settle: () => sidecar.idle(),
    close: () => app.close(),
    restart: async () => {
      await app.close();
      return daprUnderTest(setup);
    },
  };
}

actorRuntimeContract("Dapr adapters through the stand-in sidecar", daprUnderTest);

interface HostedCall {
  method: string;
  path: string;
  at: number;
}

/**
 * An app that reports `types` in `/dapr/config` and answers every other call with the status
 * `answer` picks, recording each call and the manual clock's time of it.
 */
async function startFakeActorHost(
  types: string[],
  answer: (call: HostedCall) => number,
): Promise<HostedCall[]> {
  const calls: HostedCall[] = [];
  const koa = new Koa();
  koa.use((ctx) => {
    if (ctx.path === "/dapr/config") ctx.body = { entities: types };
    else if (ctx.path === "/dapr/subscribe") ctx.body = [];
    else {
      const call = { method: ctx.method, path: ctx.path, at: clock.now() };
      calls.push(call);
      ctx.status = answer(call);
    }
  });
  const server: Server = koa.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  await sidecar.attachApp((server.address() as AddressInfo).port);
  return calls;
}

/** Registers a reminder through the sidecar's actor API, as the SDK does. */
async function registerReminder(type: string, id: string, body: { dueTime: string; period?: string }) {
  const response = await fetch(`http://127.0.0.1:${sidecar.httpPort}/v1.0/actors/${type}/${id}/reminders/r`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(204);
}

describe("Dapr actors through the stand-in sidecar", () => {
  it("reports the plain class name as the actor type, and its subscriptions", async () => {
    const { port } = await startApp((bus) =>
      bus.subscribe({
        name: "counter-log",
        topic: TOPIC,
        handler: async () => "SUCCESS",
        deadLetterTopic: DEAD_LETTERS,
      }),
    );
    expect(daprActorClass(Counter, {} as never).name).toBe("Counter");
    const base = `http://127.0.0.1:${port}`;
    expect(await (await fetch(`${base}/dapr/config`)).json()).toMatchObject({
      entities: ["Counter"],
      reentrancy: { enabled: false },
    });
    expect(await (await fetch(`${base}/dapr/subscribe`)).json()).toEqual([
      {
        pubsubname: "pubsub",
        topic: TOPIC,
        route: `/dapr/events/${encodeURIComponent(TOPIC)}`,
        deadLetterTopic: `${TOPIC}.dead-letter.app`,
      },
    ]);
  });

  it("serializes 100 concurrent calls on one actor into a consistent count", async () => {
    const { actors } = await startApp();
    const results = await Promise.all(
      Array.from({ length: 100 }, () => actors.invoke(Counter, "concurrent", "increment", 1)),
    );
    expect([...results].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await actors.invoke(Counter, "concurrent", "count", null)).toBe(100);
    expect((await sidecar.http.store.get("app||Counter||concurrent||count"))?.value).toBe(100);
  });

  it("rolls back a throwing turn and hands a DomainError back as a DomainError", async () => {
    const { actors } = await startApp();
    await actors.invoke(Counter, "refuser", "increment", 5);

    const refused = await actors.invoke(Counter, "refuser", "incrementThenRefuse", 3).catch((error) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      kind: "conflict",
      code: "counter-frozen",
      message: "The counter is frozen",
      details: { by: 3 },
    });

    const crashed = await actors.invoke(Counter, "refuser", "incrementThenCrash", 4).catch((error) => error);
    expect(crashed).toBeInstanceOf(Error);
    expect(crashed).not.toBeInstanceOf(DomainError);
    expect(crashed.message).toBe("disk on fire");

    expect(await actors.invoke(Counter, "refuser", "count", null)).toBe(5);
    await settled();
    expect(sidecar.http.published(TOPIC)).toEqual([]);
    expect(await sidecar.http.store.get(`app||Counter||refuser||${OUTBOX_KEY}`)).toBeUndefined();
  });

  it("takes only 200 from an actor callback, as daprd 1.16 does (Koa answers 204 to an empty body)", async () => {
    await startFakeActorHost(["Quiet"], () => 204);
    const response = await fetch(`http://127.0.0.1:${sidecar.httpPort}/v1.0/actors/Quiet/1/method/ping`, {
      method: "POST",
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ errorCode: "ERR_ACTOR_INVOKE_METHOD" });
  });

  it("calls only an app that reported the actor type in /dapr/config", async () => {
    const calls = await startFakeActorHost(["Other"], () => 200);
    const response = await fetch(`http://127.0.0.1:${sidecar.httpPort}/v1.0/actors/Counter/1/method/count`, {
      method: "POST",
    });
    expect(response.status).toBe(500);
    expect(calls).toEqual([]);
  });

  it("deactivates an actor idle for actorIdleTimeout with DELETE /actors/{type}/{id}, which the app answers 200", async () => {
    const { actors } = await startApp();
    await actors.invoke(Counter, "idler", "increment", 3);
    await clock.advance(59 * 60_000);
    await settled();
    expect(sidecar.http.deactivations()).toEqual([]);
    // A call restarts the idle time.
    expect(await actors.invoke(Counter, "idler", "count", null)).toBe(3);
    await clock.advance(59 * 60_000);
    await settled();
    expect(sidecar.http.deactivations()).toEqual([]);

    await clock.advance(60_000);
    await settled();
    expect(sidecar.http.deactivations()).toEqual([{ actorType: "Counter", actorId: "idler", status: 200 }]);
    // A new activation reads the committed state.
    expect(await actors.invoke(Counter, "idler", "increment", 1)).toBe(4);
  });
});

describe("Dapr pub/sub through the stand-in sidecar", () => {
  it("publishes an outbox event once per committed turn and redelivers it on RETRY or a throw", async () => {
    const attempts: DomainEvent[] = [];
    const verdicts: Array<() => DeliveryResult> = [
      () => {
        throw new Error("subscriber down");
      },
      () => "RETRY",
      () => "SUCCESS",
    ];
    const { actors } = await startApp((bus) =>
      bus.subscribe({
        name: "counter-log",
        topic: TOPIC,
        handler: async (event) => {
          attempts.push(event);
          return verdicts[attempts.length - 1]!();
        },
      }),
    );

    await actors.invoke(Counter, "announcer", "incrementAndAnnounce", 2);
    await actors.invoke(Counter, "announcer", "incrementThenRefuse", 1).catch(() => undefined);
    await settled();

    const published = sidecar.http.published(TOPIC);
    expect(published).toHaveLength(1);
    const event = published[0]!.data as DomainEvent;
    expect(event).toMatchObject({
      type: "counter.incremented",
      tenant: TENANT,
      occurredAt: "2026-03-01T08:00:00.000Z",
      data: { count: 2 },
    });
    expect(event.id).toMatch(/^urn:event:[0-9a-f-]{36}$/);
    expect(attempts.map((e) => e.id)).toEqual([event.id]);

    await clock.advance(100);
    await settled();
    expect(attempts).toHaveLength(2);
    await clock.advance(200);
    await settled();
    expect(attempts).toHaveLength(3);
    await clock.advance(10_000);
    await settled();
    expect(attempts.map((e) => e.id)).toEqual([event.id, event.id, event.id]);
    expect(await sidecar.http.store.get(`app||Counter||announcer||${OUTBOX_KEY}`)).toBeUndefined();
  });

  it("keeps the outbox when publishing fails and publishes it at the actor's next turn", async () => {
    const { actors } = await startApp();
    sidecar.http.failNextPublishes(1);
    expect(await actors.invoke(Counter, "unlucky", "incrementAndAnnounce", 1)).toBe(1);
    expect(sidecar.http.published(TOPIC)).toEqual([]);
    const kept = await sidecar.http.store.get<DomainEvent[]>(`app||Counter||unlucky||${OUTBOX_KEY}`);
    expect(kept?.value.map((e) => e.data)).toEqual([{ count: 1 }]);

    await actors.invoke(Counter, "unlucky", "count", null);
    expect(sidecar.http.published(TOPIC).map((e) => (e.data as DomainEvent).id)).toEqual([
      kept?.value[0]?.id,
    ]);
    expect(await sidecar.http.store.get(`app||Counter||unlucky||${OUTBOX_KEY}`)).toBeUndefined();
  });

  it("sends a DROPped event to the dead-letter topic", async () => {
    const deadLetters: DomainEvent[] = [];
    const { actors } = await startApp((bus) => {
      bus.subscribe({
        name: "picky",
        topic: TOPIC,
        handler: async () => "DROP",
        deadLetterTopic: DEAD_LETTERS,
      });
      recordEvents(bus, { name: "dead-letters", topic: DEAD_LETTERS }, deadLetters);
    });
    await actors.invoke(Counter, "dropped", "incrementAndAnnounce", 1);
    await settled();
    const [event] = sidecar.http.published(TOPIC).map((e) => e.data as DomainEvent);
    expect(sidecar.http.published(DEAD_LETTERS).map((e) => e.data)).toEqual([event]);
    expect(deadLetters).toEqual([event]);
  });

  it("acknowledges events of other types without running the handler", async () => {
    const handled: DomainEvent[] = [];
    const { actors } = await startApp((bus) =>
      bus.subscribe({
        name: "other-types",
        topic: TOPIC,
        types: ["counter.reset"],
        handler: async (event) => {
          handled.push(event);
          return "RETRY";
        },
        deadLetterTopic: DEAD_LETTERS,
      }),
    );
    await actors.invoke(Counter, "ignored", "incrementAndAnnounce", 1);
    await settled();
    await clock.advance(10_000);
    await settled();
    expect(handled).toEqual([]);
    expect(sidecar.http.published(DEAD_LETTERS)).toEqual([]);
  });

  it("fans one topic out to several subscriptions, retrying only the one that asked", async () => {
    const seen: string[] = [];
    let retriesLeft = 1;
    const { actors } = await startApp((bus) => {
      bus.subscribe({
        name: "steady",
        topic: TOPIC,
        handler: async () => {
          seen.push("steady");
          return "SUCCESS";
        },
      });
      bus.subscribe({
        name: "flaky",
        topic: TOPIC,
        handler: async () => {
          seen.push("flaky");
          return retriesLeft-- > 0 ? "RETRY" : "SUCCESS";
        },
      });
    });
    await actors.invoke(Counter, "fan-out", "incrementAndAnnounce", 1);
    await settled();
    await clock.advance(1_000);
    await settled();
    expect(seen.filter((s) => s === "steady")).toHaveLength(1);
    expect(seen.filter((s) => s === "flaky")).toHaveLength(2);
  });

  it("throws when the sidecar refuses a publication", async () => {
    const { bus } = await startApp();
    sidecar.http.failNextPublishes(1);
    const event: DomainEvent = {
      id: "urn:event:1",
      type: "counter.incremented",
      tenant: TENANT,
      occurredAt: "2026-03-01T08:00:00.000Z",
      correlationUrn: "urn:counter:x",
      data: {},
    };
    await expect(bus.publish(TOPIC, event)).rejects.toThrow(/500/);
    await bus.publish(TOPIC, event);
    expect(sidecar.http.published(TOPIC).map((e) => e.data)).toEqual([event]);
  });
});

describe("Dapr dead letters through the stand-in sidecar", () => {
  /** An app whose bus keeps what its subscriptions give up on, as the Dapr runtime's does. */
  async function startAppKeepingDeadLetters(subscribe: (bus: EventBus) => void) {
    const store = new DocumentDeadLetters(new MemoryDocumentStore());
    const office = new DeadLetterOffice({ store, clock, report: () => {} });
    const app = await startAppWith(({ actors, bus }) => {
      actors.register(Counter);
      subscribe(bus);
    }, office);
    return { ...app, store };
  }

  it("keeps a dropped event, which also reaches the dead-letter topic", async () => {
    const { actors, store } = await startAppKeepingDeadLetters((bus) =>
      bus.subscribe({ name: "picky", topic: TOPIC, handler: async () => "DROP" }),
    );
    await actors.invoke(Counter, "dropped", "incrementAndAnnounce", 1);
    await settled();
    const [event] = sidecar.http.published(TOPIC).map((e) => e.data as DomainEvent);
    expect(sidecar.http.published(`${TOPIC}.dead-letter`).map((e) => e.data)).toEqual([event]);
    expect((await store.list(TENANT, {})).items.map((l) => [l.subscription, l.reason, l.event])).toEqual([
      ["picky", "dropped", event],
    ]);
  });

  it("keeps what the sidecar dead-letters once its retries run out, for the subscriptions that kept failing", async () => {
    const { actors, store, port } = await startAppKeepingDeadLetters((bus) => {
      bus.subscribe({ name: "steady", topic: TOPIC, handler: async () => "SUCCESS" });
      bus.subscribe({ name: "failing", topic: TOPIC, handler: async () => "RETRY" });
    });
    const subscribed = (await (await fetch(`http://127.0.0.1:${port}/dapr/subscribe`)).json()) as unknown[];
    expect(subscribed).toContainEqual(expect.objectContaining({ topic: `${TOPIC}.dead-letter.app` }));
    await actors.invoke(Counter, "exhausted", "incrementAndAnnounce", 1);
    await settled();
    for (let i = 0; i <= PUBSUB_RETRIES; i++) {
      await clock.advance(1_000);
      await settled();
    }
    const [event] = sidecar.http.published(TOPIC).map((e) => e.data as DomainEvent);
    expect(sidecar.http.published(`${TOPIC}.dead-letter.app`).map((e) => e.data)).toEqual([event]);
    expect((await store.list(TENANT, {})).items.map((l) => [l.subscription, l.reason, l.event])).toEqual([
      ["failing", "retries-exhausted", event],
    ]);
  });
});

describe("Dapr pub/sub retries without a resiliency policy", () => {
  it("dead-letters an event at its first RETRY, as daprd 1.16 does with no inbound policy to run", async () => {
    await sidecar.close();
    sidecar = await startStandinSidecar({ clock, random: () => 1 });
    const store = new DocumentDeadLetters(new MemoryDocumentStore());
    const office = new DeadLetterOffice({ store, clock, report: () => {} });
    let attempts = 0;
    const { actors } = await startAppWith(({ actors, bus }) => {
      actors.register(Counter);
      bus.subscribe({
        name: "failing",
        topic: TOPIC,
        handler: async () => {
          attempts++;
          return "RETRY";
        },
      });
    }, office);
    await actors.invoke(Counter, "unprotected", "incrementAndAnnounce", 1);
    await settled();
    await clock.advance(120_000);
    await settled();
    const [event] = sidecar.http.published(TOPIC).map((e) => e.data as DomainEvent);
    expect(attempts).toBe(1);
    expect(sidecar.http.published(`${TOPIC}.dead-letter.app`).map((e) => e.data)).toEqual([event]);
    expect((await store.list(TENANT, {})).items.map((l) => [l.subscription, l.reason])).toEqual([
      ["failing", "retries-exhausted"],
    ]);
  });
});

describe("Dapr reminders through the stand-in sidecar", () => {
  it("fires a one-shot reminder as a turn when the manual clock reaches it", async () => {
    const { actors } = await startApp();
    await actors.invoke(Counter, "sleeper", "remindLater", { dueInMs: 60_000, note: "wake up" });
    expect(sidecar.http.registeredReminders()).toMatchObject([
      { actorType: "Counter", actorId: "sleeper", name: "tick" },
    ]);

    await clock.advance(59_999);
    await settled();
    expect(await actors.invoke(Counter, "sleeper", "reminded", null)).toEqual([]);

    await clock.advance(1);
    await settled();
    expect(await actors.invoke(Counter, "sleeper", "reminded", null)).toEqual([
      { name: "tick", data: { note: "wake up" } },
    ]);
    expect(sidecar.http.registeredReminders()).toEqual([]);
  });

  it("repeats a periodic reminder until the actor cancels it", async () => {
    const { actors } = await startApp();
    await actors.invoke(Counter, "metronome", "remindLater", {
      dueInMs: 1_000,
      periodMs: 1_000,
      note: "beat",
    });
    await clock.advance(1_000);
    await settled();
    await clock.advance(1_000);
    await settled();
    expect(await actors.invoke(Counter, "metronome", "reminded", null)).toHaveLength(2);

    await actors.invoke(Counter, "metronome", "stopReminding", null);
    await clock.advance(5_000);
    await settled();
    expect(await actors.invoke(Counter, "metronome", "reminded", null)).toHaveLength(2);
    expect(sidecar.http.registeredReminders()).toEqual([]);
  });

  it("retries a failed reminder callback every second, three times at most, as daprd 1.16's scheduler does", async () => {
    const calls = await startFakeActorHost(["Flaky"], () => 500);
    await registerReminder("Flaky", "1", { dueTime: "10s" });
    for (let second = 0; second < 20; second++) {
      await clock.advance(1_000);
      await settled();
    }
    const start = Date.parse("2026-03-01T08:00:00Z");
    expect(calls.map((call) => (call.at - start) / 1000)).toEqual([10, 11, 12, 13]);
    expect(sidecar.http.registeredReminders()).toEqual([]);
  });

  it("keeps a periodic reminder on its fixed schedule after failed callbacks", async () => {
    let failures = 2;
    const calls = await startFakeActorHost(["Flaky"], () => (failures-- > 0 ? 500 : 200));
    await registerReminder("Flaky", "1", { dueTime: "10s", period: "10s" });
    for (let second = 0; second < 30; second++) {
      await clock.advance(1_000);
      await settled();
    }
    const start = Date.parse("2026-03-01T08:00:00Z");
    expect(calls.map((call) => (call.at - start) / 1000)).toEqual([10, 11, 12, 20, 30]);
  });

  it("holds a due reminder until an app hosting its actor type attaches", async () => {
    const elsewhere = await startFakeActorHost(["Other"], () => 200);
    await registerReminder("Sleeper", "1", { dueTime: "1s" });
    await clock.advance(5_000);
    await settled();
    expect(elsewhere).toEqual([]);

    const host = await startFakeActorHost(["Sleeper"], () => 200);
    await settled();
    expect(host.map((call) => call.path)).toEqual(["/actors/Sleeper/1/method/remind/r"]);
  });

  it("fires a reminder into a restarted app, which reads the actor state the old one committed", async () => {
    const before = await startApp();
    await before.actors.invoke(Counter, "survivor", "increment", 7);
    await before.actors.invoke(Counter, "survivor", "remindLater", { dueInMs: 60_000, note: "still here" });
    await before.close();

    const after = await startApp();
    await clock.advance(60_000);
    await settled();
    expect(await after.actors.invoke(Counter, "survivor", "reminded", null)).toEqual([
      { name: "tick", data: { note: "still here" } },
    ]);
    expect(await after.actors.invoke(Counter, "survivor", "count", null)).toBe(7);
  });
});

describe("Dapr state store through the stand-in sidecar", () => {
  it("writes with first-write ETags and applies transactions all or nothing", async () => {
    const store = new DaprStateStore({ sidecar: { httpPort: sidecar.httpPort }, storeName: "statestore" });
    expect(await store.get("case")).toBeUndefined();

    const first = await store.set("case", { status: "OPEN" });
    expect(await store.get("case")).toEqual({ key: "case", value: { status: "OPEN" }, etag: first });
    const second = await store.set("case", { status: "CLOSED" }, { etag: first });
    expect(second).not.toBe(first);
    await expect(store.set("case", { status: "LOST" }, { etag: first })).rejects.toBeInstanceOf(
      EtagMismatchError,
    );
    await expect(store.delete("case", { etag: first })).rejects.toBeInstanceOf(EtagMismatchError);

    const stale = store.transact([
      { operation: "upsert", key: "index", value: 1 },
      { operation: "upsert", key: "case", value: { status: "LOST" }, etag: first },
    ]);
    await expect(stale).rejects.toMatchObject({ name: "EtagMismatchError", key: "case" });
    expect(await store.get("index")).toBeUndefined();

    await store.transact([
      { operation: "upsert", key: "index", value: 1 },
      { operation: "delete", key: "case", etag: second },
    ]);
    const many = await store.getMany(["index", "case", "missing"]);
    expect([...many.keys()]).toEqual(["index"]);
    expect(many.get("index")?.value).toBe(1);
    await store.delete("missing");
  });

  it("answers a stale transaction as daprd 1.16 does: 500 ERR_STATE_TRANSACTION, a stale save 409", async () => {
    const store = new DaprStateStore({ sidecar: { httpPort: sidecar.httpPort }, storeName: "statestore" });
    const first = await store.set("case", { status: "OPEN" });
    await store.set("case", { status: "CLOSED" }, { etag: first });
    const base = `http://127.0.0.1:${sidecar.httpPort}/v1.0/state/statestore`;
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const guarded = { key: "case", value: 1, etag: first, options: { concurrency: "first-write" } };

    const transaction = await post("/transaction", {
      operations: [{ operation: "upsert", request: guarded }],
    });
    expect(transaction.status).toBe(500);
    expect(await transaction.json()).toMatchObject({
      errorCode: "ERR_STATE_TRANSACTION",
      message: expect.stringMatching(/^error while executing state transaction: /),
    });
    const save = await post("", [guarded]);
    expect(save.status).toBe(409);
    expect(await save.json()).toMatchObject({ errorCode: "ERR_STATE_SAVE" });
  });
});

describe("Dapr API tokens", () => {
  it("sends DAPR_API_TOKEN on every call to the sidecar and takes the sidecar's calls carrying APP_API_TOKEN", async () => {
    const guarded = await startStandinSidecar({ clock, apiToken: "dapr-s3cret", appApiToken: "app-s3cret" });
    const runtime = createDaprRuntime({
      dapr: {
        httpPort: guarded.httpPort,
        grpcPort: guarded.httpPort,
        pubsubName: "pubsub",
        stateStoreName: "statestore",
        apiToken: "dapr-s3cret",
        appApiToken: "app-s3cret",
      },
      appId: "app",
      clock,
      documents: new MemoryDocumentStore(),
      counters: new MemoryCounterStore(),
      actorTypes: [Counter],
      workflows: new WorkflowRegistry(),
      subscriptions: [],
    });
    const koa = new Koa();
    koa.use(runtime.sidecarRoutes!);
    const server: Server = koa.listen(0, "127.0.0.1");
    try {
      await new Promise((resolve) => server.once("listening", resolve));
      await guarded.attachApp((server.address() as AddressInfo).port);
      expect(await runtime.actors.invoke(Counter, "guarded", "increment", 2)).toBe(2);
      await runtime.state.set("note", "kept");
      expect((await runtime.state.get("note"))?.value).toBe("kept");
      expect(await probeSidecar({ httpPort: guarded.httpPort, apiToken: "dapr-s3cret" })).toBe(true);
      expect(await probeSidecar({ httpPort: guarded.httpPort })).toBe(false);
      // As daprd refuses (pkg/api/http/middlewares.go): Go's http.Error, the health check exempt.
      const refused = await fetch(`http://127.0.0.1:${guarded.httpPort}/v1.0/state/statestore/note`);
      expect([refused.status, await refused.text()]).toEqual([401, "invalid api token\n"]);
      expect((await fetch(`http://127.0.0.1:${guarded.httpPort}/v1.0/healthz`)).ok).toBe(true);
    } finally {
      await runtime.close();
      await new Promise((resolve) => server.close(resolve));
      await guarded.close();
    }
  });
});

describe("probeSidecar", () => {
  it("answers true for a sidecar and false fast for a closed port or a silent one", async () => {
    expect(await probeSidecar({ httpPort: sidecar.httpPort })).toBe(true);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const started = performance.now();
    expect(await probeSidecar({ httpPort: closedPort })).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_500);

    const connections: Socket[] = [];
    const silent = createServer((socket) => connections.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      expect(await probeSidecar({ httpPort: (silent.address() as AddressInfo).port }, 200)).toBe(false);
    } finally {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
