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
import { freePort, skyhubToken } from "../test/support/platform.js";
import { MEASUREMENT, measureAlternating, startServer, target } from "./alternating-slices.js";
import { printTable, round } from "./stats.js";

const barePort = await freePort();
const [platformPort, passengerPort] = [await freePort(), await freePort()];
const bareServer = await startServer(["bare", String(barePort)]);
const platformServer = await startServer(["platform", String(platformPort), String(passengerPort)]);
const [bareFigures, platformFigures] = await measureAlternating(
  { server: bareServer, target: target(barePort, "/version", {}) },
  {
    server: platformServer,
    target: target(platformPort, "/version", {
      Authorization: `Bearer ${await skyhubToken(`http://localhost:${platformPort}`)}`,
    }),
  },
);
bareServer.process.kill();
platformServer.process.kill();

const ratio = platformFigures.rps / bareFigures.rps;
printTable(
  `HTTP: ${MEASUREMENT.connections} keep-alive connections, ${MEASUREMENT.seconds} s each in alternating slices`,
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
