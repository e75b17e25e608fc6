/**
 * A partner's webhook receiver, as an integrator would write it (README "Webhooks"): it verifies
 * each delivery's signature and timestamp, drops repeats by event URN, and prints the events.
 *   WEBHOOK_SECRET=whsec_... npm run -s webhook:listen            (listens on 127.0.0.1:9000)
 *   WEBHOOK_SECRET=whsec_... PORT=9100 npm run -s webhook:listen
 * WEBHOOK_SECRET may list several secrets, comma-separated (while moving to a rotated one). Answers
 * 401 to a bad or missing signature or a timestamp more than 5 minutes off, 204 otherwise. It uses
 * only node:crypto and node:http, not the service's own signer.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const SKEW_SECONDS = 5 * 60;
const secrets = (process.env.WEBHOOK_SECRET ?? "").split(",").filter((s) => s !== "");
if (secrets.length === 0) {
  process.stderr.write(
    "usage: WEBHOOK_SECRET=<the secret PUT /partner/v1/webhooks answered> npm run -s webhook:listen\n",
  );
  process.exit(2);
}
const port = Number(process.env.PORT ?? 9000);

/** True when one of the header's `sha256=` signatures is one of our secrets' over `timestamp.body`. */
function verify(header: string, timestamp: string, rawBody: string, nowSeconds: number): boolean {
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > SKEW_SECONDS) return false;
  const given = header.split(",").map((part) => Buffer.from(part.trim()));
  return secrets.some((secret) => {
    const hmac = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("base64");
    const expected = Buffer.from(`sha256=${hmac}`);
    return given.some(
      (candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected),
    );
  });
}

/** Event URNs already handled: deliveries are at least once, and retries keep the URN. */
const seen = new Set<string>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const signature = String(req.headers["x-svc-signature"] ?? "");
    const timestamp = String(req.headers["x-svc-signature-timestamp"] ?? "");
    if (!verify(signature, timestamp, rawBody, Date.now() / 1000)) {
      process.stdout.write(
        `401 refused: bad signature or stale timestamp (${req.headers["x-svc-event-urn"] ?? "no event URN"})\n`,
      );
      res.writeHead(401).end();
      return;
    }
    const eventUrn = String(req.headers["x-svc-event-urn"]);
    const repeat = seen.has(eventUrn);
    seen.add(eventUrn);
    const event = JSON.parse(rawBody) as {
      type: string;
      occurred_at: string;
      case_urn?: string;
      data: unknown;
    };
    process.stdout.write(
      `${repeat ? "(repeat) " : ""}${event.occurred_at} ${event.type} ${eventUrn}${event.case_urn ? ` ${event.case_urn}` : ""}\n` +
        (repeat ? "" : `  ${JSON.stringify(event.data)}\n`),
    );
    res.writeHead(204).end();
  });
});

server.listen(port, "127.0.0.1", () => {
  process.stdout.write(
    `Listening for webhooks on http://127.0.0.1:${port}/ (register it with PUT /partner/v1/webhooks)\n`,
  );
});
