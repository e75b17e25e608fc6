import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningServer } from "../../services/http-server.js";
import { frontEnd } from "../../src/http/front-end.js";
import { DEFAULT_ERRORS_URL, PROBLEM_CONTENT_TYPE } from "../../src/http/problem.js";
import { httpConventions } from "../../src/http/request-pipeline.js";

/** A front end whose build is missing (no `npm run build:ui` yet): its host says so, not a 500. */
describe("a front end that is not built", () => {
  let parent: string;
  let server: RunningServer;
  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), "front-end-"));
    const app = new Koa();
    app.use(httpConventions());
    app.use(
      frontEnd({ folder: join(parent, "dist", "ui", "console"), base: "/console/", apiPaths: ["/v1/"] }),
    );
    server = await listen(app, "127.0.0.1", 0);
  });
  afterAll(async () => {
    await server?.close();
    await rm(parent, { recursive: true, force: true });
  });

  it("answers its page and its screens with a 503 problem that says how to build it", async () => {
    for (const path of ["/console/", "/console/cases/urn%3Acase%3A1"]) {
      const response = await fetch(new URL(path, server.url));
      expect(response.status, path).toBe(503);
      expect(response.headers.get("content-type")).toBe(PROBLEM_CONTENT_TYPE);
      expect(await response.json()).toMatchObject({
        type: `${DEFAULT_ERRORS_URL}/unavailable/front-end-not-built`,
        status: 503,
        detail: expect.stringContaining("npm run build:ui"),
      });
    }
  });

  it("answers a missing file of the build with a 404, as a built front end does", async () => {
    const response = await fetch(new URL("/console/assets/index.js", server.url));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe(PROBLEM_CONTENT_TYPE);
  });
});
