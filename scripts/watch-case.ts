/**
 * Watches one case on the operator real-time channel and prints every event (a newcomer's view of
 * `/ws/cases`; the protocol is in services/realtime/README.md).
 *   npm run watch:case -- <case URN>
 * Logs in as operator@zx.demo unless TOKEN is set; BASE_URL defaults to http://localhost:8080.
 */
import WebSocket from "ws";

const caseUrn = process.argv[2];
if (!caseUrn) {
  process.stderr.write("usage: npm run watch:case -- <case URN>\n");
  process.exit(2);
}
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
socket.on("message", (raw) => {
  const message = JSON.parse(raw.toString()) as { type: string };
  if (message.type === "ready") socket.send(JSON.stringify({ type: "subscribe", caseUrn }));
  process.stdout.write(`${JSON.stringify(message)}\n`);
});
socket.on("close", (code, reason) => {
  process.stdout.write(`closed ${code} ${reason.toString()}\n`);
  process.exit(code === 1000 ? 0 : 1);
});
