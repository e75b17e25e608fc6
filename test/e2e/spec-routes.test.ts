/**
 * Every route the specification names (test/support/spec-routes.json, the list of spec sections 4.x
 * by surface) is published in its surface's OpenAPI document, under the same method and path
 * (parameter names aside: the spec writes `{case_urn}`, the documents `{caseUrn}`).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

interface SpecRoute {
  method: string;
  path: string;
  surface: "operator" | "partner" | "passenger";
}

const SPEC_ROUTES = JSON.parse(
  readFileSync(new URL("../support/spec-routes.json", import.meta.url), "utf8"),
) as SpecRoute[];

/** The path with every parameter reduced to `{}`, so names do not matter. */
function shape(path: string): string {
  return path.replace(/\{[^}]+\}/g, "{}").replace(/<[^>]+>/g, "{}");
}

let t: TestPlatform;
const published = new Map<string, Set<string>>();

beforeAll(async () => {
  t = await startTestPlatform();
  for (const surface of ["operator", "partner", "passenger"]) {
    const document = (await (await t.call("GET", `/openapi/${surface}/v1.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const routes = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) routes.add(`${method.toUpperCase()} ${shape(path)}`);
    }
    published.set(surface, routes);
  }
});
afterAll(async () => {
  await t?.close();
});

describe("the routes of the specification", () => {
  it("are each published in their surface's OpenAPI document", () => {
    const missing = SPEC_ROUTES.filter(
      (route) => !published.get(route.surface)?.has(`${route.method} ${shape(route.path)}`),
    ).map((route) => `${route.surface}: ${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    expect(SPEC_ROUTES.length).toBeGreaterThan(100);
  });
});
