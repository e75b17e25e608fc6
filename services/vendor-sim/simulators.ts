/**
 * The three simulated hotel vendors over one shared catalog, as the embedded default starts them
 * in-process and the vendor-sim app serves them over HTTP. Same seed, same hotels, ids and prices.
 */
import type { ExchangeRates } from "../../src/domain/money.js";
import type { Clock } from "../../src/runtime/clock.js";
import { type HotelCatalog, type SimulatedVendorId, buildCatalog } from "./catalog.js";
import type { FaultSettings } from "./fault-injection.js";
import { VendorA } from "./vendor-a.js";
import { VendorB } from "./vendor-b.js";
import { VendorC } from "./vendor-c.js";
import type { VendorSimulator } from "./vendor-simulator.js";

export interface VendorSimulatorsOptions {
  seed: number | string;
  clock: Clock;
  /** Defaults to the catalog of the demo airports under the same seed. */
  catalog?: HotelCatalog;
  faults?: Partial<Record<SimulatedVendorId, FaultSettings>>;
  roomsPerNight?: number;
}

export interface VendorSimulators {
  catalog: HotelCatalog;
  all: VendorSimulator[];
  byId: Record<SimulatedVendorId, VendorSimulator>;
}

/**
 * What the simulators price with (units per US dollar); the search converts offers with the same
 * table, so simulated prices compare as the vendors meant them.
 */
export const SIMULATOR_EXCHANGE_RATES: ExchangeRates = { base: "USD", perBase: { EUR: 0.92, GBP: 0.79 } };

export function createVendorSimulators(options: VendorSimulatorsOptions): VendorSimulators {
  const catalog = options.catalog ?? buildCatalog({ seed: options.seed });
  const common = {
    catalog,
    clock: options.clock,
    seed: options.seed,
    ...(options.roomsPerNight !== undefined ? { roomsPerNight: options.roomsPerNight } : {}),
  };
  const faults = (id: SimulatedVendorId) => (options.faults?.[id] ? { faults: options.faults[id] } : {});
  const byId = {
    "vendor-a": new VendorA({ ...common, ...faults("vendor-a") }),
    "vendor-b": new VendorB({ ...common, ...faults("vendor-b") }),
    "vendor-c": new VendorC({ ...common, ...faults("vendor-c") }),
  };
  return { catalog, all: Object.values(byId), byId };
}
