import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorsOf } from "../support/container.js";
import { createVendorSimulators, type VendorSimulators } from "../../services/vendor-sim/simulators.js";
import { createVendorSimApp } from "../../services/vendor-sim/vendor-sim-app.js";
import { DEMO_INVENTORY_SEED } from "../../services/vendor-sim/vendor-sim-service.js";
import { loadConfig } from "../../src/config.js";
import { systemClock } from "../../src/runtime/clock.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";

/**
 * The distributed runtime's way to the hotel vendors: the platform is given the vendor-sim app's
 * address (VENDOR_SIM_URL) and reaches every vendor over HTTP at `<url>/<vendor id>`, as the API
 * and worker apps do under `dapr run -f dapr/dapr.yaml`. The vendor-sim app runs in this test, on
 * simulators of its own, and records the paths it was asked for.
 */
let t: TestPlatform;
let server: Server;
let remote: VendorSimulators;
const requested: string[] = [];

beforeAll(async () => {
  remote = createVendorSimulators({ seed: DEMO_INVENTORY_SEED, clock: systemClock });
  const app = createVendorSimApp(remote.all).callback();
  server = createServer((request, response) => {
    requested.push(`${request.method} ${request.url}`);
    void app(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  t = await startTestPlatform({ env: { VENDOR_SIM_URL: `http://127.0.0.1:${port}/` } });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** An operator's search for one room at `airport`, which must answer 200. */
async function search(airport: string, checkIn: string, checkOut: string) {
  const stay = { airport, checkIn, checkOut, rooms: 1 };
  return json(
    await t.call("POST", "/v1/hotels/search", await t.operatorToken("operator@zx.demo"), stay),
    200,
  );
}

describe("VENDOR_SIM_URL", () => {
  it("is read from the environment without a trailing slash, and unset means simulators in process", () => {
    expect(loadConfig({ VENDOR_SIM_URL: "http://localhost:8085/" }).vendorSimUrl).toBe(
      "http://localhost:8085",
    );
    expect(loadConfig({}).vendorSimUrl).toBeUndefined();
  });

  it("serves POST /v1/hotels/search from the vendor-sim app over HTTP, each vendor under its own prefix", async () => {
    // Were the platform still calling its own simulators, this would leave every vendor missing.
    const local = simulatorsOf(t.platform);
    for (const simulator of local.all) simulator.configureFaults({ errorRates: { unavailable: 1 } });
    try {
      const result = await search("JFK", "2026-10-03", "2026-10-04");
      expect(result.vendorsAnswered).toEqual(["vendor-a", "vendor-b", "vendor-c"]);
      expect(result.vendorsMissing).toEqual([]);
      expect(result.hotels.length).toBeGreaterThan(0);
      // Each vendor was asked for a token and for offers, under its own prefix.
      for (const vendor of ["vendor-a", "vendor-b", "vendor-c"]) {
        const calls = requested.filter((line) => line.includes(` /${vendor}/`));
        expect(calls.length, vendor).toBeGreaterThanOrEqual(2);
      }
    } finally {
      for (const simulator of local.all) simulator.configureFaults({ errorRates: {} });
    }
  });

  it("shows a fault injected at the vendor-sim app in the search", async () => {
    remote.byId["vendor-b"].configureFaults({ errorRates: { unavailable: 1 } });
    try {
      const result = await search("BOS", "2026-10-05", "2026-10-06");
      expect(result.vendorsAnswered).toEqual(["vendor-a", "vendor-c"]);
      expect(result.vendorsMissing.map((m: { vendor: string }) => m.vendor)).toEqual(["vendor-b"]);
    } finally {
      remote.byId["vendor-b"].configureFaults({ errorRates: {} });
    }
  });
});
