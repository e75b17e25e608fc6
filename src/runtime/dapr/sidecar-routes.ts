import { timingSafeEqual } from "node:crypto";
import Router from "@koa/router";
import type { Context } from "koa";
import type { DaprActorRuntime } from "./actor-runtime.js";
import { type DaprEventBus, SUBSCRIPTION_ROUTES } from "./event-bus.js";
import { type DaprInputBindings, INPUT_BINDING_ROUTES } from "./input-bindings.js";

export interface SidecarRoutesOptions {
  /** Hosted actors; without it the app reports no actor types. */
  actors?: DaprActorRuntime;
  /** Subscriptions; without it the app subscribes to nothing. */
  bus?: DaprEventBus;
  /** Input bindings; without it the app takes none. */
  inputBindings?: DaprInputBindings;
  /** The sidecar's app API token (APP_API_TOKEN): when set, calls without it are refused with 401. */
  appApiToken?: string;
}

/**
 * The request body as bytes. These routes read the stream themselves (the SDK's actor runtime
 * parses raw bodies, deliveries come as `application/cloudevents+json`), and fall back on what a
 * body parser mounted before them kept.
 */
async function rawBody(ctx: Context): Promise<Buffer> {
  const kept = (ctx.request as { rawBody?: unknown }).rawBody;
  if (typeof kept === "string") return Buffer.from(kept);
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function fail(ctx: Context, status: number, error: unknown): void {
  ctx.status = status;
  ctx.body = { error: error instanceof Error ? error.message : String(error) };
}

/** The parameters of the actor callback routes; each route has `type`, `id` and the one it names. */
interface ActorCallbackParams {
  type: string;
  id: string;
  name: string;
  method: string;
}

/** A callback into the SDK's actor runtime: what it throws answers 500 with the error's message. */
function actorCallback(handle: (ctx: Context, params: ActorCallbackParams) => Promise<void>) {
  return async (ctx: Context & { params: Record<string, string> }) => {
    try {
      await handle(ctx, ctx.params as unknown as ActorCallbackParams);
    } catch (error) {
      fail(ctx, 500, error);
    }
  };
}

/**
 * daprd 1.16 takes only 200 from an actor method, reminder or timer callback as success, and Koa
 * answers 204 when a handler leaves the body empty: the status is set after the body.
 */
function answerOk(ctx: Context, body?: unknown): void {
  ctx.body = body ?? "";
  ctx.status = 200;
}

function sameToken(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The routes a Dapr sidecar calls on this app, mounted on Koa (the SDK's DaprServer insists on its
 * own express server). Actor calls are dispatched into the SDK's actor runtime; pub/sub deliveries
 * always answer an explicit SUCCESS, RETRY or DROP; input bindings answer 200 once handled.
 */
export function sidecarRouter({ actors, bus, inputBindings, appApiToken }: SidecarRoutesOptions): Router {
  const router = new Router();

  router.get("/healthz", (ctx) => {
    ctx.body = "ok";
  });

  // daprd sends the app API token as `dapr-api-token` on every call it makes to the app; the
  // health route stays open to probes that do not have it.
  if (appApiToken) {
    router.use(async (ctx, next) => {
      if (ctx.path !== "/healthz" && !sameToken(ctx.get("dapr-api-token") || undefined, appApiToken)) {
        fail(ctx, 401, "missing or wrong dapr-api-token");
        return;
      }
      await next();
    });
  }

  router.get("/dapr/config", (ctx) => {
    ctx.body = actors?.config() ?? { entities: [] };
  });

  router.get("/dapr/subscribe", (ctx) => {
    ctx.body = bus?.daprSubscriptions() ?? [];
  });

  if (actors) {
    router.put(
      "/actors/:type/:id/method/remind/:name",
      actorCallback(async (ctx, { type, id, name }) => {
        await actors.dispatchReminder(type, id, name, await rawBody(ctx));
        answerOk(ctx);
      }),
    );
    router.put(
      "/actors/:type/:id/method/timer/:name",
      actorCallback(async (ctx, { type, id, name }) => {
        await actors.dispatchTimer(type, id, name, await rawBody(ctx));
        answerOk(ctx);
      }),
    );
    router.put(
      "/actors/:type/:id/method/:method",
      actorCallback(async (ctx, { type, id, method }) => {
        answerOk(ctx, await actors.dispatchMethod(type, id, method, await rawBody(ctx)));
      }),
    );
    router.delete(
      "/actors/:type/:id",
      actorCallback(async (ctx, { type, id }) => {
        if (await actors.deactivate(type, id)) answerOk(ctx);
        else ctx.status = 404;
      }),
    );
  }

  if (bus) {
    router.post(`${SUBSCRIPTION_ROUTES}/:name`, async (ctx) => {
      let body: unknown;
      try {
        body = JSON.parse((await rawBody(ctx)).toString("utf8"));
      } catch {
        ctx.body = { status: "DROP" };
        return;
      }
      const delivery = bus.deliver((ctx.params as { name: string }).name, body);
      if (!delivery) {
        // A route this app no longer serves (a sidecar still holding an older /dapr/subscribe).
        // daprd acknowledges a 404 and the event is gone (pkg/runtime/subscription/publish.go);
        // DROP sends it to the dead letter instead, where an operator can see it.
        ctx.body = { status: "DROP" };
        return;
      }
      ctx.body = { status: await delivery };
    });
  }

  if (inputBindings) {
    // daprd asks with OPTIONS at start-up whether the app takes a binding's deliveries (2xx or
    // 405: yes); a 404 leaves the component unread.
    router.options(`${INPUT_BINDING_ROUTES}/:name`, (ctx) => {
      ctx.status = inputBindings.serves((ctx.params as { name: string }).name) ? 200 : 404;
    });
    router.post(`${INPUT_BINDING_ROUTES}/:name`, async (ctx) => {
      const answer = inputBindings.deliver((ctx.params as { name: string }).name, await rawBody(ctx));
      if (!answer) {
        fail(ctx, 404, "no such input binding");
        return;
      }
      answerOk(ctx);
      ctx.status = await answer;
    });
  }

  return router;
}
