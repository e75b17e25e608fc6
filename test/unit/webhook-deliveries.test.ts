import { createHmac } from "node:crypto";
import { pino } from "pino";
import { WebhookDeliveryActor, webhookDeliveryActorId } from "../../actors/WebhookDeliveryActor.js";
import { afterEach, describe, expect, it } from "vitest";
import type { PartnerPrincipal } from "../../src/app/principals.js";
import type { WebhookTransport } from "../../src/app/webhooks/webhook-transport.js";
import { loadConfig } from "../../src/config.js";
import { createDemoDirectory } from "../../src/demo/demo-directory.js";
import { WEBHOOK_ATTEMPT_OFFSETS_MS } from "../../src/domain/webhooks/retry-schedule.js";
import { demoPartnerRegistrations } from "../../src/demo/demo-partners.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { createEmbeddedRuntime } from "../../src/runtime/embedded/runtime.js";
import { publishEvent } from "../../src/runtime/event-bus.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import type { Runtime } from "../../src/runtime/runtime.js";
import { WorkflowRegistry } from "../../src/runtime/workflow-engine.js";
import type { ModuleContext } from "../../services/module.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { recordEvents } from "../support/event-recorder.js";
import { webhooksModule } from "../../services/webhooks/module.js";
import { webhookUseCases } from "../../services/webhooks/webhook-use-cases.js";
import { moduleContainer } from "../support/container.js";

const ZX = "urn:airline:ZX";
const VQ = "urn:airline:VQ";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const runtimes: Runtime[] = [];

afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
});

