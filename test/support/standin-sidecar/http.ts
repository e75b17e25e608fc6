import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Router from "@koa/router";
import Koa from "koa";
import { type Clock, type TimerHandle, systemClock } from "../../../src/runtime/clock.js";
import { MemoryStateStore } from "../../../src/runtime/memory/state-store.js";
import type { StateStore } from "../../../src/runtime/state-store.js";
import { type Deactivation, StandinActors, type RegisteredReminder } from "./actors.js";
import type { AppChannel } from "./app-channel.js";
import { type OutputInvocation, StandinBindings } from "./bindings.js";
import type { InputBindingComponent } from "./components.js";
import { type CloudEvent, StandinBroker, StandinPubsub } from "./pubsub.js";
import type { ResiliencyDocument } from "./resiliency.js";
import { StandinState } from "./state.js";

export interface StandinHttpSidecarOptions {
  /** Drives reminders and redelivery backoff; tests pass a ManualClock. */
  clock?: Clock;
  /** Holds actor state and the state API's keys; it outlives any app attached to the stand-in. */
  store?: StateStore;
  /**
   * The Resiliency documents daprd would load from its resources path; a pub/sub delivery is
   * retried only as their inbound policy for the component says (none: tried once).
   */
  resiliency?: ResiliencyDocument[];
  /** Shared by stand-ins that play the apps of one distributed run; a broker of its own otherwise. */
  broker?: StandinBroker;
  /**
   * The `consumerID` metadata of the pub/sub components, by component name: `{appID}` (every
   * component's default) or `{uuid}` expand as daprd 1.16 expands them when it loads a component.
   */
  consumerIDs?: Record<string, string>;
  /** The input binding components that load in this sidecar (`inputBindingsFrom`); none when absent. */
  inputBindings?: InputBindingComponent[];
  random?: () => number;
  appId?: string;
  /** When set, every API call but the health check must carry it as `dapr-api-token` (daprd's DAPR_API_TOKEN). */
  apiToken?: string;
  /** Sent as `dapr-api-token` on every call to the app when set (daprd's APP_API_TOKEN). */
  appApiToken?: string;
}

/**
 * A test-only stand-in for `daprd`'s HTTP API, since no sidecar binary can be installed here. It
 * speaks to the app the way daprd does: it reads `/dapr/config` and `/dapr/subscribe`, and serves
 * the building blocks beside this file (actors and reminders, state, pub/sub, bindings) plus the metadata
 * and health endpoints.
 */
export class StandinHttpSidecar implements AppChannel {
  readonly clock: Clock;
  readonly store: StateStore;
  readonly random: () => number;
  readonly appId: string;
  private readonly apiToken: string | undefined;
  private readonly appApiToken: string | undefined;
  private readonly actors: StandinActors;
  private readonly pubsub: StandinPubsub;
  private readonly state: StandinState;
  private readonly bindings: StandinBindings;
  private readonly timers = new Set<TimerHandle>();
  private readonly work = new Set<Promise<unknown>>();
  private server: Server | undefined;
  private appPort: number | undefined;
  closed = false;

  private constructor(options: StandinHttpSidecarOptions) {
    this.clock = options.clock ?? systemClock;
    this.store = options.store ?? new MemoryStateStore();
    this.random = options.random ?? Math.random;
    this.appId = options.appId ?? "app";
    this.apiToken = options.apiToken;
    this.appApiToken = options.appApiToken;
    this.actors = new StandinActors(this, this.store);
    this.pubsub = new StandinPubsub(
      this,
      options.broker ?? new StandinBroker(),
      options.resiliency ?? [],
      options.consumerIDs ?? {},
    );
    this.state = new StandinState(this.store);
    this.bindings = new StandinBindings(this, options.inputBindings ?? []);
  }

  static async start(options: StandinHttpSidecarOptions = {}, port = 0): Promise<StandinHttpSidecar> {
    const sidecar = new StandinHttpSidecar(options);
    const app = new Koa();
    app.use(async (ctx, next) => {
      const token = sidecar.apiToken;
      // daprd's APITokenAuthMiddleware (pkg/api/http/middlewares.go): only GET of the two health
      // checks pass without the token; the refusal is Go's http.Error, plain text with a newline.
      const healthCheck = ctx.method === "GET" && /^\/v1\.0\/healthz(\/outbound)?\/?$/.test(ctx.path);
      if (token && !healthCheck && ctx.get("dapr-api-token") !== token) {
        ctx.status = 401;
        ctx.type = "text/plain; charset=utf-8";
        ctx.body = "invalid api token\n";
        return;
      }
      await next();
    });
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

  get attached(): boolean {
    return this.appPort !== undefined;
  }

  /** Connects an app (again, after a restart): reads its actor types and subscriptions as daprd does at start-up. */
  async attachApp(appPort: number): Promise<void> {
    this.appPort = appPort;
    await this.actors.readConfig();
    await this.pubsub.readSubscriptions();
    await this.bindings.readInputs();
  }

  /** Delivers one message of an input binding component to the app; its status (2xx: acknowledged). */
  deliverInputBinding(name: string, payload: string | object): Promise<number> {
    return this.bindings.deliver(name, payload);
  }

  /** Every output binding invocation the app made, optionally of one binding. */
  outputBindings(name?: string): OutputInvocation[] {
    return this.bindings.output(name);
  }

  detachApp(): void {
    this.appPort = undefined;
    this.pubsub.leave();
  }

  /** Every publication the broker accepted (dead letters included), optionally for one topic. */
  published(topic?: string): CloudEvent[] {
    return this.pubsub.published(topic);
  }

  registeredReminders(): RegisteredReminder[] {
    return this.actors.registeredReminders();
  }

  /** Every `DELETE /actors/{type}/{id}` sent to the app for an idle actor, with its answer. */
  deactivations(): Deactivation[] {
    return this.actors.deactivations();
  }

  /** The next `count` publish calls fail with 500, as when the broker is unreachable. */
  failNextPublishes(count: number): void {
    this.pubsub.failNextPublishes(count);
  }

  /** Resolves once no delivery, dead letter or reminder callback is running (timers may still be armed). */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
    this.actors.close();
    this.pubsub.leave();
    await this.idle();
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  callApp(method: string, path: string, body?: Uint8Array | string, contentType?: string): Promise<Response> {
    if (this.appPort === undefined)
      return Promise.reject(new Error("No app attached to the stand-in sidecar"));
    return fetch(`http://127.0.0.1:${this.appPort}${path}`, {
      method,
      body: typeof body === "string" || body === undefined ? body : new Uint8Array(body),
      headers: {
        ...(contentType ? { "content-type": contentType } : {}),
        ...(this.appApiToken ? { "dapr-api-token": this.appApiToken } : {}),
      },
    });
  }

  track<T>(work: Promise<T>): void {
    this.work.add(work);
    void work.finally(() => this.work.delete(work)).catch(() => undefined);
  }

  after(ms: number, fn: () => void): void {
    if (this.closed) return;
    const timer = this.clock.setTimer(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private routes(): Router {
    const router = new Router({ prefix: "/v1.0" });
    router.get("/metadata", (ctx) => {
      ctx.body = {
        id: this.appId,
        runtimeVersion: "standin",
        actors: this.actors.actorTypes.map((type) => ({ type, count: 0 })),
        subscriptions: this.pubsub.subscriptions,
        extended: {},
      };
    });
    router.get("/healthz", (ctx) => {
      ctx.status = 204;
    });
    this.actors.routes(router);
    this.pubsub.routes(router);
    this.state.routes(router);
    this.bindings.routes(router);
    return router;
  }
}
