/**
 * Watches one case on the operator real-time channel and prints every event (a newcomer's view of
 * `/ws/cases`; the protocol is in services/realtime/README.md).
 *   npm run -s watch:case -- <case URN | externalEventId>
 * Given the disruption's externalEventId, it can start before the case exists: the case URN is
 * derived from the airline and that id (intake is idempotent on it), and the subscription is retried
 * until the case is opened. Logs in as operator@zx.demo unless TOKEN is set (AIRLINE names the
 * token's airline for an externalEventId, urn:airline:ZX unless told); BASE_URL defaults to
 * http://localhost:8080.
 */
import WebSocket from "ws";
import { caseUrnFor } from "../src/domain/case.js";

const argument = process.argv[2];
if (!argument) {
  process.stderr.write("usage: npm run -s watch:case -- <case URN | externalEventId>\n");
  process.exit(2);
}
const caseUrn = argument.startsWith("urn:case:")
  ? argument
  : caseUrnFor(process.env.AIRLINE ?? "urn:airline:ZX", argument);
/** How often a subscription to a case not opened yet is tried again. */
const RETRY_MS = 500;
const base = process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 8080}`;

async function operatorToken(): Promise<string> {
  if (process.env.TOKEN) return process.env.TOKEN;
  const response = await fetch(`${base}/auth/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      grant_type: "password",
      username: "operator@zx.demo",
      password: "demo-zx-operator",
      audience: `${base}/v1`,
    }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.access_token;
}

const token = await operatorToken();
const socket = new WebSocket(`${base.replace(/^http/, "ws")}/ws/cases`);
socket.on("open", () => socket.send(JSON.stringify({ type: "auth", token })));
// Asking for what happened since the watcher started replays the case:updated events of a case
// opened while the subscription was being retried (the server keeps 60 seconds of them).
const startedAt = new Date().toISOString();
const subscribe = () => socket.send(JSON.stringify({ type: "subscribe", caseUrn, since: startedAt }));
let waiting = false;
socket.on("message", (raw) => {
  const message = JSON.parse(raw.toString()) as { type: string; code?: string };
  if (message.type === "ready") subscribe();
  if (message.type === "error" && message.code === "not-found") {
    if (!waiting) process.stdout.write(`waiting for ${caseUrn} to be opened…\n`);
    waiting = true;
    setTimeout(subscribe, RETRY_MS);
    return;
  }
  process.stdout.write(`${JSON.stringify(message)}\n`);
});
socket.on("close", (code, reason) => {
  process.stdout.write(`closed ${code} ${reason.toString()}\n`);
  process.exit(code === 1000 ? 0 : 1);
});
