/**
 * The load generator of bench/wallet.ts, in a process of its own so that neither signing nor sending
 * shares the service's event loop. Takes `{url, secret, cardIds, perPhase, duplicateEvery,
 * concurrency}` over IPC, signs every webhook before its clock starts (HMAC-SHA256 over
 * `timestamp.body`, spec 4.5), then sends two phases, the authorizations then their captures,
 * event i on card `i % cards` for `1 + i % 97` minor units, every `duplicateEvery`-th event of each
 * phase sent twice, with `concurrency` requests in flight over keep-alive connections. Answers
 * `{elapsedMs, cpuMs, statuses, sent}` (cpuMs: its own CPU
 * time while sending, user + system).
 */
import { createHmac } from "node:crypto";
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";

function signed(secret, body, eventId, timestamp) {
  const raw = JSON.stringify(body);
  const signature = `sha256=${createHmac("sha256", secret).update(`${timestamp}.${raw}`).digest("base64")}`;
  return {
    body: raw,
    headers: {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(raw)),
      "x-vendor-signature": signature,
      "x-vendor-signature-timestamp": timestamp,
      "x-vendor-event-id": eventId,
    },
  };
}

function phasesOf({ secret, cardIds, events, duplicateEvery }) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const occurredAt = new Date().toISOString();
  const authorizations = [];
  const captures = [];
  for (let i = 0; i < events.length; i++) {
    const [card, amount] = events[i];
    const common = {
      card_id: cardIds[card],
      amount: { value: amount, currency: "USD" },
      occurred_at: occurredAt,
      authorization_id: `auth-${i}`,
    };
    const authorization = signed(
      secret,
      { ...common, type: "AUTHORIZATION", merchant: { name: "Gate Cafe" } },
      `a-${i}`,
      timestamp,
    );
    const capture = signed(secret, { ...common, type: "CAPTURE", merchant: null }, `c-${i}`, timestamp);
    authorizations.push(authorization);
    captures.push(capture);
    if (i % duplicateEvery === 0) {
      authorizations.push(authorization);
      captures.push(capture);
    }
  }
  return [authorizations, captures];
}

function send(agent, url, message) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers: message.headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(message.body);
  });
}

if (process.send) {
  process.once("message", async (settings) => {
    const phases = phasesOf(settings);
    const agent = new Agent({ keepAlive: true, maxSockets: settings.concurrency });
    const statuses = {};
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (const phase of phases) {
      let next = 0;
      const worker = async () => {
        while (next < phase.length) {
          const status = await send(agent, settings.url, phase[next++]);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: settings.concurrency }, worker));
    }
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    agent.destroy();
    process.send(
      {
        elapsedMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        statuses,
        sent: phases[0].length + phases[1].length,
      },
      () => process.exit(0),
    );
  });
}
