import type { Context } from "koa";

/**
 * The passenger host is a per-tenant subdomain (spec 1); the tenant is read from the request's
 * host name. `fallback` serves a bare host (e.g. `localhost`) on the embedded default.
 */
export function tenantOfHost(hosts: ReadonlyMap<string, string>, fallback?: string) {
  return (ctx: Context): string | undefined => hosts.get(ctx.hostname.toLowerCase()) ?? fallback;
}

/** `zx.localhost=urn:airline:ZX,vq.localhost=urn:airline:VQ` → a host → tenant map. */
export function parseTenantHosts(value: string): Map<string, string> {
  const hosts = new Map<string, string>();
  for (const pair of value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [host, tenant] = pair.split("=").map((p) => p.trim());
    if (!host || !tenant?.startsWith("urn:airline:")) {
      throw new Error(`PASSENGER_TENANT_HOSTS entries look like host=urn:airline:XX, got "${pair}"`);
    }
    hosts.set(host.toLowerCase(), tenant);
  }
  return hosts;
}
