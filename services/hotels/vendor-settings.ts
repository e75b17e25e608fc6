import { DEMO_AIRLINES } from "../../src/demo/demo-airlines.js";
import type { TenantVendorSettings } from "../../src/vendors/tenant-vendors.js";
import { SIMULATED_VENDOR_IDS } from "../vendor-sim/catalog.js";
import { demoClientFor } from "../vendor-sim/vendor-simulator.js";

/**
 * Which inventory vendors each tenant uses, in which mode (spec 5.6). The demo airlines run in
 * `mock` mode with all three simulated vendors and the simulators' demo client credentials. A
 * tenant with no settings here has no vendor at all: its searches answer with no hotels rather than
 * reaching a vendor with someone else's credentials.
 */
export function demoVendorSettings(): (tenant: string) => TenantVendorSettings {
  const mock: TenantVendorSettings = {
    mode: "mock",
    accounts: SIMULATED_VENDOR_IDS.map((vendor) => ({
      vendor,
      enabled: true,
      credentials: demoClientFor(vendor),
    })),
  };
  const settings = new Map(DEMO_AIRLINES.map((airline) => [airline.airlineUrn, mock]));
  const none: TenantVendorSettings = { mode: "mock", accounts: [] };
  return (tenant) => settings.get(tenant) ?? none;
}
