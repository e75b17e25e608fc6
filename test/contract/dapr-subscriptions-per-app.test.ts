import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type ModuleContext, subscriptionsHandledBy, workflowsRunBy } from "../../services/module.js";
import { ALL_SERVICES, type ServiceName } from "../../src/config.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { eventTopic } from "../../src/domain/events/catalogue.js";
import { MODULES } from "../../src/main.js";
import { DaprEventBus } from "../../src/runtime/dapr/event-bus.js";
import { systemClock } from "../../src/runtime/clock.js";
import { DeadLetterOffice, DocumentDeadLetters } from "../../src/runtime/dead-letters.js";
import type { DeliveryResult } from "../../src/runtime/event-bus.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { sidecarRouter } from "../../src/runtime/dapr/sidecar-routes.js";
import { deferred } from "../support/deferred.js";
import { StandinBroker, type StandinSidecar, startStandinSidecar } from "../support/standin-sidecar/index.js";

const TENANTS = ["urn:airline:LH", "urn:airline:ZX"];

/** The two pub/sub components on the one Redis, with their `consumerID` as components/ sets it. */
const PUBSUB = "pubsub";
const REPLICA_PUBSUB = "pubsub-replicas";
const componentFile = (name: string) =>
  parse(readFileSync(path.resolve(import.meta.dirname, "../../components", name), "utf8"));
const consumerIdOf = (file: string) =>
  componentFile(file).spec.metadata.find((m: { name: string }) => m.name === "consumerID").value as string;
const SHARED_CONSUMER_ID = consumerIdOf("pubsub-redis.yaml");
const REPLICA_CONSUMER_ID = consumerIdOf("pubsub-replicas.yaml");
const noContext = (): ModuleContext => {
  throw new Error("the test's handlers count deliveries and read no context");
};

function handledBy(services: readonly ServiceName[] | "all"): string[] {
  return subscriptionsHandledBy(MODULES, services, noContext, TENANTS).map((s) => s.name);
}

describe("subscriptions per app", () => {
  it("splits every subscription to exactly one service's app; identity and vendor-sim subscribe to nothing", () => {
    const byService = ALL_SERVICES.map((service) => handledBy([service]));
    const names = byService.flat();
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(handledBy("all").sort());
    expect(handledBy(["identity"])).toEqual([]);
    expect(handledBy(["vendor-sim"])).toEqual([]);
    expect(handledBy(["operator-api"]).every((name) => name.startsWith("realtime.fan-out."))).toBe(true);
    expect(handledBy(["workers"])).toContain(`cases.projection.${TENANTS[0]}`);
  });
});

describe("workflows per app", () => {
  it("registers the workflows only in the workers app, the one whose subscriptions schedule them", () => {
    const workflowsOf = (services: readonly ServiceName[] | "all") =>
      [...workflowsRunBy(MODULES, services, noContext).workflows.keys()].sort();
    expect(workflowsOf(["workers"]).length).toBeGreaterThan(0);
    expect(workflowsOf(["workers"])).toEqual(workflowsOf("all"));
    for (const service of ALL_SERVICES.filter((s) => s !== "workers")) {
      expect(workflowsOf([service]), service).toEqual([]);
    }
  });
});

