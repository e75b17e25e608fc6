/**
 * Three regional instances (real processes, each with its REGION) behind the multi-region virtual
 * host: a tenant goes to the nearest healthy region, its data stays where it was written, and
 * when that region's process is killed the next request is served by the next nearest region.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningRegionRouter, startRegionRouter } from "../../services/region-router/region-router.js";
import { loadRouterSettings } from "../../services/region-router/router-settings.js";
import {
  DEMO_REGIONS,
  type RegionalInstance,
  routerRegionsSetting,
  startRegionalInstance,
} from "../../scripts/regional-instances.js";
import { demoPartnerRegistrations } from "../../src/demo/demo-partners.js";
import { freePort, requestToken } from "../support/platform.js";
import { push } from "./cases-fixtures.js";

/** Lisbon: Europe is nearest, then North America, then South America. */
const ROUTER_LOCATION = "38.72,-9.14";

let instances: RegionalInstance[] = [];
let router: RunningRegionRouter | undefined;
let base: string;
let partnerToken: string;

beforeAll(async () => {
  const routerPort = await freePort();
  base = `http://127.0.0.1:${routerPort}`;
  const specs = await Promise.all(
    DEMO_REGIONS.map(async (spec) => ({ ...spec, port: await freePort(), passengerPort: await freePort() })),
  );
  const [identity, ...others] = specs as [(typeof specs)[0], ...typeof specs];
  const first = await startRegionalInstance(identity, base, undefined);
  instances = [
    first,
    ...(await Promise.all(others.map((spec) => startRegionalInstance(spec, base, first.url)))),
  ];
  router = await startRegionRouter(
    loadRouterSettings({
      ROUTER_REGIONS: routerRegionsSetting(instances),
      ROUTER_HOSTS: "127.0.0.1=na,eu,sa;vq.global.localhost=eu",
      ROUTER_LOCATION,
      ROUTER_IDENTITY_REGION: identity.name,
      ROUTER_PORT: String(routerPort),
      ROUTER_HEALTH_INTERVAL_MS: "200",
    }),
  );
  const skyhub = demoPartnerRegistrations(Date.now()).find((r) => r.clientId === "skyhub-zx")!;
  partnerToken = await requestToken(base, {
    grant_type: "client_credentials",
    client_id: skyhub.clientId,
    client_secret: skyhub.clientSecret,
    audience: `${base}/partner/v1`,
  });
}, 180_000);

afterAll(async () => {
  await router?.close();
  for (const instance of instances) instance.process.kill("SIGKILL");
});

function get(path: string) {
  return fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${partnerToken}` } });
}

async function regionOfVersion(): Promise<{ served: string | null; region: string }> {
  const response = await get("/version");
  expect(response.status).toBe(200);
  return {
    served: response.headers.get("x-served-region"),
    region: ((await response.json()) as { region: string }).region,
  };
}

/** A request on another virtual host (fetch cannot set Host). */
function statusOnHost(host: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, path, headers: { Host: host } },
      (response) => {
        let body = "";
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("the multi-region virtual host", () => {
  it("sends the tenant to the nearest healthy region, with tokens of the shared identity provider", async () => {
    expect(await regionOfVersion()).toEqual({ served: "eu", region: "eu" });
  });

  it("keeps a tenant's data in the region that wrote it, and fails over when that region dies", async () => {
    const pushed = await fetch(`${base}/partner/v1/disruptions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${partnerToken}`, "Content-Type": "application/json" },
      body: JSON.stringify(push("regions-1")),
    });
    expect(pushed.status).toBe(202);
    expect(pushed.headers.get("x-served-region")).toBe("eu");
    const { caseUrn } = (await pushed.json()) as { caseUrn: string };
    expect((await get(`/partner/v1/cases/${encodeURIComponent(caseUrn)}`)).status).toBe(200);

    const europe = instances.find((instance) => instance.spec.name === "eu")!;
    europe.process.kill("SIGKILL");
    await new Promise((resolve) => europe.process.once("exit", resolve));

    // The first request after the kill is already answered, by the next nearest region.
    expect(await regionOfVersion()).toEqual({ served: "na", region: "na" });
    // The case was written in Europe and stays there: North America does not have it.
    const elsewhere = await get(`/partner/v1/cases/${encodeURIComponent(caseUrn)}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    await vi.waitFor(() => expect(router?.health.healthy("eu")).toBe(false));
    // A host served by Europe alone has no healthy region left: a 503 problem, not a hang.
    const stranded = await statusOnHost("vq.global.localhost", "/version");
    expect(stranded.status).toBe(503);
    expect(JSON.parse(stranded.body)).toMatchObject({
      status: 503,
      type: expect.stringMatching(/no-healthy-region$/),
    });
  });

  it("answers a host it does not serve with a 404 problem", async () => {
    const unknown = await statusOnHost("nobody.example", "/version");
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({
      status: 404,
      type: expect.stringMatching(/virtual-host$/),
    });
  });
});
