/**
 * How fast do partner webhooks go out (spec 6.1, 8.1: Tier-1 deliveries within 5 s at p95; our
 * target p95 < 1,000 ms from event to delivery)? The whole service runs in this process on the
 * embedded default; the partners' endpoint is a local HTTP receiver answering 204 on 127.0.0.1,
 * in a process of its own.
 *
 * Two registrations of airline ZX subscribe to that receiver: SkyHub (Tier 1, every event type its
 * scopes allow) and the regulator (Tier 2, case.opened). Latency is the receiver's arrival time
 * minus the event's `occurred_at`: what a partner sees, signing, the queue and HTTP included.
 *
 * 1. Flight: a cancelled 300-passenger flight (150 groups) is pushed and runs on its own (demand on
 *    intake, the seeded policy, allocation, booking, vouchers): every partner event it raises is
 *    delivered; the phase ends when the receiver has heard nothing for 2 s. p95_ms is this phase's.
 * 2. Burst: BENCH_BURST (default 2,000) voucher.issued events published straight to the bus at
 *    once, each delivered to SkyHub: deliveries_per_s is deliveries / (last arrival - first publish).
 * It measures; it does not assert targets.
 */
import "reflect-metadata";
import { spawn } from "node:child_process";
import { publishEvent } from "../src/runtime/event-bus.js";
import { startTestPlatform } from "../test/support/platform.js";
import { webhookUseCases } from "../services/webhooks/webhook-use-cases.js";
import { flightDisruptionPush } from "./flight-disruption.js";
import { percentile, printTable, round } from "./stats.js";

const TENANT = "urn:airline:ZX";
const BURST = Number(process.env.BENCH_BURST ?? 2_000);
const QUIET_MS = 2_000;
const PHASE_TIMEOUT_MS = 120_000;

interface Arrival {
  type: string;
  tier: number;
  latencyMs: number;
  at: number;
}

const arrivals: Arrival[] = [];

/**
 * The partner's receiver runs in a process of its own, as a partner's would: it answers 204 and
 * reports each arrival (its time, the event's type and occurred_at) over IPC.
 */
const RECEIVER = `
const { createServer } = require("node:http");
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const at = Date.now();
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    res.writeHead(204).end();
    process.send({ type: body.type, occurredAt: body.occurred_at, at, tier: req.url.endsWith("tier1") ? 1 : 2 });
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
process.on("disconnect", () => process.exit(0));
`;
const receiver = spawn(process.execPath, ["-e", RECEIVER], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const receiverPort = await new Promise<number>((resolve) => {
  receiver.on(
    "message",
    (message: { port?: number; type?: string; occurredAt?: string; at?: number; tier?: number }) => {
      if (message.port) return resolve(message.port);
      arrivals.push({
        type: message.type!,
        tier: message.tier!,
        latencyMs: message.at! - Date.parse(message.occurredAt!),
        at: message.at!,
      });
    },
  );
});
const receiverUrl = `http://127.0.0.1:${receiverPort}`;

const t = await startTestPlatform({ env: { VENDOR_RATE_LIMIT_SCALE: "100000", RATE_LIMIT_SCALE: "1000" } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function subscribe(clientId: string, body: object): Promise<void> {
  const response = await t.call("PUT", "/partner/v1/webhooks", await t.partnerToken(clientId), body);
  if (response.status !== 201)
    throw new Error(`PUT /partner/v1/webhooks: ${response.status} ${await response.text()}`);
}

/** Resolves once no delivery arrived for QUIET_MS (or the phase timed out). */
async function quiet(): Promise<void> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  let count = -1;
  while (Date.now() < deadline) {
    if (arrivals.length === count) return;
    count = arrivals.length;
    await sleep(QUIET_MS);
  }
}

function figures(sample: Arrival[]) {
  const latencies = sample.map((a) => a.latencyMs).sort((a, b) => a - b);
  return {
    deliveries: sample.length,
    p50_ms: round(percentile(latencies, 50)),
    p95_ms: round(percentile(latencies, 95)),
    max_ms: round(latencies.at(-1) ?? Number.NaN),
  };
}

await subscribe("skyhub-zx", { url: `${receiverUrl}/tier1` });
await subscribe("regulator-zx", { url: `${receiverUrl}/tier2`, eventTypes: ["case.opened"] });
const skyhub = await t.partnerToken("skyhub-zx");

// 1. The flight.
const push = flightDisruptionPush({
  externalEventId: "bench-webhooks-flight",
  tenant: TENANT,
  origin: "JFK",
  designator: "ZX3001",
  departure: new Date(Date.UTC(2027, 2, 10, 22, 0)),
  pnrOf: (group) => `W${group.toString(36).toUpperCase().padStart(5, "0")}`,
  emailPrefix: "bench-webhooks",
});
const pushed = await t.call("POST", "/partner/v1/disruptions", skyhub, push);
if (pushed.status !== 202) throw new Error(`push: ${pushed.status} ${await pushed.text()}`);
await quiet();
const flight = arrivals.splice(0);
const byType = new Map<string, Arrival[]>();
for (const arrival of flight) byType.set(arrival.type, [...(byType.get(arrival.type) ?? []), arrival]);

// 2. The burst.
const webhooks = webhookUseCases(t.platform.container);
const startedAt = Date.now();
const occurredAt = () => new Date().toISOString();
await Promise.all(
  Array.from({ length: BURST }, (_, i) =>
    publishEvent(t.platform.runtime.bus, {
      id: `urn:event:bench-burst-${i}`,
      type: "voucher.issued",
      tenant: TENANT,
      occurredAt: occurredAt(),
      correlationUrn: `urn:trace:bench-burst-${i}`,
      caseUrn: "urn:case:bench",
      data: {
        voucherUrn: `urn:voucher:bench-${i}`,
        reservationUrn: `urn:reservation:bench-${i}`,
        groupId: `G${i}`,
        passengerUrns: [],
      },
    }),
  ),
);
await webhooks.dispatcher.idle();
await quiet();
const burst = arrivals.splice(0);
const burstSeconds = ((burst.at(-1)?.at ?? startedAt) - startedAt) / 1000;
const deliveriesPerSecond = round(burst.length / burstSeconds, 0);

const flightFigures = figures(flight);
const tier1 = figures(flight.filter((a) => a.tier === 1));
const burstFigures = figures(burst);
printTable("Flight of 300 passengers: partner events delivered", [
  ...[...byType].map(([type, sample]) => ({ type, ...figures(sample) })),
]);
printTable("Event to delivery (ms)", [
  { phase: "flight, all", ...flightFigures },
  { phase: "flight, Tier 1", ...tier1 },
  { phase: `burst of ${BURST}`, ...burstFigures, deliveries_per_s: deliveriesPerSecond },
]);

await t.close();
receiver.disconnect();

console.log(
  JSON.stringify({
    bench: "webhooks",
    deliveries_per_s: deliveriesPerSecond,
    p95_ms: flightFigures.p95_ms,
    p50_ms: flightFigures.p50_ms,
    tier1_p95_ms: tier1.p95_ms,
    flight_deliveries: flightFigures.deliveries,
    burst_deliveries: burstFigures.deliveries,
    burst_p95_ms: burstFigures.p95_ms,
  }),
);
