import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import Router from "@koa/router";
import Koa, { type Context } from "koa";
import { type Clock, type TimerHandle, systemClock } from "../../../src/runtime/clock.js";
import { type RetryPolicy, defaultRetryPolicy, retryDelay } from "../../../src/runtime/event-bus.js";
import { MemoryStateStore } from "../../../src/runtime/memory/state-store.js";
import { EtagMismatchError, type StateOperation, type StateStore } from "../../../src/runtime/state-store.js";

export interface StandinHttpSidecarOptions {
  /** Drives reminders and redelivery backoff; tests pass a ManualClock. */
  clock?: Clock;
  /** Holds actor state and the state API's keys; it outlives any app attached to the stand-in. */
  store?: StateStore;
  /** Redelivery of RETRY answers and retries of failed reminder callbacks. */
  retry?: RetryPolicy;
  random?: () => number;
  appId?: string;
}

/** A CloudEvent as the sidecar delivers it. */
export interface CloudEvent {
  specversion: string;
  id: string;
  source: string;
  type: string;
  datacontenttype: string;
  data?: unknown;
  topic: string;
  pubsubname: string;
  time: string;
}

export interface SubscriptionEntry {
  pubsubname: string;
  topic: string;
  route: string;
  deadLetterTopic?: string;
}

export interface RegisteredReminder {
  actorType: string;
  actorId: string;
  name: string;
  dueAt: number;
  periodMs: number | undefined;
  data: unknown;
}

interface Reminder extends RegisteredReminder {
  timer: TimerHandle | undefined;
  failures: number;
}

type Verdict = "SUCCESS" | "RETRY" | "DROP";

const SEP = "||";

