/**
 * Which wallet issuer each tenant uses and how it is reached (spec 5.6: credentials are
 * tenant-managed; a per-tenant mode flag is mock or live). Mock: the simulated issuer, in process on
 * the embedded default or in the vendor-sim app; live: the issuer's own base URL. One client per
 * tenant, so each keeps its token between calls.
 */
import type { Clock } from "../runtime/clock.js";
import { httpTransport } from "./http-transport.js";
import type { VendorTransport } from "./vendor-transport.js";
import { WalletIssuerClient } from "./wallet-issuer-client.js";
import type { WalletIssuer, WalletIssuerAccount, WalletIssuers } from "./wallet-issuer-port.js";

export interface TenantWalletIssuersOptions {
  /** Undefined: the tenant has no wallet issuer (no cards are issued for it). */
  accountOf: (tenant: string) => WalletIssuerAccount | undefined;
  /** Mock mode: where the simulated issuer answers. */
  mockTransportOf: (vendor: string) => VendorTransport;
  clock: Clock;
}

export class TenantWalletIssuers implements WalletIssuers {
  private readonly clients = new Map<string, WalletIssuer>();

  constructor(private readonly options: TenantWalletIssuersOptions) {}

  accountOf(tenant: string): WalletIssuerAccount | undefined {
    return this.options.accountOf(tenant);
  }

  /** The tenant's issuer; undefined when it has none. */
  issuerOf(tenant: string): WalletIssuer | undefined {
    const account = this.options.accountOf(tenant);
    if (!account) return undefined;
    const key = `${tenant}\u0000${JSON.stringify(account)}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new WalletIssuerClient({
        vendor: account.vendor,
        transport: this.transport(tenant, account),
        credentials: account.credentials,
        clock: this.options.clock,
      });
      this.clients.set(key, client);
    }
    return client;
  }

  private transport(tenant: string, account: WalletIssuerAccount): VendorTransport {
    if (account.mode === "mock") return this.options.mockTransportOf(account.vendor);
    if (!account.baseUrl)
      throw new Error(`tenant ${tenant}: wallet issuer ${account.vendor} is live but has no baseUrl`);
    return httpTransport(account.baseUrl);
  }
}
