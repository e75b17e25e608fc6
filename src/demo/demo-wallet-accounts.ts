import type { WalletIssuerAccount } from "../vendors/wallet-issuer-port.js";
import { DEMO_AIRLINES } from "./demo-airlines.js";

/** The simulated wallet issuer's id: the `{vendor}` of `/v1/wallet/webhooks/{vendor}`. */
export const DEMO_WALLET_VENDOR = "wallet-sim";

/** What a demo airline's wallet account may put on cards, minor units (a generous demo pool). */
export const DEMO_WALLET_FUNDING_POOL = 50_000_000;

/**
 * Each demo airline's account at the simulated wallet issuer (spec 5.6: tenant-managed credentials,
 * mode mock): the same on every start, so `npm run demo:credentials` can print the webhook secret
 * an integrator signs a test webhook with.
 */
export function demoWalletAccounts(): Map<string, WalletIssuerAccount> {
  return new Map(
    DEMO_AIRLINES.map((airline) => {
      const code = airline.code.toLowerCase();
      return [
        airline.airlineUrn,
        {
          vendor: DEMO_WALLET_VENDOR,
          mode: "mock",
          credentials: { clientId: `demo-wallet-${code}`, clientSecret: `demo-wallet-${code}-secret` },
          webhookSecret: `demo-wallet-webhook-${code}`,
        },
      ] as const;
    }),
  );
}
