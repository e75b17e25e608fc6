import { DEMO_AIRLINES } from "../../src/demo/demo-airlines.js";
import type { TenantVendorSettings } from "../../src/vendors/tenant-vendors.js";
import { DEFAULT_VENDOR_LIMITS } from "../../src/vendors/vendor-client.js";
import { SIMULATED_VENDOR_IDS } from "../vendor-sim/catalog.js";
import { demoClientFor } from "../vendor-sim/vendor-simulator.js";

/**
 * Which inventory vendors each tenant uses, in which mode (spec 5.6). The demo airlines run in
 * `mock` mode with all three simulated vendors and the simulators' demo client credentials. A
 * tenant with no settings here has no vendor at all: its searches answer with no hotels rather than
 * reaching a vendor with someone else's credentials.
 *
 * `rateLimitScale` (VENDOR_RATE_LIMIT_SCALE) multiplies the demo accounts' calls per second, and
 * with them the bursts: a benchmark lifts the throttles to see what the platform itself costs.
 */
export function demoVendorSettings(rateLimitScale = 1): (tenant: string) => TenantVendorSettings {
  const limits =
    rateLimitScale === 1
      ? {}
      : {
          limits: {
            inventory: DEFAULT_VENDOR_LIMITS.inventory * rateLimitScale,
            booking: DEFAULT_VENDOR_LIMITS.booking * rateLimitScale,
          },
        };
  const mock: TenantVendorSettings = {
    mode: "mock",
    accounts: SIMULATED_VENDOR_IDS.map((vendor) => ({
      vendor,
      enabled: true,
      credentials: demoClientFor(vendor),
      ...limits,
    })),
  };
  const settings = new Map(DEMO_AIRLINES.map((airline) => [airline.airlineUrn, mock]));
  const none: TenantVendorSettings = { mode: "mock", accounts: [] };
  return (tenant) => settings.get(tenant) ?? none;
}
