/**
 * Three regional instances (spec part 1: North America, Europe, South America), each a process of
 * its own with its REGION, behind one virtual host: what `npm run regions` runs and the regions
 * test kills. Every instance has its own stores (memory here, or Redis/MongoDB of its own region);
 * they share the virtual host's base URL (so tokens carry the same audiences everywhere) and one
 * identity provider, the first region's, as production shares one external issuer.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface RegionalInstanceSpec {
  name: string;
  port: number;
  passengerPort: number;
  /** Where the region's data centre is: the router sends a tenant to the nearest healthy one. */
  location: { lat: number; lon: number };
}

export const DEMO_REGIONS: readonly RegionalInstanceSpec[] = [
  { name: "na", port: 8180, passengerPort: 8181, location: { lat: 39.04, lon: -77.49 } },
  { name: "eu", port: 8190, passengerPort: 8191, location: { lat: 50.11, lon: 8.68 } },
  { name: "sa", port: 8200, passengerPort: 8201, location: { lat: -23.55, lon: -46.63 } },
];

export interface RegionalInstance {
  spec: RegionalInstanceSpec;
  url: string;
  process: ChildProcess;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Starts one instance and waits until it is ready (its /readyz answers 200). */
export async function startRegionalInstance(
  spec: RegionalInstanceSpec,
  virtualHostUrl: string,
  identityUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<RegionalInstance> {
  const url = `http://127.0.0.1:${spec.port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      RUNTIME: "embedded",
      REGION: spec.name,
      HOST: "127.0.0.1",
      PORT: String(spec.port),
      PASSENGER_PORT: String(spec.passengerPort),
      PUBLIC_BASE_URL: virtualHostUrl,
      LOG_LEVEL: "warn",
      // Regions other than the identity's trust its issuer and read its keys directly.
      ...(identityUrl
        ? { OIDC_ISSUER: `${virtualHostUrl}/auth`, OIDC_JWKS_URI: `${identityUrl}/auth/jwks` }
        : {}),
      ...env,
    },
  });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`region ${spec.name} exited with ${code} while starting`))),
  );
  await Promise.race([untilReady(url), exited]);
  child.removeAllListeners("exit");
  return { spec, url, process: child };
}

async function untilReady(url: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) })).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not become ready`);
}

/** The router's ROUTER_REGIONS value for `instances`. */
export function routerRegionsSetting(instances: readonly RegionalInstance[]): string {
  return instances
    .map(({ spec, url }) => `${spec.name}=${url}@${spec.location.lat},${spec.location.lon}`)
    .join(";");
}
