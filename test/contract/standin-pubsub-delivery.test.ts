import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/runtime/clock.js";
import {
  type ResiliencyDocument,
  StandinBroker,
  inboundPubsubRetry,
  resiliencyFrom,
  type StandinSidecar,
  startStandinSidecar,
} from "../support/standin-sidecar/index.js";

/**
 * The stand-in's pub/sub against daprd 1.16's delivery rules, with a bare app that answers each
 * delivery as the test says: what the Dapr adapters are tested against must be as strict as daprd.
 */

const TOPIC = "orders";
const DEAD_LETTERS = "orders.dead-letter";

/** One answer of the app to a delivery: an HTTP status and a raw body. */
interface Answer {
  status: number;
  body?: string;
}

interface BareApp {
  /** The ids of the events delivered to the app, in order. */
  deliveries: string[];
  close(): Promise<void>;
}

let clock: ManualClock;
const sidecars: StandinSidecar[] = [];
const apps: BareApp[] = [];

beforeEach(() => {
  clock = new ManualClock("2026-03-01T08:00:00Z");
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const sidecar of sidecars.splice(0)) await sidecar.close();
});

/** An app subscribed to TOPIC (dead letters to DEAD_LETTERS), answering from `answers`, then 200. */
async function startBareApp(sidecar: StandinSidecar, answers: Answer[] = []): Promise<BareApp> {
  const deliveries: string[] = [];
  const koa = new Koa();
  koa.use(async (ctx) => {
    if (ctx.method === "GET" && ctx.path === "/dapr/config") {
      ctx.body = { entities: [] };
    } else if (ctx.method === "GET" && ctx.path === "/dapr/subscribe") {
      ctx.body = [{ pubsubname: "pubsub", topic: TOPIC, route: "/deliver", deadLetterTopic: DEAD_LETTERS }];
    } else if (ctx.method === "POST" && ctx.path === "/deliver") {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
      deliveries.push((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string }).id);
      const answer = answers.shift() ?? { status: 200 };
      ctx.body = answer.body ?? "";
      // Set after the body: Koa would turn an empty body into a 204 of its own.
      ctx.status = answer.status;
    }
  });
  const server: Server = koa.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  await sidecar.attachApp((server.address() as AddressInfo).port);
  const app: BareApp = {
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  apps.push(app);
  return app;
}

async function start(options: { resiliency?: ResiliencyDocument[]; appId?: string; broker?: StandinBroker }) {
  const sidecar = await startStandinSidecar({ clock, random: () => 0.5, ...options });
  sidecars.push(sidecar);
  return sidecar;
}

