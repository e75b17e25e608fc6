import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startupBanner } from "../../src/main.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(async () => {
  await t?.close();
});

describe("health and readiness without a token", () => {
  it("answers /healthz and /readyz on the operator and the passenger host with no token", async () => {
    for (const base of [t.base, t.passengerBase]) {
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.text()).toBe("ok");

      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: "ready",
        checks: [
          { name: "state store", ready: true },
          { name: "document store", ready: true },
          { name: "counter store", ready: true },
        ],
      });
    }
  });

  it("answers 503 with a problem naming the store that does not answer", async () => {
    const refused = vi.spyOn(t.platform.runtime.documents, "collection").mockImplementation(() => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:27017");
    });
    try {
      for (const base of [t.base, t.passengerBase]) {
        const response = await fetch(`${base}/readyz`);
        expect(response.status).toBe(503);
        expect(response.headers.get("content-type")).toContain("application/problem+json");
        const problem = (await response.json()) as Record<string, unknown>;
        expect(problem).toMatchObject({
          type: "https://errors.svc.example/v1/unavailable/not-ready",
          status: 503,
          detail: "Not ready: document store did not answer",
          instance: expect.stringMatching(/^urn:trace:/),
          notReady: ["document store"],
          checks: [
            { name: "state store", ready: true },
            { name: "document store", ready: false },
            { name: "counter store", ready: true },
          ],
        });
        expect(JSON.stringify(problem)).not.toContain("ECONNREFUSED");
        // Liveness says nothing of the stores.
        expect((await fetch(`${base}/healthz`)).status).toBe(200);
      }
    } finally {
      refused.mockRestore();
    }
    expect((await fetch(`${t.base}/readyz`)).status).toBe(200);
  });

  it("lists both routes, public, in each surface's OpenAPI document", async () => {
    for (const surface of ["operator", "partner", "passenger"]) {
      const document = (await (await fetch(`${t.base}/openapi/${surface}/v1.json`)).json()) as {
        paths: Record<string, { get?: { security: unknown[]; responses: Record<string, unknown> } }>;
      };
      for (const path of ["/healthz", "/readyz"]) {
        expect(document.paths[path]?.get?.security, `${surface} ${path}`).toEqual([]);
      }
      expect(Object.keys(document.paths["/readyz"]!.get!.responses)).toEqual(
        expect.arrayContaining(["200", "503"]),
      );
    }
  });

  it("start-up banner: what answers without a token first, at the localhost URLs the token audiences use", () => {
    const banner = startupBanner(t.platform);
    const { publicBaseUrl, passengerBaseUrl } = t.platform.config;
    expect(publicBaseUrl).toBe(t.base);
    expect(banner).toContain(`GET ${t.base}/healthz, GET ${t.base}/readyz`);
    expect(banner).toContain(`${t.base}/docs`);
    expect(banner).toContain(`${passengerBaseUrl}/v1`);
    expect(banner).toContain("npm run -s demo:credentials -- --commands");
    expect(banner).toContain("npm run -s passenger:login");
    expect(banner.indexOf("/healthz")).toBeLessThan(banner.indexOf("/v1"));
    expect(banner).not.toContain("127.0.0.1");
    expect(banner).not.toContain("/version");
    expect(t.credentials.audiences.operator.startsWith(publicBaseUrl)).toBe(true);
  });
});
