/**
 * The hotel side of one running platform: the vendor simulators, the tenants' vendor clients and
 * the time-boxed search, built once per runtime so that routes, waves and booking share the same
 * clients (their tokens, token buckets and circuit breakers) and the same offer cache.
 *
 * Vendors are reached in process on the embedded default (the simulators run inside this process),
 * or over HTTP when the vendor-sim app's address is configured (`VENDOR_SIM_URL`, distributed
 * runtime): each vendor then answers at `<url>/<vendor id>`, through the same clients.
 */
import { HotelSearch } from "../../src/app/hotel-search.js";
import type { Config } from "../../src/config.js";
import type { ExchangeRates } from "../../src/domain/money.js";
import type { Runtime } from "../../src/runtime/runtime.js";
import { httpTransport } from "../../src/vendors/http-transport.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import { TenantInventoryVendors } from "../../src/vendors/tenant-vendors.js";
import type { VendorTransport } from "../../src/vendors/vendor-transport.js";
import type { SimulatedVendorId } from "../vendor-sim/catalog.js";
import {
  SIMULATOR_EXCHANGE_RATES,
  type VendorSimulators,
  createVendorSimulators,
} from "../vendor-sim/simulators.js";
import { DEMO_INVENTORY_SEED } from "../vendor-sim/vendor-sim-service.js";
import type { ModuleContext } from "../module.js";
import { demoVendorSettings } from "./vendor-settings.js";

/**
 * The simulators' table, plus the currencies policies are written in that no simulator sells in
 * (a policy's currency follows its airport's country: BRL at GRU). A fixed table: the demo has no
 * rate feed, and a live deployment would pass its own.
 */
export const PLATFORM_EXCHANGE_RATES: ExchangeRates = {
  base: SIMULATOR_EXCHANGE_RATES.base,
  perBase: { ...SIMULATOR_EXCHANGE_RATES.perBase, BRL: 5.2 },
};

export interface Hotels {
  /**
   * The simulators built from the demo seed. With a vendor-sim URL they take no traffic: they only
   * give the catalog, which the vendor-sim app builds from the same seed.
   */
  simulators: VendorSimulators;
  vendors: TenantInventoryVendors;
  search: HotelSearch;
  exchangeRates: ExchangeRates;
}

const built = new WeakMap<Runtime, Hotels>();

/** The same simulators, clients and search cache for every caller on one runtime. */
export function hotelsOf(context: Pick<ModuleContext, "runtime" | "config">): Hotels {
  let hotels = built.get(context.runtime);
  if (!hotels) {
    hotels = build(context.runtime, context.config);
    built.set(context.runtime, hotels);
  }
  return hotels;
}

function build(runtime: Runtime, config: Pick<Config, "vendorSimUrl" | "vendorRateLimitScale">): Hotels {
  const { clock } = runtime;
  const { vendorSimUrl } = config;
  const simulators = createVendorSimulators({ seed: DEMO_INVENTORY_SEED, clock });
  const inProcess = (vendor: string): VendorTransport => {
    const simulator = simulators.byId[vendor as SimulatedVendorId];
    if (!simulator) throw new Error(`No simulator for vendor "${vendor}"`);
    return inProcessTransport(simulator);
  };
  const vendors = new TenantInventoryVendors({
    settingsOf: demoVendorSettings(config.vendorRateLimitScale),
    mockTransportOf: vendorSimUrl ? (vendor) => httpTransport(`${vendorSimUrl}/${vendor}`) : inProcess,
    clock,
  });
  const exchangeRates = PLATFORM_EXCHANGE_RATES;
  return { simulators, vendors, search: new HotelSearch(vendors, clock, { exchangeRates }), exchangeRates };
}
