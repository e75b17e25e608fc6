import Koa from "koa";
import mount from "koa-mount";
import { TOKENS } from "../../src/runtime/tokens.js";
import type { ModuleContext } from "../module.js";
import type { VendorSimulators } from "./simulators.js";
import { MessageProviderSimulators } from "./message-provider.js";
import { messageProviderRoutes } from "./message-provider-app.js";
import { RideProviderSimulator } from "./ride-provider.js";
import { rideProviderRoutes } from "./ride-provider-app.js";
import { createVendorSimApp } from "./vendor-sim-app.js";
import { WalletIssuerSimulator } from "./wallet-issuer.js";
import { walletIssuerRoutes } from "./wallet-issuer-app.js";

/**
 * The seed of the demo inventory: the same hotels, rooms and prices on every start, and in every
 * process: the API and worker apps build their hotel catalog from it (src/main.ts) while this app
 * sells those hotels.
 */
export const DEMO_INVENTORY_SEED = "disruption-demo";

/**
 * In the distributed runtime the vendor simulators are an app of their own (app id vendor-sim),
 * serving each vendor's HTTP API under `/<vendor id>`; the embedded default runs them in process.
 * Either way they are the platform's one set (src/main.ts builds it from DEMO_INVENTORY_SEED).
 */
export function vendorSimulatorsApp(context: ModuleContext, services: ReadonlySet<string>): Koa | undefined {
  if (!services.has("vendor-sim")) return undefined;
  const hotels = createVendorSimApp(context.container.resolve<VendorSimulators>(TOKENS.vendorSimulators).all);
  // The notification providers (`/sms`, `/messaging`) beside the hotel vendors.
  const app = new Koa();
  app.use(messageProviderRoutes(context.container.resolve(MessageProviderSimulators)));
  // The wallet issuer (`/wallet-sim`).
  app.use(walletIssuerRoutes(context.container.resolve(WalletIssuerSimulator)));
  // The ride provider of ground transport (`/rides`).
  app.use(rideProviderRoutes(context.container.resolve(RideProviderSimulator)));
  app.use(mount(hotels));
  return app;
}
