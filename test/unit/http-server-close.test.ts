import Koa from "koa";
import { describe, expect, it } from "vitest";
import { listen } from "../../services/http-server.js";
import { deferred } from "../support/deferred.js";

describe("closing the HTTP server", () => {
  it("lets a request in flight finish, then drops its keep-alive connection instead of holding the close", async () => {
    const release = deferred();
    const arrived = deferred();
    const app = new Koa();
    app.use(async (ctx) => {
      arrived.resolve();
      await release.promise;
      ctx.body = "answered";
    });
    const server = await listen(app, "127.0.0.1", 0);
    const answer = fetch(server.url).then((response) => response.text());
    await arrived.promise;

    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    release.resolve();
    expect(await answer).toBe("answered");
    // Without the sweep the idle keep-alive connection holds the server for its 65 s timeout,
    // past this test's own timeout.
    await closing;
    expect(closed).toBe(true);
  });
});

describe("closing the HTTP server with a request that never ends", () => {
  it("cuts the connection once the grace is over, so the close ends", async () => {
    const arrived = deferred();
    const app = new Koa();
    app.use(async () => {
      arrived.resolve();
      await new Promise(() => {});
    });
    const server = await listen(app, "127.0.0.1", 0, { closeGraceMs: 50 });
    const answer = fetch(server.url).then(
      () => "answered",
      () => "cut",
    );
    await arrived.promise;
    // Without the cut the busy connection holds the close for good, past this test's timeout.
    await server.close();
    expect(await answer).toBe("cut");
  });
});
