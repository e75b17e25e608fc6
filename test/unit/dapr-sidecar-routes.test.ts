import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { afterEach, describe, expect, it } from "vitest";
import type { DaprActorRuntime } from "../../src/runtime/dapr/actor-runtime.js";
import { sidecarRouter } from "../../src/runtime/dapr/sidecar-routes.js";

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function appWith(options: Parameters<typeof sidecarRouter>[0]): Promise<string> {
  const koa = new Koa();
  koa.use(sidecarRouter(options).routes());
  server = koa.listen(0, "127.0.0.1");
  await new Promise((resolve) => server!.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("sidecar routes with APP_API_TOKEN", () => {
  it("refuses the sidecar's callbacks without daprd's dapr-api-token header, and keeps /healthz open", async () => {
    const base = await appWith({ appApiToken: "app-s3cret" });
    expect((await fetch(`${base}/dapr/config`)).status).toBe(401);
    expect((await fetch(`${base}/dapr/subscribe`, { headers: { "dapr-api-token": "wrong" } })).status).toBe(
      401,
    );
    const allowed = await fetch(`${base}/dapr/config`, { headers: { "dapr-api-token": "app-s3cret" } });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ entities: [] });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});

describe("sidecar routes for actors", () => {
  it("answer 200 to every callback that succeeds, even with nothing to say (daprd 1.16 wants 200, Koa would say 204)", async () => {
    const quiet = {
      config: () => ({ entities: ["Quiet"] }),
      dispatchMethod: async () => undefined,
      dispatchReminder: async () => undefined,
      dispatchTimer: async () => undefined,
      deactivate: async () => true,
    } as unknown as DaprActorRuntime;
    const base = await appWith({ actors: quiet });
    for (const path of ["method/ping", "method/remind/r", "method/timer/t"]) {
      expect((await fetch(`${base}/actors/Quiet/1/${path}`, { method: "PUT" })).status).toBe(200);
    }
    expect((await fetch(`${base}/actors/Quiet/1`, { method: "DELETE" })).status).toBe(200);
  });
});

describe("sidecar routes for actors that fail", () => {
  it("answer 500 with the error's message when a callback throws, and 404 for an actor not active", async () => {
    const failing = {
      config: () => ({ entities: ["Broken"] }),
      dispatchMethod: async () => {
        throw new Error("method broke");
      },
      dispatchReminder: async () => {
        throw new Error("reminder broke");
      },
      dispatchTimer: async () => {
        throw new Error("timer broke");
      },
      deactivate: async () => false,
    } as unknown as DaprActorRuntime;
    const base = await appWith({ actors: failing });
    for (const [path, message] of [
      ["method/ping", "method broke"],
      ["method/remind/r", "reminder broke"],
      ["method/timer/t", "timer broke"],
    ] as const) {
      const answer = await fetch(`${base}/actors/Broken/1/${path}`, { method: "PUT" });
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({ error: message });
    }
    expect((await fetch(`${base}/actors/Broken/1`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("sidecar routes for subscriptions", () => {
  it("answer DROP for a route the app does not serve: daprd would acknowledge a 404 and lose the event", async () => {
    const bus = { daprSubscriptions: () => [], deliver: () => undefined } as unknown as Parameters<
      typeof sidecarRouter
    >[0]["bus"];
    const base = await appWith({ bus });
    const answer = await fetch(`${base}/dapr/events/gone`, { method: "POST", body: "{}" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: "DROP" });
  });
});
