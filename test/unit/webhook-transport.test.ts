import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpWebhookTransport } from "../../services/webhooks/http-webhook-transport.js";

const servers: Server[] = [];
const transports: ReturnType<typeof httpWebhookTransport>[] = [];

afterEach(async () => {
  for (const transport of transports.splice(0)) await transport.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
}

function transport() {
  const created = httpWebhookTransport();
  transports.push(created);
  return created;
}

describe("the webhook transport (its own thread)", () => {
  it("POSTs the body with the headers given and answers the status", async () => {
    const seen: { method?: string; headers?: Record<string, unknown>; body?: string }[] = [];
    const url = await serve((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        seen.push({ method: req.method, headers: req.headers, body });
        res.writeHead(202).end("ignored");
      });
    });
    const answer = await transport().post(url, { "X-Svc-Event-Type": "webhook.test" }, '{"a":"é"}', 10_000);
    expect(answer).toEqual({ status: 202 });
    expect(seen[0]).toMatchObject({ method: "POST", body: '{"a":"é"}' });
    expect(seen[0]?.headers).toMatchObject({ "x-svc-event-type": "webhook.test", "content-length": "10" });
  });

  it("does not follow a redirect: the 3xx is the answer", async () => {
    const url = await serve((_req, res) => res.writeHead(302, { Location: "http://169.254.169.254/" }).end());
    expect(await transport().post(url, {}, "{}", 10_000)).toEqual({ status: 302 });
  });

  it("gives up on a receiver that does not answer within the timeout", async () => {
    const url = await serve(() => undefined);
    await expect(transport().post(url, {}, "{}", 200)).rejects.toThrow();
  });

  it("fails on a connection refused", async () => {
    const url = await serve(() => undefined);
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    await expect(transport().post(url, {}, "{}", 10_000)).rejects.toThrow();
  });
});