async function publish(sidecar: StandinSidecar, id: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${sidecar.httpPort}/v1.0/publish/pubsub/${TOPIC}`, {
    method: "POST",
    headers: { "content-type": "application/cloudevents+json" },
    body: JSON.stringify({
      specversion: "1.0",
      id,
      source: "test",
      type: "order.placed",
      datacontenttype: "application/json",
      data: {},
    }),
  });
  expect(response.status).toBe(204);
}

/** Lets the manual clock run `ms` forward, with every delivery it triggers settled. */
async function run(sidecar: StandinSidecar, ms: number): Promise<void> {
  await sidecar.idle();
  for (let step = 0; step < ms; step += 50) {
    await clock.advance(50);
    await sidecar.idle();
  }
}

function deadLettered(sidecar: StandinSidecar): string[] {
  return sidecar.http.published(DEAD_LETTERS).map((e) => e.id);
}

/** The inbound policy of a resiliency file for the `pubsub` component: retries 100 ms apart. */
function inboundRetries(maxRetries: number, appScopes?: string[]): ResiliencyDocument[] {
  return [
    {
      kind: "Resiliency",
      ...(appScopes ? { scopes: appScopes } : {}),
      spec: {
        policies: { retries: { pubsubRetry: { policy: "constant", duration: "100ms", maxRetries } } },
        targets: { components: { pubsub: { inbound: { retry: "pubsubRetry" } } } },
      },
    },
  ];
}

describe("stand-in pub/sub delivery, as daprd 1.16", () => {
  it("without a resiliency policy, dead-letters at the first RETRY and acknowledges it", async () => {
    const sidecar = await start({});
    const app = await startBareApp(sidecar, [{ status: 200, body: '{"status":"RETRY"}' }]);
    await publish(sidecar, "e1");
    await run(sidecar, 120_000);
    expect(app.deliveries).toEqual(["e1"]);
    expect(deadLettered(sidecar)).toEqual(["e1"]);
  });

  it("retries as the inbound policy says, then dead-letters and acknowledges", async () => {
    const sidecar = await start({ resiliency: inboundRetries(3) });
    const app = await startBareApp(sidecar, [
      { status: 200, body: '{"status":"RETRY"}' },
      { status: 500 },
      { status: 503, body: "busy" },
      { status: 200, body: '{"status":"RETRY"}' },
    ]);
    await publish(sidecar, "e1");
    await sidecar.idle();
    expect(app.deliveries).toEqual(["e1"]);
    await run(sidecar, 300);
    expect(app.deliveries).toEqual(["e1", "e1", "e1", "e1"]);
    expect(deadLettered(sidecar)).toEqual(["e1"]);
    await run(sidecar, 120_000);
    expect(app.deliveries).toHaveLength(4);
  });

  it("stops retrying once the app answers SUCCESS", async () => {
    const sidecar = await start({ resiliency: inboundRetries(3) });
    const app = await startBareApp(sidecar, [{ status: 200, body: '{"status":"RETRY"}' }]);
    await publish(sidecar, "e1");
    await run(sidecar, 1_000);
    expect(app.deliveries).toEqual(["e1", "e1"]);
    expect(deadLettered(sidecar)).toEqual([]);
  });

  it("uses the policy only for the app ids in the resiliency document's scopes", async () => {
    const sidecar = await start({ resiliency: inboundRetries(3, ["someone-else"]), appId: "workers" });
    const app = await startBareApp(sidecar, [{ status: 200, body: '{"status":"RETRY"}' }]);
    await publish(sidecar, "e1");
    await run(sidecar, 1_000);
    expect(app.deliveries).toEqual(["e1"]);
    expect(deadLettered(sidecar)).toEqual(["e1"]);
  });

  it("reads statuses case-sensitively: a lower-case or unknown status is a failure, not a success", async () => {
    const sidecar = await start({ resiliency: inboundRetries(3) });
    const app = await startBareApp(sidecar, [
      { status: 200, body: '{"status":"success"}' },
      { status: 200, body: '{"status":"OK"}' },
      { status: 200, body: '{"status":"drop"}' },
      { status: 200, body: '{"status":"SUCCESS"}' },
    ]);
    await publish(sidecar, "e1");
    await run(sidecar, 1_000);
    expect(app.deliveries).toEqual(["e1", "e1", "e1", "e1"]);
    expect(deadLettered(sidecar)).toEqual([]);
  });

  it("counts a 2xx with an empty body, a body that is not JSON, or no status as delivered", async () => {
    const sidecar = await start({ resiliency: inboundRetries(3) });
    const app = await startBareApp(sidecar, [
      { status: 204 },
      { status: 200, body: "fine" },
      { status: 202, body: "{}" },
    ]);
    await publish(sidecar, "e1");
    await publish(sidecar, "e2");
    await publish(sidecar, "e3");
    await run(sidecar, 1_000);
    expect(app.deliveries).toEqual(["e1", "e2", "e3"]);
    expect(deadLettered(sidecar)).toEqual([]);
  });

  it("dead-letters DROP at once, never retried, and acknowledges a 404 with no dead letter", async () => {
    const sidecar = await start({ resiliency: inboundRetries(3) });
    const app = await startBareApp(sidecar, [{ status: 200, body: '{"status":"DROP"}' }, { status: 404 }]);
    await publish(sidecar, "e1");
    await publish(sidecar, "e2");
    await run(sidecar, 1_000);
    expect(app.deliveries).toEqual(["e1", "e2"]);
    expect(deadLettered(sidecar)).toEqual(["e1"]);
  });

  it("delivers an event once to each app id's consumer group, once across the replicas of one app id", async () => {
    const broker = new StandinBroker();
    const workers = [await start({ broker, appId: "workers" }), await start({ broker, appId: "workers" })];
    const operator = await start({ broker, appId: "operator-api" });
    const workerApps = [await startBareApp(workers[0]!), await startBareApp(workers[1]!)];
    const operatorApp = await startBareApp(operator);
    await publish(operator, "e1");
    await publish(workers[0]!, "e2");
    for (const sidecar of [...workers, operator]) await sidecar.idle();
    expect(operatorApp.deliveries.sort()).toEqual(["e1", "e2"]);
    expect(workerApps.flatMap((app) => app.deliveries).sort()).toEqual(["e1", "e2"]);
    expect(workerApps.map((app) => app.deliveries.length)).toEqual([1, 1]);
  });

  it("takes the inbound pub/sub policy of components/resiliency.yaml for every app id in the component's scope", () => {
    const documents = resiliencyFrom("components/resiliency.yaml");
    for (const appId of ["operator-api", "partner-api", "passenger-api", "workers"]) {
      expect(inboundPubsubRetry(documents, appId, "pubsub")).toMatchObject({ policy: "exponential" });
    }
    expect(inboundPubsubRetry(documents, "identity", "pubsub")).toBeUndefined();
  });
});
