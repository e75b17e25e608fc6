/**
 * The region router's settings, from its environment:
 *
 *   ROUTER_REGIONS          name=url@lat,lon;...   the regional instances and where they are
 *   ROUTER_HOSTS            host=region,region;... each multi-region tenant's virtual host and
 *                                                  the regions it is deployed in (`*` for any host)
 *   ROUTER_LOCATION         lat,lon                where the router (the clients' edge) is
 *   ROUTER_IDENTITY_REGION  name                   the region whose identity provider issues
 *                                                  tokens for all (paths under /auth go there)
 *   ROUTER_PORT, ROUTER_HOST, ROUTER_HEALTH_INTERVAL_MS
 */
import type { Coordinates } from "../../src/domain/geo.js";
import type { Region } from "./region-choice.js";

export interface RouterSettings {
  regions: Region[];
  /** Virtual host (lower case, no port) to the names of the regions that serve it. */
  hosts: Map<string, string[]>;
  location: Coordinates;
  identityRegion: string | undefined;
  host: string;
  port: number;
  healthIntervalMs: number;
}

export function loadRouterSettings(env: NodeJS.ProcessEnv): RouterSettings {
  const regions = entries(env.ROUTER_REGIONS, "ROUTER_REGIONS").map(([name, value]) => {
    const at = value.lastIndexOf("@");
    if (at < 0) throw new Error(`ROUTER_REGIONS: ${name} needs url@lat,lon`);
    return {
      name,
      url: value.slice(0, at).replace(/\/+$/, ""),
      location: coordinates(value.slice(at + 1), name),
    };
  });
  const known = new Set(regions.map((region) => region.name));
  const hosts = new Map(
    entries(env.ROUTER_HOSTS, "ROUTER_HOSTS").map(([host, value]) => {
      const names = value.split(",").map((name) => name.trim());
      for (const name of names) if (!known.has(name)) throw new Error(`ROUTER_HOSTS: unknown region ${name}`);
      return [host.toLowerCase(), names] as const;
    }),
  );
  const identityRegion = env.ROUTER_IDENTITY_REGION || undefined;
  if (identityRegion && !known.has(identityRegion)) {
    throw new Error(`ROUTER_IDENTITY_REGION: unknown region ${identityRegion}`);
  }
  return {
    regions,
    hosts,
    location: coordinates(env.ROUTER_LOCATION || "0,0", "ROUTER_LOCATION"),
    identityRegion,
    host: env.ROUTER_HOST || "127.0.0.1",
    port: Number(env.ROUTER_PORT || 8070),
    healthIntervalMs: Number(env.ROUTER_HEALTH_INTERVAL_MS || 1_000),
  };
}

function entries(value: string | undefined, name: string): [string, string][] {
  if (!value) throw new Error(`${name} is required`);
  return value
    .split(";")
    .filter((entry) => entry.trim() !== "")
    .map((entry) => {
      const equals = entry.indexOf("=");
      if (equals < 0) throw new Error(`${name}: ${entry} is not name=value`);
      return [entry.slice(0, equals).trim(), entry.slice(equals + 1).trim()];
    });
}

function coordinates(value: string, name: string): Coordinates {
  const [lat, lon] = value.split(",").map(Number);
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) throw new Error(`${name}: ${value} is not lat,lon`);
  return { lat: lat as number, lon: lon as number };
}
