/**
 * The hotel side of one running platform: the vendor simulators, the tenants' vendor clients and
 * the time-boxed search, built once per runtime so that routes, waves and booking share the same
 * clients (their tokens, token buckets and circuit breakers) and the same offer cache.
 *
 * Vendors are reached in-process: the embedded default runs the simulators inside this process,
 * and so does a Dapr deployment until the composition root is given the vendor-sim app's address.
 */
import { HotelSearch } from "../../src/app/hotel-search.js";
import type { ExchangeRates } from "../../src/domain/money.js";
import type { Runtime } from "../../src/runtime/runtime.js";
import { inProcessTransport } from "../../src/vendors/in-process-transport.js";
import { TenantInventoryVendors } from "../../src/vendors/tenant-vendors.js";
import type { SimulatedVendorId } from "../vendor-sim/catalog.js";
import {
  SIMULATOR_EXCHANGE_RATES,
  type VendorSimulators,
  createVendorSimulators,
} from "../vendor-sim/simulators.js";
import type { ModuleContext } from "../module.js";
import { demoVendorSettings } from "./vendor-settings.js";

/** The simulators' seed: the same hotels, ids and prices on every start. */
export const DEMO_VENDOR_SEED = "disruption-demo";

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
  simulators: VendorSimulators;
  vendors: TenantInventoryVendors;
  search: HotelSearch;
  exchangeRates: ExchangeRates;
}

const built = new WeakMap<Runtime, Hotels>();

/** The same simulators, clients and search cache for every caller on one runtime. */
export function hotelsOf(context: Pick<ModuleContext, "runtime">): Hotels {
  let hotels = built.get(context.runtime);
  if (!hotels) {
    hotels = build(context.runtime);
    built.set(context.runtime, hotels);
  }
  return hotels;
}

function build(runtime: Runtime): Hotels {
  const { clock } = runtime;
  const simulators = createVendorSimulators({ seed: DEMO_VENDOR_SEED, clock });
  const vendors = new TenantInventoryVendors({
    settingsOf: demoVendorSettings(),
    mockTransportOf: (vendor) => {
      const simulator = simulators.byId[vendor as SimulatedVendorId];
      if (!simulator) throw new Error(`No simulator for vendor "${vendor}"`);
      return inProcessTransport(simulator);
    },
    clock,
  });
  const exchangeRates = PLATFORM_EXCHANGE_RATES;
  return { simulators, vendors, search: new HotelSearch(vendors, clock, { exchangeRates }), exchangeRates };
}
