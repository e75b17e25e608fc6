import type { Context } from "koa";

/**
 * The passenger host is a per-tenant subdomain (spec 1); the tenant is read from the host name the
 * client connected to, which decides which airline's sessions the request may carry.
 *
 * - The name comes from the request's own `Host` header (`:authority` on HTTP/2), never from
 *   `X-Forwarded-Host`: anyone can send that header, and trusting it let a session of one airline
 *   be presented on another airline's host as if it were its own. A proxy in front of this host
 *   passes `Host` through (nginx `proxy_set_header Host $host`, which most ingresses do).
 * - `vq.localhost.` (the fully qualified form, trailing dot) is the same host as `vq.localhost`:
 *   browsers and curl send both to the same place, so both name the same tenant.
 * - `fallback` serves a host in no airline's name (a bare `localhost` on the embedded default);
 *   a host that is some airline's name never falls back.
 */
export function tenantOfHost(hosts: ReadonlyMap<string, string>, fallback?: string) {
  return (ctx: Context): string | undefined => {
    const name = hostNameOf(ctx);
    return name === undefined ? fallback : (hosts.get(name) ?? fallback);
  };
}

/** The host name of the request (lower case, no port, no trailing dot), from `Host` alone. */
export function hostNameOf(ctx: Context): string | undefined {
  const header = ctx.req.headers[":authority"] ?? ctx.req.headers.host;
  const authority = Array.isArray(header) ? header[0] : header;
  if (!authority) return undefined;
  // An IPv6 literal keeps its brackets; anything after the last `:` past them is the port. Read by
  // position rather than by regular expressions: every passenger request asks.
  let end: number;
  if (authority.startsWith("[")) end = authority.indexOf("]") + 1;
  else {
    const colon = authority.lastIndexOf(":");
    end = colon !== -1 && isPort(authority, colon + 1) ? colon : authority.length;
  }
  while (end > 0 && authority.charCodeAt(end - 1) === DOT) end--;
  return authority.slice(0, end).toLowerCase();
}

const DOT = 0x2e;

/** Only digits (or nothing) from `from` to the end: a port, as `:\d*$` reads it. */
function isPort(authority: string, from: number): boolean {
  for (let i = from; i < authority.length; i++) {
    const code = authority.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * Each tenant's passenger site: `passengerBaseUrl` on the first host name the map gives the tenant
 * (scheme, port and path kept), or `passengerBaseUrl` itself for a tenant with no host of its own.
 */
export function passengerSites(hosts: ReadonlyMap<string, string>, passengerBaseUrl: string) {
  const hostOf = new Map<string, string>();
  for (const [host, tenant] of hosts) if (!hostOf.has(tenant)) hostOf.set(tenant, host);
  return (tenant: string): string => {
    const host = hostOf.get(tenant);
    if (host === undefined) return passengerBaseUrl;
    const url = new URL(passengerBaseUrl);
    url.hostname = host;
    return url.href.replace(/\/$/, "");
  };
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
    hosts.set(host.toLowerCase().replace(/\.+$/, ""), tenant);
  }
  return hosts;
}