/** Dapr durations: Go style (`1.5s`, `1h2m`, `250ms`) or ISO 8601 (`PT1.5S`). */
export function parseDuration(text: string): number {
  const iso = /^P(?:(\d+)D)?(?:T(?:([\d.]+)H)?(?:([\d.]+)M)?(?:([\d.]+)S)?)?$/i.exec(text);
  if (iso) {
    const [, d = "0", h = "0", m = "0", s = "0"] = iso;
    return Math.round(((Number(d) * 24 + Number(h)) * 60 + Number(m)) * 60_000 + Number(s) * 1000);
  }
  const units: Record<string, number> = {
    h: 3_600_000,
    m: 60_000,
    s: 1000,
    ms: 1,
    us: 1e-3,
    µs: 1e-3,
    ns: 1e-6,
  };
  let total = 0;
  let rest = text;
  while (rest.length > 0) {
    const part = /^([\d.]+)(ms|us|µs|ns|h|m|s)/.exec(rest);
    if (!part) throw new Error(`Not a duration: ${text}`);
    total += Number(part[1]) * (units[part[2] as string] as number);
    rest = rest.slice(part[0].length);
  }
  return Math.round(total);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(buffer: Buffer): unknown {
  const text = buffer.toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function daprError(ctx: Context, status: number, errorCode: string, message: string): void {
  ctx.status = status;
  ctx.body = { errorCode, message };
}

/**
 * Placement's turn-based locking: one call at a time per actor id, in arrival order, across method
 * calls and reminder callbacks alike.
 */
class ActorLocks {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/**
 * A test-only stand-in for `daprd`'s HTTP API, since no sidecar binary can be installed here. It
 * speaks to the app the way daprd does: it reads `/dapr/config` and `/dapr/subscribe`, forwards
 * actor calls one at a time per actor, fires reminders on the injected clock, and delivers
 * publications as CloudEvents with redelivery on RETRY and a dead letter on DROP.
 */
export class StandinHttpSidecar {
  readonly clock: Clock;
  readonly store: StateStore;
  private readonly retry: RetryPolicy;
  private readonly random: () => number;
  private readonly appId: string;
  private readonly locks = new ActorLocks();
  private readonly reminders = new Map<string, Reminder>();
  private readonly timers = new Set<TimerHandle>();
  private readonly work = new Set<Promise<unknown>>();
  private readonly log: CloudEvent[] = [];
  private server: Server | undefined;
  private appPort: number | undefined;
  private actorTypes: string[] = [];
  private subscriptions: SubscriptionEntry[] = [];
  private publishFailures = 0;
  private closed = false;

  private constructor(options: StandinHttpSidecarOptions) {
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? new MemoryStateStore();
    this.retry = options.retry ?? defaultRetryPolicy;
    this.random = options.random ?? Math.random;
    this.appId = options.appId ?? "app";
  }

  static async start(options: StandinHttpSidecarOptions = {}, port = 0): Promise<StandinHttpSidecar> {
    const sidecar = new StandinHttpSidecar(options);
    const app = new Koa();
    app.use(sidecar.routes().routes());
    const server = app.listen(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
    sidecar.server = server;
    return sidecar;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** Connects an app (again, after a restart): reads its actor types and subscriptions as daprd does at start-up. */
  async attachApp(appPort: number): Promise<void> {
    this.appPort = appPort;
    const config = (await (await this.callApp("GET", "/dapr/config")).json()) as { entities?: string[] };
    this.actorTypes = config.entities ?? [];
    const entries = (await (await this.callApp("GET", "/dapr/subscribe")).json()) as Array<
      SubscriptionEntry & { routes?: { default?: string } }
    >;
    this.subscriptions = entries.map((entry) => ({
      ...entry,
      route: entry.route ?? entry.routes?.default ?? "",
    }));
  }

  detachApp(): void {
    this.appPort = undefined;
  }

  /** Every publication the stand-in accepted (dead letters included), optionally for one topic. */
  published(topic?: string): CloudEvent[] {
    return this.log.filter((event) => topic === undefined || event.topic === topic);
  }

  registeredReminders(): RegisteredReminder[] {
    return [...this.reminders.values()].map(
      ({ timer: _timer, failures: _failures, ...reminder }) => reminder,
    );
  }

  /** The next `count` publish calls fail with 500, as when the broker is unreachable. */
  failNextPublishes(count: number): void {
    this.publishFailures = count;
  }

  /** Resolves once no delivery, dead letter or reminder callback is running (timers may still be armed). */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
    for (const reminder of this.reminders.values()) reminder.timer?.cancel();
    await this.idle();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private routes(): Router {
    const router = new Router({ prefix: "/v1.0" });

    router.get("/metadata", (ctx) => {
      ctx.body = {
        id: this.appId,
        runtimeVersion: "standin",
        actors: this.actorTypes.map((type) => ({ type, count: 0 })),
        subscriptions: this.subscriptions,
        extended: {},
      };
    });
    router.get("/healthz", (ctx) => {
      ctx.status = 204;
    });

    const invokeActor = async (ctx: Context) => {
      const { type, id, method } = ctx.params as { type: string; id: string; method: string };
      if (this.appPort === undefined || !this.actorTypes.includes(type)) {
        return daprError(ctx, 500, "ERR_ACTOR_INSTANCE_MISSING", `no app hosts actor type ${type}`);
      }
      const body = await readBody(ctx.req);
      const path = `/actors/${encodeURIComponent(type)}/${encodeURIComponent(id)}/method/${encodeURIComponent(method)}`;
      const response = await this.locks.run(this.actorKey(type, id), async () => {
        const answer = await this.callApp("PUT", path, body, ctx.get("content-type") || "application/json");
        return {
          status: answer.status,
          type: answer.headers.get("content-type"),
          body: Buffer.from(await answer.arrayBuffer()),
        };
      });
      ctx.status = response.status;
      if (response.type) ctx.type = response.type;
      ctx.body = response.body;
    };
    router.post("/actors/:type/:id/method/:method", invokeActor);
    router.put("/actors/:type/:id/method/:method", invokeActor);

    router.get("/actors/:type/:id/state/:key", async (ctx) => {
      const { type, id, key } = ctx.params as { type: string; id: string; key: string };
      const entry = await this.store.get(this.actorStateKey(type, id, key));
      if (!entry) {
        ctx.status = 204;
        return;
      }
      ctx.type = "application/json";
      ctx.body = JSON.stringify(entry.value);
    });

    router.post("/actors/:type/:id/state", async (ctx) => {
      const { type, id } = ctx.params as { type: string; id: string };
      const changes = parseJson(await readBody(ctx.req)) as Array<{
        operation: "upsert" | "delete";
        request: { key: string; value?: unknown };
      }>;
      await this.store.transact(
        changes.map((change): StateOperation => {
          const key = this.actorStateKey(type, id, change.request.key);
          return change.operation === "delete"
            ? { operation: "delete", key }
            : { operation: "upsert", key, value: change.request.value };
        }),
      );
      ctx.status = 204;
    });

    const registerReminder = async (ctx: Context) => {
      const { type, id, name } = ctx.params as { type: string; id: string; name: string };
      const body = parseJson(await readBody(ctx.req)) as {
        dueTime?: string;
        period?: string;
        data?: unknown;
      };
      this.armReminder({
        actorType: type,
        actorId: id,
        name,
        dueAt: this.clock.now() + parseDuration(body.dueTime || "0s"),
        periodMs: body.period ? parseDuration(body.period) : undefined,
        data: body.data,
        timer: undefined,
        failures: 0,
      });
      ctx.status = 204;
    };
    router.post("/actors/:type/:id/reminders/:name", registerReminder);
    router.put("/actors/:type/:id/reminders/:name", registerReminder);

    router.get("/actors/:type/:id/reminders/:name", (ctx) => {
      const { type, id, name } = ctx.params as { type: string; id: string; name: string };
      const reminder = this.reminders.get(this.reminderKey(type, id, name));
      if (!reminder) return daprError(ctx, 404, "ERR_ACTOR_REMINDER_GET", `no reminder ${name}`);
      ctx.body = {
        dueTime: new Date(reminder.dueAt).toISOString(),
        period: reminder.periodMs,
        data: reminder.data,
      };
    });

    router.delete("/actors/:type/:id/reminders/:name", (ctx) => {
      const { type, id, name } = ctx.params as { type: string; id: string; name: string };
      const key = this.reminderKey(type, id, name);
      this.reminders.get(key)?.timer?.cancel();
      this.reminders.delete(key);
      ctx.status = 204;
    });

    router.post("/publish/:pubsub/:topic", async (ctx) => {
      const { pubsub, topic } = ctx.params as { pubsub: string; topic: string };
      const body = await readBody(ctx.req);
      if (this.publishFailures > 0) {
        this.publishFailures--;
        return daprError(ctx, 500, "ERR_PUBSUB_PUBLISH_MESSAGE", "injected broker failure");
      }
      const contentType = ctx.get("content-type") || "application/json";
      const event: CloudEvent = contentType.startsWith("application/cloudevents+json")
        ? { ...(parseJson(body) as CloudEvent), topic, pubsubname: pubsub }
        : {
            specversion: "1.0",
            id: randomUUID(),
            source: this.appId,
            type: "com.dapr.event.sent",
            datacontenttype: contentType,
            data: parseJson(body),
            topic,
            pubsubname: pubsub,
            time: new Date(this.clock.now()).toISOString(),
          };
      this.accept(event);
      ctx.status = 204;
    });

    this.stateRoutes(router);
    return router;
  }

  /** The state API the DaprStateStore adapter speaks; ETags are the backing store's. */
  private stateRoutes(router: Router): void {
    const key = (store: string, k: string) => `state${SEP}${store}${SEP}${k}`;
    const conflicts = async (ctx: Context, work: () => Promise<void>) => {
      try {
        await work();
        ctx.status = 204;
      } catch (error) {
        if (!(error instanceof EtagMismatchError)) throw error;
        daprError(
          ctx,
          409,
          "ERR_STATE_SAVE",
          `possible etag mismatch. error from state store: ${error.message}`,
        );
      }
    };

    router.get("/state/:store/:key", async (ctx) => {
      const { store, key: k } = ctx.params as { store: string; key: string };
      const entry = await this.store.get(key(store, k));
      if (!entry) {
        ctx.status = 204;
        return;
      }
      ctx.set("ETag", entry.etag);
      ctx.type = "application/json";
      ctx.body = JSON.stringify(entry.value);
    });

    router.post("/state/:store/bulk", async (ctx) => {
      const { store } = ctx.params as { store: string };
      const { keys } = parseJson(await readBody(ctx.req)) as { keys: string[] };
      const found = await this.store.getMany(keys.map((k) => key(store, k)));
      ctx.body = keys.map((k) => {
        const entry = found.get(key(store, k));
        return entry ? { key: k, data: entry.value, etag: entry.etag } : { key: k };
      });
    });

    router.post("/state/:store", async (ctx) => {
      const { store } = ctx.params as { store: string };
      const items = parseJson(await readBody(ctx.req)) as Array<{
        key: string;
        value: unknown;
        etag?: string;
      }>;
      await conflicts(ctx, () =>
        this.store.transact(
          items.map((item) => ({
            operation: "upsert",
            key: key(store, item.key),
            value: item.value,
            etag: item.etag,
          })),
        ),
      );
    });

    router.delete("/state/:store/:key", async (ctx) => {
      const { store, key: k } = ctx.params as { store: string; key: string };
      const etag = ctx.get("if-match") || undefined;
      await conflicts(ctx, () => this.store.delete(key(store, k), { etag }));
    });

    router.post("/state/:store/transaction", async (ctx) => {
      const { store } = ctx.params as { store: string };
      const { operations } = parseJson(await readBody(ctx.req)) as {
        operations: Array<{
          operation: "upsert" | "delete";
          request: { key: string; value?: unknown; etag?: string };
        }>;
      };
      await conflicts(ctx, () =>
        this.store.transact(
          operations.map(
            ({ operation, request }): StateOperation =>
              operation === "delete"
                ? { operation, key: key(store, request.key), etag: request.etag }
                : { operation, key: key(store, request.key), value: request.value, etag: request.etag },
          ),
        ),
      );
    });
  }

  private actorKey(type: string, id: string): string {
    return `${type}${SEP}${id}`;
  }

  private actorStateKey(type: string, id: string, key: string): string {
    return `${this.appId}${SEP}${type}${SEP}${id}${SEP}${key}`;
  }

  private reminderKey(type: string, id: string, name: string): string {
    return `${type}${SEP}${id}${SEP}${name}`;
  }

  private callApp(
    method: string,
    path: string,
    body?: Uint8Array | string,
    contentType?: string,
  ): Promise<Response> {
    if (this.appPort === undefined)
      return Promise.reject(new Error("No app attached to the stand-in sidecar"));
    return fetch(`http://127.0.0.1:${this.appPort}${path}`, {
      method,
      body: typeof body === "string" || body === undefined ? body : new Uint8Array(body),
      headers: contentType ? { "content-type": contentType } : {},
    });
  }

  private track<T>(work: Promise<T>): void {
    this.work.add(work);
    void work.finally(() => this.work.delete(work)).catch(() => undefined);
  }

  private after(ms: number, fn: () => void): void {
    if (this.closed) return;
    const timer = this.clock.setTimer(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  // Pub/sub

  private accept(event: CloudEvent): void {
    this.log.push(event);
    for (const subscription of this.subscriptions) {
      if (subscription.pubsubname === event.pubsubname && subscription.topic === event.topic) {
        this.track(this.deliver(subscription, event, 1));
      }
    }
  }

  private async deliver(subscription: SubscriptionEntry, event: CloudEvent, attempt: number): Promise<void> {
    const verdict = await this.verdict(subscription, event);
    if (verdict === "SUCCESS") return;
    if (verdict === "RETRY" && attempt < this.retry.maxAttempts) {
      this.after(retryDelay(this.retry, attempt, this.random), () =>
        this.track(this.deliver(subscription, event, attempt + 1)),
      );
      return;
    }
    if (subscription.deadLetterTopic) this.accept({ ...event, topic: subscription.deadLetterTopic });
  }

  /** Dapr's reading of the app's answer: 2xx with a status (none means SUCCESS), 404 drops, the rest retries. */
  private async verdict(subscription: SubscriptionEntry, event: CloudEvent): Promise<Verdict> {
    let response: Response;
    try {
      response = await this.callApp(
        "POST",
        subscription.route,
        JSON.stringify(event),
        "application/cloudevents+json",
      );
    } catch {
      return "RETRY";
    }
    const answer = parseJson(Buffer.from(await response.arrayBuffer())) as { status?: string } | undefined;
    if (response.status === 404) return "DROP";
    if (response.status < 200 || response.status > 299) return "RETRY";
    const status = typeof answer?.status === "string" ? answer.status.toUpperCase() : "SUCCESS";
    return status === "RETRY" || status === "DROP" ? status : "SUCCESS";
  }

  // Reminders

  private armReminder(reminder: Reminder): void {
    const key = this.reminderKey(reminder.actorType, reminder.actorId, reminder.name);
    this.reminders.get(key)?.timer?.cancel();
    this.reminders.set(key, reminder);
    this.schedule(reminder, reminder.dueAt - this.clock.now());
  }

  private schedule(reminder: Reminder, inMs: number): void {
    if (this.closed) return;
    reminder.timer = this.clock.setTimer(() => this.track(this.fire(reminder)), inMs);
  }

  private isCurrent(reminder: Reminder): boolean {
    return (
      this.reminders.get(this.reminderKey(reminder.actorType, reminder.actorId, reminder.name)) === reminder
    );
  }

  private async fire(reminder: Reminder): Promise<void> {
    if (!this.isCurrent(reminder)) return;
    const { actorType, actorId, name } = reminder;
    const path = `/actors/${encodeURIComponent(actorType)}/${encodeURIComponent(actorId)}/method/remind/${encodeURIComponent(name)}`;
    const body = JSON.stringify({
      data: reminder.data,
      dueTime: "0s",
      period: reminder.periodMs ? `${reminder.periodMs}ms` : "",
    });
    const delivered = await this.locks.run(this.actorKey(actorType, actorId), async () => {
      // The turn before this one may have replaced or cancelled the reminder: nothing to deliver.
      if (!this.isCurrent(reminder)) return true;
      try {
        const response = await this.callApp("PUT", path, body, "application/json");
        await response.arrayBuffer();
        return response.ok;
      } catch {
        return false;
      }
    });
    if (!this.isCurrent(reminder)) return;
    if (!delivered && reminder.failures < this.retry.maxAttempts) {
      reminder.failures++;
      this.schedule(reminder, retryDelay(this.retry, reminder.failures, this.random));
      return;
    }
    reminder.failures = 0;
    if (reminder.periodMs) {
      reminder.dueAt = this.clock.now() + reminder.periodMs;
      this.schedule(reminder, reminder.periodMs);
    } else {
      this.reminders.delete(this.reminderKey(actorType, actorId, name));
    }
  }
}
