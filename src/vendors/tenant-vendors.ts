/**
 * Which inventory vendors a tenant uses and how they are reached (spec 5.6: credentials are
 * tenant-managed; a per-tenant mode flag is mock or live). Mock: the simulators, in-process on the
 * embedded default or the vendor-sim app in the distributed runtime. Live: the vendor's real base
 * URL over the same HTTP transport. Clients are kept per tenant and account, so each keeps its
 * token, buckets and breakers between calls.
 */
import type { Clock } from "../runtime/clock.js";
import { httpTransport } from "./http-transport.js";
import type { ClientCredentials, VendorAdapter } from "./vendor-adapter.js";
import { VENDOR_ADAPTERS } from "./adapters-by-vendor.js";
import { VendorClient, type VendorLimits } from "./vendor-client.js";
import type { InventoryVendor, InventoryVendors } from "./vendor-port.js";
import type { VendorTransport } from "./vendor-transport.js";

export type VendorMode = "mock" | "live";

export interface VendorAccount {
  /** A key of VENDOR_ADAPTERS, e.g. `vendor-a`. */
  vendor: string;
  enabled: boolean;
  credentials: ClientCredentials;
  /** Live mode only: the vendor's API base URL. */
  baseUrl?: string;
  /** Tenant-configured calls per second (spec 8.1); defaults 10 inventory, 5 booking. */
  limits?: Partial<VendorLimits>;
}

export interface TenantVendorSettings {
  mode: VendorMode;
  accounts: VendorAccount[];
}

export interface TenantInventoryVendorsOptions {
  settingsOf: (tenant: string) => TenantVendorSettings;
  /** Mock mode: where a vendor's simulator answers (in-process, or the vendor-sim app over HTTP). */
  mockTransportOf: (vendor: string) => VendorTransport;
  clock: Clock;
  adapters?: Readonly<Record<string, VendorAdapter>>;
  /** Client settings shared by every account (retry, breaker, timeouts, jitter source). */
  client?: Pick<ConstructorParameters<typeof VendorClient>[0], "retry" | "breaker" | "timeoutsMs" | "random">;
}

export class TenantInventoryVendors implements InventoryVendors {
  private readonly clients = new Map<string, VendorClient>();

  constructor(private readonly options: TenantInventoryVendorsOptions) {}

  forTenant(tenant: string): InventoryVendor[] {
    const settings = this.options.settingsOf(tenant);
    return settings.accounts
      .filter((account) => account.enabled)
      .map((account) => this.client(tenant, settings.mode, account));
  }

  private client(tenant: string, mode: VendorMode, account: VendorAccount): VendorClient {
    // Changed settings (new secret, base URL or limits) give a new client with fresh state.
    const key = `${tenant}\u0000${mode}\u0000${JSON.stringify(account)}`;
    const existing = this.clients.get(key);
    if (existing) return existing;
    const adapter = (this.options.adapters ?? VENDOR_ADAPTERS)[account.vendor];
    if (!adapter) throw new Error(`tenant ${tenant}: no adapter for vendor "${account.vendor}"`);
    const client = new VendorClient({
      adapter,
      transport: this.transport(tenant, mode, account),
      credentials: account.credentials,
      clock: this.options.clock,
      ...(account.limits ? { limits: account.limits } : {}),
      ...this.options.client,
    });
    this.clients.set(key, client);
    return client;
  }

  private transport(tenant: string, mode: VendorMode, account: VendorAccount): VendorTransport {
    if (mode === "mock") return this.options.mockTransportOf(account.vendor);
    if (!account.baseUrl)
      throw new Error(`tenant ${tenant}: vendor ${account.vendor} is live but has no baseUrl`);
    return httpTransport(account.baseUrl);
  }
}
