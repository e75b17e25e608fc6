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