interface Post {
  url: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** A transport to nowhere: every POST is kept and answered with `status` (or a connection error). */
function fakeTransport(clock: ManualClock) {
  const posts: Post[] = [];
  const state: { status: number | "connection-refused" } = { status: 200 };
  const transport: WebhookTransport = {
    async post(url, headers, body) {
      posts.push({ url, headers, body, at: clock.now() });
      if (state.status === "connection-refused") throw new Error("connect ECONNREFUSED");
      return { status: state.status };
    },
    async resolve(host) {
      return host === "hooks.partner.example"
        ? ["203.0.113.10"]
        : host === "internal.example"
          ? ["10.0.0.7"]
          : [];
    },
  };
  return { transport, posts, state };
}

function partner(clientId: string, now: number): PartnerPrincipal {
  const registration = demoPartnerRegistrations(now).find((r) => r.clientId === clientId)!;
  return {
    surface: "partner",
    actorUrn: registration.partnerUrn,
    clientId,
    tenant: registration.airlineUrn,
    scopes: new Set(registration.scopes),
    tier: registration.tier,
    expiresAt: Number.MAX_SAFE_INTEGER,
  };
}

/** The webhooks module over the embedded runtime, a manual clock and the fake transport. */
async function platform() {
  const clock = new ManualClock(Date.parse("2026-11-27T08:00:00Z"));
  const documents = new MemoryDocumentStore();
  const fake = fakeTransport(clock);
  let context: ModuleContext | undefined;
  const runtime = createEmbeddedRuntime({
    clock,
    state: new MemoryStateStore(),
    documents,
    counters: new MemoryCounterStore(clock),
    shutdownTimeoutMs: 1_000,
    actorTypes: webhooksModule.actorTypes ?? [],
    workflows: new WorkflowRegistry(),
    subscriptions: webhooksModule.subscriptions?.(() => context!, [ZX, VQ]).workers ?? [],
  });
  runtimes.push(runtime);
  const directory = createDemoDirectory(clock);
  const container = moduleContainer({
    actors: runtime.actors,
    bus: runtime.bus,
    documents,
    clock,
    directory,
    logger: pino({ level: "silent" }),
    webhookTransport: fake.transport,
    webhookSettings: { allowLoopbackHttp: false },
  });
  context = {
    container,
    config: loadConfig({}),
    runtime,
    logger: pino({ level: "silent" }),
    audit: undefined as never,
    directory,
    passengers: undefined as never,
  };
  await runtime.start();
  await webhooksModule.start?.(context);
  const webhooks = webhookUseCases(container);
  let sequence = 0;
  /** Publishes a partner event of `tenant` as an actor's outbox would, and lets its deliveries run. */
  const raise = async (tenant: string, type: "case.opened" | "voucher.issued" = "case.opened") => {
    const id = `urn:event:test-${++sequence}`;
    const envelope = {
      id,
      tenant,
      occurredAt: new Date(clock.now()).toISOString(),
      correlationUrn: `urn:trace:${sequence}`,
      caseUrn: "urn:case:c1",
    };
    if (type === "voucher.issued") {
      await publishEvent(runtime.bus, {
        ...envelope,
        type,
        data: {
          voucherUrn: "urn:voucher:v1",
          reservationUrn: "urn:reservation:r1",
          groupId: "G1",
          passengerUrns: [],
        },
      });
    } else {
      await publishEvent(runtime.bus, {
        ...envelope,
        type,
        data: {
          caseUrn: "urn:case:c1",
          status: "OPEN",
          version: 1,
          externalEventId: `ext-${sequence}`,
          flight: {
            number: "ZX1",
            origin: "JFK",
            destination: "LHR",
            scheduledDeparture: "2026-11-27T20:00:00Z",
          },
          nextFlight: null,
          groupCount: 1,
          passengerCount: 1,
          passengerGroups: [
            { id: "G1", pnr: "G1", passengers: [{ id: "p1", lastName: "Secret", tier: "ECONOMY" }] },
          ],
          source: "partner",
        },
      });
    }
    await webhooks.dispatcher.idle();
    return id;
  };
  /** Moves the clock and lets the reminders' attempts run. */
  const advance = async (ms: number) => {
    await clock.advance(ms);
    await webhooks.dispatcher.idle();
    await clock.advance(0);
  };
  return { clock, webhooks, raise, advance, runtime, ...fake };
}

describe("webhook deliveries", () => {
  it("retry at +1 min, +5 min, +30 min, +2 h, +6 h and +24 h, then pause the subscription", async () => {
    const p = await platform();
    const paused = recordEvents(p.runtime.bus, {
      name: "test.paused",
      topic: topicFor({ tenant: ZX }),
      types: ["webhook.subscription-paused"],
    });
    const skyhub = partner("skyhub-zx", p.clock.now());
    await p.webhooks.subscriptions.register(skyhub, { url: "https://hooks.partner.example/in" });
    p.state.status = 503;
    const start = p.clock.now();
    const eventUrn = await p.raise(ZX);
    expect(p.posts.map((post) => post.at - start)).toEqual([0]);
    for (const _ of WEBHOOK_ATTEMPT_OFFSETS_MS.slice(1)) await p.advance(HOUR * 24);
    const attempts = p.posts.filter((post) => post.headers["X-Svc-Event-Urn"] === eventUrn);
    expect(attempts.map((post) => post.at - start)).toEqual([
      0,
      MINUTE,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      6 * HOUR,
      24 * HOUR,
    ]);
    // The event URN, and so the receiver's dedupe key, stays the same across retries.
    expect(new Set(attempts.map((post) => post.headers["X-Svc-Event-Urn"]))).toEqual(new Set([eventUrn]));
    const read = await p.webhooks.subscriptions.read(skyhub);
    expect(read).toMatchObject({ status: "PAUSED", deliveries: 0, failures: 7 });
    // The partner contact is told through alerting (spec 6.1), once.
    expect(paused.map((e) => e.data)).toEqual([
      {
        clientId: "skyhub-zx",
        partnerUrn: "urn:partner:skyhub",
        url: "https://hooks.partner.example/in",
        eventUrn,
      },
    ]);
    await p.advance(HOUR * 48);
    expect(p.posts).toHaveLength(7);
    expect(paused).toHaveLength(1);
  });

  it("stops retrying once an attempt succeeds", async () => {
    const p = await platform();
    const skyhub = partner("skyhub-zx", p.clock.now());
    await p.webhooks.subscriptions.register(skyhub, { url: "https://hooks.partner.example/in" });
    p.state.status = "connection-refused";
    const eventUrn = await p.raise(ZX);
    const actorId = webhookDeliveryActorId("skyhub-zx", eventUrn);
    expect(await p.runtime.actors.invoke(WebhookDeliveryActor, actorId, "get")).toMatchObject({
      status: "RETRYING",
      attempts: 1,
    });
    p.state.status = 204;
    await p.advance(MINUTE);
    await p.advance(HOUR * 30);
    expect(p.posts).toHaveLength(2);
    // The ended round is forgotten: nothing of it stays in the state store.
    expect(await p.runtime.actors.invoke(WebhookDeliveryActor, actorId, "get")).toBeUndefined();
    expect(await p.webhooks.subscriptions.read(skyhub)).toMatchObject({
      status: "ACTIVE",
      deliveries: 1,
      failures: 1,
    });
  });

  it("holds what comes during a pause and delivers it after a successful test re-enables the subscription", async () => {
    const p = await platform();
    const skyhub = partner("skyhub-zx", p.clock.now());
    await p.webhooks.subscriptions.register(skyhub, { url: "https://hooks.partner.example/in" });
    p.state.status = 500;
    const failed = await p.raise(ZX);
    await p.advance(HOUR * 25);
    expect((await p.webhooks.subscriptions.read(skyhub)).status).toBe("PAUSED");
    const duringPause = await p.raise(ZX);
    expect(p.posts.some((post) => post.headers["X-Svc-Event-Urn"] === duringPause)).toBe(false);

    const stillDown = await p.webhooks.subscriptions.test(skyhub, "urn:trace:test-1");
    expect(stillDown).toMatchObject({ delivered: false, subscriptionStatus: "PAUSED", released: 0 });

    p.state.status = 200;
    const before = p.posts.length;
    const test = await p.webhooks.subscriptions.test(skyhub, "urn:trace:test-2");
    expect(test).toMatchObject({ delivered: true, subscriptionStatus: "ACTIVE", released: 2 });
    await p.webhooks.dispatcher.idle();
    const after = p.posts
      .slice(before)
      .map((post) => post.headers["X-Svc-Event-Type"] + " " + post.headers["X-Svc-Event-Urn"]);
    expect(after).toEqual([
      `webhook.test ${test.eventUrn}`,
      `case.opened ${failed}`,
      `case.opened ${duringPause}`,
    ]);
  });

  it("delivers to the event's tenant's registrations only, within their scopes", async () => {
    const p = await platform();
    const now = p.clock.now();
    await p.webhooks.subscriptions.register(partner("skyhub-zx", now), {
      url: "https://hooks.partner.example/skyhub",
    });
    await p.webhooks.subscriptions.register(partner("regulator-zx", now), {
      url: "https://hooks.partner.example/regulator",
    });
    await p.webhooks.subscriptions.register(partner("tripdesk-vq", now), {
      url: "https://hooks.partner.example/tripdesk",
    });
    await p.raise(ZX, "case.opened");
    await p.raise(ZX, "voucher.issued");
    await p.raise(VQ, "voucher.issued");
    const seen = p.posts.map(
      (post) =>
        `${new URL(post.url).pathname} ${post.headers["X-Svc-Tenant"]} ${post.headers["X-Svc-Event-Type"]}`,
    );
    expect(seen.sort()).toEqual([
      `/regulator ${ZX} case.opened`,
      `/skyhub ${ZX} case.opened`,
      `/skyhub ${ZX} voucher.issued`,
      `/tripdesk ${VQ} voucher.issued`,
    ]);
    // The manifest's passengers are not in case.opened's data.
    expect(p.posts.every((post) => !post.body.includes("Secret"))).toBe(true);
  });

  it("refuses a host that resolves to a private address, at registration and at every send", async () => {
    const p = await platform();
    const skyhub = partner("skyhub-zx", p.clock.now());
    await expect(
      p.webhooks.subscriptions.register(skyhub, { url: "https://internal.example/in" }),
    ).rejects.toMatchObject({ code: "webhook-url-refused" });
    await expect(
      p.webhooks.subscriptions.register(skyhub, { url: "http://127.0.0.1:9000/in" }),
    ).rejects.toMatchObject({ code: "webhook-url-not-https" });
    await expect(
      p.webhooks.subscriptions.register(skyhub, { url: "https://localhost/in" }),
    ).rejects.toMatchObject({ code: "webhook-url-refused" });
    await expect(
      p.webhooks.subscriptions.register(skyhub, { url: "https://unresolvable.example/in" }),
    ).rejects.toMatchObject({ code: "webhook-url-unresolved" });
  });

  it("signs with the new and the old secret for 14 days after a rotation, then with the new one only", async () => {
    const p = await platform();
    const skyhub = partner("skyhub-zx", p.clock.now());
    const { secret: first } = await p.webhooks.subscriptions.register(skyhub, {
      url: "https://hooks.partner.example/in",
    });
    const { secret: second } = await p.webhooks.subscriptions.rotateSecret(skyhub);
    const sign = (secret: string, post: Post) =>
      `sha256=${createHmac("sha256", secret).update(`${post.headers["X-Svc-Signature-Timestamp"]}.${post.body}`).digest("base64")}`;
    await p.raise(ZX);
    const during = p.posts.at(-1)!;
    expect(during.headers["X-Svc-Signature"]).toBe(`${sign(second, during)},${sign(first!, during)}`);
    await p.advance(14 * 24 * HOUR);
    await p.raise(ZX);
    const after = p.posts.at(-1)!;
    expect(after.headers["X-Svc-Signature"]).toBe(sign(second, after));
    expect((await p.webhooks.subscriptions.read(skyhub)).previousSecretAcceptedUntil).toBeNull();
  });

  it("replays the events of the last 7 days only", async () => {
    const p = await platform();
    const skyhub = partner("skyhub-zx", p.clock.now());
    await p.webhooks.subscriptions.register(skyhub, { url: "https://hooks.partner.example/in" });
    const old = await p.raise(ZX);
    await p.advance(6 * 24 * HOUR);
    const recent = await p.raise(ZX);
    expect(await p.webhooks.subscriptions.replay(skyhub, old, recent)).toEqual([old, recent]);
    await p.webhooks.dispatcher.idle();
    await p.advance(2 * 24 * HOUR);
    await expect(p.webhooks.subscriptions.replay(skyhub, old, recent)).rejects.toMatchObject({
      code: "event-not-found",
    });
    expect(await p.webhooks.subscriptions.replay(skyhub, recent, recent)).toEqual([recent]);
    await p.webhooks.dispatcher.idle();
    expect(p.posts.filter((post) => post.headers["X-Svc-Event-Urn"] === recent)).toHaveLength(3);
  });
});
