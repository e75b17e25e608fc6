/**
 * Requests per second and p99 latency of an authenticated, audited read (a partner calling
 * GET /version: token verification, rate limit, tracing and an audit entry on every request),
 * beside a bare Koa hello world measured the same way in the same run. Target: >= 60% of bare Koa.
 * Rate limits are raised 1000x for the run so that the limiter runs on every request but does not refuse.
 *
 * Both servers run side by side and are measured in alternating one-second slices, so a change in
 * what else the machine is doing falls on both alike instead of on whichever ran second.
 */
import "reflect-metadata";
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { freePort, requestToken } from "../test/support/platform.js";
import { serviceNodeFlags } from "./service-node-flags.js";
import { percentile, printTable, round } from "./stats.js";

const CONNECTIONS = 32;
const WARMUP_MS = 2_000;
const SLICE_MS = 1_000;
/** Slices per server: 6 s of measurement each. */
const SLICES = 6;

function startServer(mode: "bare" | "platform", port: number, passengerPort: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      ...serviceNodeFlags(),
      "--import",
      "tsx",
      "bench/http-server.ts",
      mode,
      String(port),
      String(passengerPort),
    ],
    { stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("READY")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

function get(agent: Agent, port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

interface Target {
  port: number;
  headers: Record<string, string>;
  agent: Agent;
}

interface Tally {
  count: number;
  failures: number;
  samples: number[];
  /** The server's CPU time spent during the measured slices, µs. */
  cpuMicros: number;
}

/** The server's CPU time so far (user + system), µs. */
function cpuOf(server: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    server.once("message", (micros) => resolve(micros as number));
    server.send("cpu");
  });
}

/** Runs one measured slice against `server`, adding its requests and CPU time to `tally`. */
async function slice(server: ChildProcess, target: Target, tally: Tally): Promise<void> {
  const before = await cpuOf(server);
  await drive(target, SLICE_MS, tally);
  tally.cpuMicros += (await cpuOf(server)) - before;
}

function target(port: number, headers: Record<string, string>): Target {
  return { port, headers, agent: new Agent({ keepAlive: true, maxSockets: CONNECTIONS }) };
}

/** Keeps CONNECTIONS requests to GET /version in flight for `ms`, adding them to `tally` when given. */
async function drive({ port, headers, agent }: Target, ms: number, tally?: Tally): Promise<void> {
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const start = process.hrtime.bigint();
        const status = await get(agent, port, "/version", headers);
        if (!tally) continue;
        tally.samples.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (status === 200) tally.count++;
        else tally.failures++;
      }
    }),
  );
}

function figures({ count, failures, samples, cpuMicros }: Tally) {
  samples.sort((a, b) => a - b);
  return {
    rps: count / ((SLICES * SLICE_MS) / 1000),
    cpuPerRequest: cpuMicros / (count + failures),
    p99: percentile(samples, 99),
    p50: percentile(samples, 50),
    failures,
  };
}

function partnerToken(port: number): Promise<string> {
  return requestToken(`http://127.0.0.1:${port}`, {
    grant_type: "client_credentials",
    client_id: "skyhub-zx",
    client_secret: "demo-secret-skyhub-zx",
    audience: `http://localhost:${port}/partner/v1`,
  });
}

const barePort = await freePort();
const [platformPort, passengerPort] = [await freePort(), await freePort()];
const bareServer = await startServer("bare", barePort, 0);
const platformServer = await startServer("platform", platformPort, passengerPort);
const bare = target(barePort, {});
const platform = target(platformPort, { Authorization: `Bearer ${await partnerToken(platformPort)}` });

await drive(bare, WARMUP_MS);
await drive(platform, WARMUP_MS);
const bareTally: Tally = { count: 0, failures: 0, samples: [], cpuMicros: 0 };
const platformTally: Tally = { count: 0, failures: 0, samples: [], cpuMicros: 0 };
for (let n = 0; n < SLICES; n++) {
  await slice(bareServer, bare, bareTally);
  await slice(platformServer, platform, platformTally);
}
bare.agent.destroy();
platform.agent.destroy();
bareServer.kill();
platformServer.kill();
const bareFigures = figures(bareTally);
const platformFigures = figures(platformTally);

const ratio = platformFigures.rps / bareFigures.rps;
printTable(
  `HTTP: ${CONNECTIONS} keep-alive connections, ${(SLICES * SLICE_MS) / 1000} s each in alternating slices`,
  [
    {
      server: "bare Koa hello world",
      "req/s": Math.round(bareFigures.rps),
      "p50 ms": round(bareFigures.p50, 2),
      "p99 ms": round(bareFigures.p99, 2),
      "server CPU µs/req": round(bareFigures.cpuPerRequest, 1),
      failures: bareFigures.failures,
    },
    {
      server: "platform: partner GET /version (auth, rate limit, tracing, audit)",
      "req/s": Math.round(platformFigures.rps),
      "p50 ms": round(platformFigures.p50, 2),
      "p99 ms": round(platformFigures.p99, 2),
      "server CPU µs/req": round(platformFigures.cpuPerRequest, 1),
      failures: platformFigures.failures,
    },
  ],
);
console.log(`ratio: ${round(ratio * 100, 1)}% of bare Koa (target >= 60%)`);
console.log(
  JSON.stringify({
    bench: "http",
    bare_rps: Math.round(bareFigures.rps),
    platform_rps: Math.round(platformFigures.rps),
    platform_p99_ms: round(platformFigures.p99, 2),
    bare_p99_ms: round(bareFigures.p99, 2),
    platform_cpu_us_per_request: round(platformFigures.cpuPerRequest, 1),
    bare_cpu_us_per_request: round(bareFigures.cpuPerRequest, 1),
    ratio: round(ratio, 3),
  }),
);
process.exit(0);