describe("subscriptions per app through stand-in sidecars sharing one broker", () => {
  const closing: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  /**
   * One Dapr app: its own stand-in sidecar on the shared broker, and a bus with the subscriptions
   * `subscribe` makes (and a dead-letter office when given).
   */
  async function startApp(
    appId: ServiceName,
    broker: StandinBroker,
    subscribe: (bus: DaprEventBus) => void,
    deadLetters?: DeadLetterOffice,
  ) {
    const sidecar: StandinSidecar = await startStandinSidecar({
      appId,
      broker,
      consumerIDs: { [PUBSUB]: SHARED_CONSUMER_ID, [REPLICA_PUBSUB]: REPLICA_CONSUMER_ID },
    });
    const bus = new DaprEventBus({
      sidecar: { httpPort: sidecar.httpPort },
      pubsubName: PUBSUB,
      replicaPubsubName: REPLICA_PUBSUB,
      appId,
      ...(deadLetters ? { deadLetters } : {}),
    });
    subscribe(bus);
    const koa = new Koa();
    koa.use(sidecarRouter({ bus }).routes());
    const server: Server = koa.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    await sidecar.attachApp((server.address() as AddressInfo).port);
    closing.push(async () => {
      await bus.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sidecar.close();
    });
    return { bus, sidecar };
  }

  /** The app subscribed as its service (`appId`) does, counting what each subscription handles. */
  function startServiceApp(appId: ServiceName, broker: StandinBroker, handled: string[]) {
    return startApp(appId, broker, (bus) => {
      for (const subscription of subscriptionsHandledBy(MODULES, [appId], noContext, TENANTS)) {
        bus.subscribe({
          name: subscription.name,
          topic: subscription.topic,
          types: subscription.types,
          replicas: subscription.replicas,
          handler: async () => {
            handled.push(`${appId}:${subscription.name}`);
            return "SUCCESS";
          },
        });
      }
    });
  }

  it("handles each event once per subscription across the operator-api and workers apps", async () => {
    const broker = new StandinBroker();
    const handled: string[] = [];
    const operator = await startServiceApp("operator-api", broker, handled);
    const workers = await startServiceApp("workers", broker, handled);
    const tenant = TENANTS[0]!;
    const event: DomainEvent = {
      id: "urn:event:opened-once",
      type: "case.opened",
      tenant,
      occurredAt: "2026-03-01T08:00:00.000Z",
      correlationUrn: "urn:case:1",
      data: {},
    };
    await operator.bus.publish(eventTopic("case.opened", tenant), event);
    await operator.sidecar.idle();
    await workers.sidecar.idle();

    const taking = subscriptionsHandledBy(MODULES, ["operator-api", "workers"], noContext, [tenant]).filter(
      (s) => s.types.includes("case.opened"),
    );
    expect(handled.map((h) => h.slice(h.indexOf(":") + 1)).sort()).toEqual(taking.map((s) => s.name).sort());
    expect(handled).toContain(`operator-api:realtime.fan-out.${eventTopic("case.opened", tenant)}`);
    expect(handled).toContain(`workers:cases.projection.${tenant}`);
  });

  it("gives every operator-api replica each event for its fan-out, while the workers' replicas share theirs", async () => {
    expect(componentFile("pubsub-replicas.yaml").metadata.name).toBe(REPLICA_PUBSUB);
    const broker = new StandinBroker();
    /** One replica of the app: its own sidecar, and what this replica handled. */
    const replica = async (appId: ServiceName) => {
      const handled: string[] = [];
      return { ...(await startServiceApp(appId, broker, handled)), handled };
    };
    const operators = [await replica("operator-api"), await replica("operator-api")];
    const workers = [await replica("workers"), await replica("workers")];
    const tenant = TENANTS[0]!;
    const topic = eventTopic("case.opened", tenant);
    const events: DomainEvent[] = [1, 2].map((n) => ({
      id: `urn:event:opened-${n}`,
      type: "case.opened",
      tenant,
      occurredAt: "2026-03-01T08:00:00.000Z",
      correlationUrn: `urn:case:${n}`,
      data: {},
    }));
    for (const event of events) await operators[0]!.bus.publish(topic, event);
    for (const app of [...operators, ...workers]) await app.sidecar.idle();

    const fanOut = `operator-api:realtime.fan-out.${topic}`;
    for (const operator of operators) expect(operator.handled).toEqual([fanOut, fanOut]);
    const projection = `workers:cases.projection.${tenant}`;
    const projections = workers.map((w) => w.handled.filter((h) => h === projection).length);
    expect(projections.reduce((a, b) => a + b)).toBe(events.length);
    expect(projections).toEqual([1, 1]);
  });

  it("keeps only its own sidecar's give-ups as dead letters, not another app id's", async () => {
    const broker = new StandinBroker();
    const topic = "orders";
    const offices = new Map<string, DocumentDeadLetters>();
    const operatorHeld = deferred();
    const start = (appId: ServiceName, handler: () => Promise<DeliveryResult>) => {
      const store = new DocumentDeadLetters(new MemoryDocumentStore());
      offices.set(appId, store);
      const office = new DeadLetterOffice({ store, clock: systemClock, report: () => {} });
      return startApp(
        appId,
        broker,
        (bus) => bus.subscribe({ name: `${appId}.orders`, topic, handler }),
        office,
      );
    };
    // The operator app is still handling the event when the workers' sidecar gives it up.
    const operator = await start("operator-api", async () => {
      await operatorHeld.promise;
      return "SUCCESS";
    });
    const workers = await start("workers", async () => "RETRY");
    const event: DomainEvent = {
      id: "urn:event:given-up-by-workers",
      type: "case.opened",
      tenant: TENANTS[0]!,
      occurredAt: "2026-03-01T08:00:00.000Z",
      correlationUrn: "urn:case:1",
      data: {},
    };
    await workers.bus.publish(topic, event);
    await workers.sidecar.idle();
    operatorHeld.resolve();
    await operator.sidecar.idle();

    const topics = async (sidecar: StandinSidecar) =>
      (
        (await (await fetch(`http://127.0.0.1:${sidecar.httpPort}/v1.0/metadata`)).json()) as {
          subscriptions: Array<{ topic: string; deadLetterTopic: string }>;
        }
      ).subscriptions.map((s) => s.deadLetterTopic);
    expect(await topics(workers.sidecar)).toContain("orders.dead-letter.workers");
    expect(await topics(operator.sidecar)).not.toContain("orders.dead-letter.workers");
    const letters = async (appId: string) =>
      (await offices.get(appId)!.list(TENANTS[0]!, {})).items.map((l) => [l.subscription, l.reason]);
    expect(await letters("workers")).toEqual([["workers.orders", "retries-exhausted"]]);
    expect(await letters("operator-api")).toEqual([]);
  });
});
