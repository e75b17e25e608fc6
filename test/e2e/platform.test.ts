import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(async () => {
  await t?.close();
});

describe("the composed platform over HTTP", () => {
  it("answers GET /version to any valid token and refuses anonymous callers", async () => {
    const anonymous = await t.call("GET", "/version");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(anonymous.headers.get("content-type")).toContain("application/problem+json");

    for (const token of [await t.operatorToken("operator@zx.demo"), await t.partnerToken("skyhub-zx")]) {
      const response = await t.call("GET", "/version", token);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ build: "dev", apiVersion: "v1", region: "local" });
      expect(response.headers.get("traceparent")).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    }
  });

  it("audits an authenticated write and lets FINANCE_AUDIT and supervisors read the trail, tenant-scoped", async () => {
    const admin = await t.operatorToken("admin@zx.demo");
    const added = await t.call("POST", "/v1/admin/revocations", admin, {
      kind: "subject",
      value: "urn:user:someone",
      reason: "lost laptop",
    });
    expect(added.status).toBe(201);

    const finance = await t.operatorToken("finance@zx.demo");
    const trail = await t.call("GET", `/audit?entity=user&action=revocation.add`, finance);
    expect(trail.status).toBe(200);
    const page = (await trail.json()) as { items: Array<Record<string, unknown>> };
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      action: "revocation.add",
      entityUrn: "urn:user:someone",
      tenant: "urn:airline:ZX",
      actorUrn: expect.stringMatching(/^urn:user:/),
      payloadHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      outcome: { status: 201 },
    });

    const otherAirline = await t.operatorToken("finance@vq.demo");
    const isolated = (await (await t.call("GET", `/audit?entity=user`, otherAirline)).json()) as {
      items: unknown[];
    };
    expect(isolated.items).toEqual([]);

    const operator = await t.operatorToken("operator@zx.demo");
    expect((await t.call("GET", "/audit", operator)).status).toBe(403);
  });

  it("pages the trail of partner reads with cursors, and refuses a cursor it did not issue with 400", async () => {
    const partner = await t.partnerToken("skyhub-zx");
    for (let i = 0; i < 5; i++) expect((await t.call("GET", "/version", partner)).status).toBe(200);
    const finance = await t.operatorToken("finance@zx.demo");
    const read = async (query: string) => {
      const response = await t.call("GET", `/audit?action=getVersion&limit=2${query}`, finance);
      expect(response.status).toBe(200);
      return (await response.json()) as {
        items: Array<{ urn: string; at: string }>;
        nextCursor: string | null;
        hasMore: boolean;
      };
    };
    const ids: string[] = [];
    const times: string[] = [];
    let page = await read("");
    times.push(...page.items.map((e) => e.at));
    ids.push(...page.items.map((e) => e.urn));
    while (page.hasMore) {
      const next = page.nextCursor!;
      page = await read(`&cursor=${encodeURIComponent(next)}`);
      // The same cursor gives the same page again.
      expect((await read(`&cursor=${encodeURIComponent(next)}`)).items).toEqual(page.items);
      ids.push(...page.items.map((e) => e.urn));
      times.push(...page.items.map((e) => e.at));
    }
    expect(ids.length).toBeGreaterThanOrEqual(5);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...times].sort()).toEqual(times);

    const refused = await t.call("GET", "/audit?cursor=not-a-cursor", finance);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
  });

  it("publishes an OpenAPI document per surface and a docs page", async () => {
    for (const surface of ["operator", "partner", "passenger"]) {
      const response = await t.call("GET", `/openapi/${surface}/v1.json`);
      expect(response.status).toBe(200);
      const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(document.openapi).toBe("3.1.0");
    }
    const operatorDoc = (await (await t.call("GET", "/openapi/operator/v1.json")).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(operatorDoc.paths)).toEqual(
      expect.arrayContaining(["/version", "/v1/audit/case/{caseUrn}", "/audit"]),
    );
    const passengerDoc = (await (await t.call("GET", "/openapi/passenger/v1.json")).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(passengerDoc.paths)).toContain("/v1/auth/pnr-login");
    const docs = await t.call("GET", "/docs");
    expect(docs.headers.get("content-type")).toContain("text/html");
    // Swagger UI from the npm package, served here: every file the page loads comes from this host.
    const page = await docs.text();
    const loaded = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    expect(loaded).toEqual(
      expect.arrayContaining([
        "/docs/assets/swagger-ui-bundle.js",
        "/docs/assets/swagger-ui.css",
        "/docs/assets/docs.js",
      ]),
    );
    for (const path of loaded) {
      expect(path.startsWith("/docs/assets/")).toBe(true);
      const asset = await t.call("GET", path);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toMatch(
        path.endsWith(".css") ? /^text\/css/ : /^text\/javascript/,
      );
      const text = await asset.text();
      if (path.endsWith("swagger-ui-bundle.js")) expect(text).toContain("SwaggerUIBundle");
      if (path.endsWith("docs.js")) {
        for (const surface of ["operator", "partner", "passenger"])
          expect(text).toContain(`/openapi/${surface}/v1.json`);
        expect(text).toContain("validatorUrl: null");
      }
    }
    const unknown = await t.call("GET", "/docs/assets/package.json");
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");
  });

  it("publishes the passenger document on the passenger host too, at the same path, with no token", async () => {
    const response = await fetch(`${t.passengerBase}/openapi/passenger/v1.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      servers: Array<{ url: string }>;
      paths: Record<string, unknown>;
    };
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: t.platform.config.passengerBaseUrl }]);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/v1/auth/pnr-login", "/openapi/passenger/v1.json"]),
    );
    // The operator and partner documents stay on the operator host.
    expect((await fetch(`${t.passengerBase}/openapi/operator/v1.json`)).status).toBe(404);
  });
});
