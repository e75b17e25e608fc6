import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpPoster } from "../../services/vendor-sim/signed-callback.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server answering `status` that keeps what it was sent and counts its connections. */
async function receiver(status: number) {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  let connections = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callbacks`, received, connections: () => connections };
}

describe("a simulated provider's callback poster", () => {
  it("posts the body with the given headers and resolves with the answer's status", async () => {
    const service = await receiver(202);
    const body = JSON.stringify({ eventId: "evt-1", type: "driver-assigned" });

    const status = await httpPoster(
      service.url,
      { "content-type": "application/json", "x-vendor-event-id": "evt-1" },
      body,
    );

    expect(status).toBe(202);
    expect(service.received).toEqual([
      {
        headers: expect.objectContaining({
          "x-vendor-event-id": "evt-1",
          "content-type": "application/json",
        }),
        body,
      },
    ]);
  });

  it("sends one callback after another over the connection it kept", async () => {
    const service = await receiver(500);
    expect(await httpPoster(service.url, {}, "{}")).toBe(500);
    expect(await httpPoster(service.url, {}, "{}")).toBe(500);
    expect(service.connections()).toBe(1);
  });

  it("rejects when nothing answers", async () => {
    const service = await receiver(200);
    await closers.pop()!();
    await expect(httpPoster(service.url, {}, "{}")).rejects.toThrow();
  });
});
