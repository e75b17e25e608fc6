import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import { demoClientFor } from "../../services/vendor-sim/vendor-simulator.js";
import type { Clock } from "../../src/runtime/clock.js";
import { VENDOR_ADAPTERS } from "../../src/vendors/adapters-by-vendor.js";
import { VendorClient, type VendorClientOptions } from "../../src/vendors/vendor-client.js";
import type { VendorTransport } from "../../src/vendors/vendor-transport.js";

/** A client of a simulated vendor with its own adapter and demo credentials, over `transport`. */
export function demoVendorClient(
  vendor: SimulatedVendorId,
  transport: VendorTransport,
  clock: Clock,
  options: Partial<VendorClientOptions> = {},
): VendorClient {
  return new VendorClient({
    adapter: VENDOR_ADAPTERS[vendor]!,
    transport,
    credentials: demoClientFor(vendor),
    clock,
    ...options,
  });
}
