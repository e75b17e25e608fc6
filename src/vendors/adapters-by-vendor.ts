/** The wire shapes the service speaks, by vendor id; a tenant's account names one of these. */
import { vendorAAdapter } from "./vendor-a-adapter.js";
import type { VendorAdapter } from "./vendor-adapter.js";
import { vendorBAdapter } from "./vendor-b-adapter.js";
import { vendorCAdapter } from "./vendor-c-adapter.js";

export const VENDOR_ADAPTERS: Readonly<Record<string, VendorAdapter>> = {
  [vendorAAdapter.vendor]: vendorAAdapter,
  [vendorBAdapter.vendor]: vendorBAdapter,
  [vendorCAdapter.vendor]: vendorCAdapter,
};
