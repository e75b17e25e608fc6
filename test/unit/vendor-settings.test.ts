import { describe, expect, it } from "vitest";
import { demoVendorSettings } from "../../services/hotels/vendor-settings.js";
import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import { createVendorSimulators } from "../../services/vendor-sim/simulators.js";
import { loadConfig } from "../../src/config.js";
import { ManualClock, settle } from "../../src/runtime/clock.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import { TenantInventoryVendors } from "../../src/vendors/tenant-vendors.js";

const ZX = "urn:airline:ZX";
const STAY = { airport: "JFK", checkIn: "2026-03-10", checkOut: "2026-03-11", rooms: 1 };

/** Fires `count` searches at vendor-a at once under the settings; how many reach it before the clock moves. */
async function searchesReachingAtOnce(rateLimitScale: number | undefined, count: number) {
  const clock = new ManualClock("2026-03-10T08:00:00Z");
  const simulators = createVendorSimulators({ seed: 42, clock });
  const vendors = new TenantInventoryVendors({
    settingsOf: demoVendorSettings(rateLimitScale),
    mockTransportOf: (vendor) => inProcessTransport(simulators.byId[vendor as SimulatedVendorId]),
    clock,
  });
  const vendorA = vendors.forTenant(ZX).find((v) => v.id === "vendor-a")!;
  const searches = Array.from({ length: count }, () => vendorA.search(STAY));
  await settle(20);
  const reached = simulators.byId["vendor-a"].requestsReceived().search ?? 0;
  await clock.advance(10_000);
  await Promise.all(searches);
  return reached;
}

describe("VENDOR_RATE_LIMIT_SCALE", () => {
  it("is 1 unless set, and must be a non-negative integer", () => {
    expect(loadConfig({}).vendorRateLimitScale).toBe(1);
    expect(loadConfig({ VENDOR_RATE_LIMIT_SCALE: "1000" }).vendorRateLimitScale).toBe(1000);
    expect(() => loadConfig({ VENDOR_RATE_LIMIT_SCALE: "fast" })).toThrow(/VENDOR_RATE_LIMIT_SCALE/);
  });

  it("leaves the demo accounts on the default limits, or multiplies them", () => {
    expect(demoVendorSettings()(ZX).accounts.map((a) => a.limits)).toEqual([undefined, undefined, undefined]);
    expect(demoVendorSettings(1000)(ZX).accounts[0]!.limits).toEqual({ inventory: 10_000, booking: 5_000 });
  });

  it("lets a burst beyond the default search bucket reach the vendor at once when raised", async () => {
    expect(await searchesReachingAtOnce(undefined, 15)).toBe(10);
    expect(await searchesReachingAtOnce(1000, 15)).toBe(15);
  });
});
