import { execFileSync } from "node:child_process";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: {
    type: string;
    occurred_at: string;
    tenant: string;
    case_urn?: string;
    correlation_urn: string;
    data: any;
  };
  receivedAt: number;
}

/**
 * A partner's endpoint on 127.0.0.1 that keeps every request as received and answers `status`
 * (changeable between requests).
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const state = { status: 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers, rawBody, body: JSON.parse(rawBody), receivedAt: Date.now() });
      res.writeHead(state.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(status: number) {
      state.status = status;
    },
    ofType: (type: string) => received.filter((r) => r.body.type === type),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The signature a receiver expects, computed by openssl, not by the product's signer: base64 of
 * HMAC-SHA256 over `timestamp.body` under `secret`.
 */
export function opensslSignature(secret: string, timestamp: string, rawBody: string): string {
  const digest = execFileSync("openssl", ["dgst", "-sha256", "-hmac", secret, "-binary"], {
    input: `${timestamp}.${rawBody}`,
  });
  return `sha256=${digest.toString("base64")}`;
}

/** The signatures a delivery carries (several while a secret is being rotated). */
export function signaturesOf(delivery: ReceivedWebhook): string[] {
  return String(delivery.headers["x-svc-signature"] ?? "")
    .split(",")
    .map((s) => s.trim());
}
