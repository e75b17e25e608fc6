import { describe, expect, it } from "vitest";
import type { Principal } from "../../src/app/principals.js";
import type { RouteDeps } from "../../src/http/request-pipeline.js";
import { defineRoute } from "../../src/http/route.js";
import { serialisedOnce } from "../../src/http/serialised-body.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { serve } from "./http-server-fixture.js";

const clock = new ManualClock();
const deps: RouteDeps = {
  authenticate: async () => ({}) as Principal,
  counters: new MemoryCounterStore(clock),
  clock,
};

describe("a body serialised once", () => {
  it("is answered as JSON, read after read, as it was when first served", async () => {
    const kept = { offer: { hotel: "Hôtel du Lac" }, transport: [] as string[] };
    let stringified = 0;
    const route = defineRoute({
      method: "GET",
      path: "/v1/kept",
      operationId: "kept",
      summary: "s",
      tags: ["T"],
      access: { kind: "public" },
      surface: "passenger",
      responses: { 200: { description: "ok" } },
      handler: () => {
        const toJSON = () => {
          stringified++;
          return { offer: kept.offer, transport: kept.transport };
        };
        Object.defineProperty(kept, "toJSON", { value: toJSON, configurable: true });
        return { status: 200 as const, body: serialisedOnce(kept) };
      },
    });
    const served = await serve([route], deps);
    try {
      for (let read = 0; read < 3; read++) {
        const response = await fetch(`${served.base}/v1/kept`);
        expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect(await response.json()).toEqual({ offer: { hotel: "Hôtel du Lac" }, transport: [] });
      }
      expect(stringified).toBe(1);
    } finally {
      served.close();
    }
  });
});
