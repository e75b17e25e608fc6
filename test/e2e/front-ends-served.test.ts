import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSENGER_APP_CSP } from "../../src/http/front-end.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

/** The built front ends as their hosts serve them (src/http/front-end.ts). */
describe("front ends served by their APIs", () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p?.close());

  it("serves the console's page for each of its screens, revalidated, with a strict policy", async () => {
    for (const path of ["/console/", "/console/cases", "/console/callback?code=x"]) {
      const response = await fetch(`${p.base}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(await response.text()).toContain('src="/console/assets/');
    }
    expect((await fetch(`${p.base}/console?x=1`, { redirect: "manual" })).headers.get("location")).toBe(
      "/console/?x=1",
    );
  });

  it("caches hashed assets for good and answers a missing file with a 404 problem", async () => {
    const page = await (await fetch(`${p.base}/console/`)).text();
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(asset).toBeDefined();
    const response = await fetch(`${p.base}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
    const missing = await fetch(`${p.base}/console/assets/missing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await fetch(`${p.base}/console/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${p.base}/console/assets/%E0%A4%A.js`)).status).toBe(404);
    expect((await fetch(`${p.passengerBase}/%E0%A4%A`)).status).toBe(404);
  });

  it("serves the passenger app at the passenger host's root and leaves its API alone", async () => {
    const page = await fetch(`${p.passengerBase}/?token=abc`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('src="/assets/');
    // Its own policy: workers of the build only (the captcha's), no blob: workers, no WebAssembly.
    const policy = page.headers.get("content-security-policy");
    expect(policy).toBe(PASSENGER_APP_CSP);
    expect(policy).toContain("worker-src 'self';");
    expect(policy).not.toMatch(/blob:|wasm-unsafe-eval|unsafe-eval/);
    const manifest = await fetch(`${p.passengerBase}/manifest.webmanifest`);
    expect(manifest.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    expect(await manifest.json()).toMatchObject({ start_url: "/", display: "standalone" });
    const worker = await fetch(`${p.passengerBase}/sw.js`);
    expect(worker.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(worker.headers.get("cache-control")).toBe("no-cache");
    const api = await fetch(`${p.passengerBase}/v1/me`);
    expect(api.status).toBe(401);
    expect(api.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await fetch(`${p.passengerBase}/v1`)).headers.get("content-type")).toMatch(/problem/);
  });
});
