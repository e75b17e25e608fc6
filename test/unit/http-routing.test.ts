import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../src/app/principals.js";
import { defineRoute, type Route } from "../../src/http/route.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { type ServedRoutes, serve } from "./http-server-fixture.js";

/** A public GET answering with its own operationId and the path parameters it was given. */
function answering(operationId: string, path: string): Route {
  return defineRoute({
    method: "GET",
    path,
    operationId,
    summary: operationId,
    tags: ["Test"],
    access: { kind: "public" },
    surface: "operator",
    responses: { 200: { description: "which route answered" } },
    handler: ({ params }) => ({ status: 200, body: { route: operationId, params } }),
  });
}

const routes = [
  answering("thingById", "/v1/things/:id"),
  answering("latestThing", "/v1/things/latest"),
  answering("upperCaseShadow", "/v1/Shadow"),
  answering("shadowed", "/v1/shadow"),
];

let served: ServedRoutes;
let base: string;

beforeAll(async () => {
  const clock = new ManualClock();
  served = await serve(routes, {
    authenticate: async () => ({}) as Principal,
    counters: new MemoryCounterStore(clock),
    clock,
  });
  base = served.base;
});

afterAll(() => {
  served.close();
});

async function answer(path: string, method = "GET") {
  const response = await fetch(base + path, { method });
  const text = await response.text();
  return {
    status: response.status,
    allow: response.headers.get("allow"),
    json: text ? JSON.parse(text) : undefined,
  };
}

describe("choosing the route of a request", () => {
  it("prefers a route without parameters to an earlier one with them, whatever the spelling", async () => {
    for (const path of ["/v1/things/latest", "/v1/things/latest/", "/V1/THINGS/LATEST"]) {
      expect((await answer(path)).json).toEqual({ route: "latestThing", params: {} });
    }
    expect((await answer("/v1/things/t-1")).json).toEqual({ route: "thingById", params: { id: "t-1" } });
  });

  it("gives a path two routes match in different letter cases to the earlier one", async () => {
    expect((await answer("/v1/shadow")).json).toEqual({ route: "upperCaseShadow", params: {} });
    expect((await answer("/v1/Shadow")).json).toEqual({ route: "upperCaseShadow", params: {} });
  });

  it("answers HEAD like GET without a body, and another method with 405 and Allow", async () => {
    expect(await answer("/v1/things/latest", "HEAD")).toMatchObject({ status: 200, json: undefined });
    expect(await answer("/v1/things/latest", "DELETE")).toMatchObject({ status: 405, allow: "HEAD, GET" });
  });

  it("answers a path with parameters the same way every time it comes again", async () => {
    for (let round = 0; round < 3; round++) {
      expect((await answer("/v1/things/t-1")).json).toEqual({ route: "thingById", params: { id: "t-1" } });
      expect((await answer("/v1/things/t-2")).json).toEqual({ route: "thingById", params: { id: "t-2" } });
      expect(await answer("/v1/things/t-1", "DELETE")).toMatchObject({ status: 405, allow: "HEAD, GET" });
      expect((await answer("/v1/nothing/t-1")).status).toBe(404);
    }
  });
});
