/**
 * The server side of the HTTP benches (bench/alternating-slices.ts), in its own process so the load
 * generator does not share its event loop:
 *   bare <port>                               a Koa hello world
 *   platform <port> <passenger port>          the whole service on the embedded default
 *   passenger <port> <passenger port>         the same, with one pushed group offered its stay:
 *                                             prints the group's session token and host after READY
 * Prints `READY <port> ...` once listening; answers every IPC message with its CPU time so far
 * (user + system, µs), so the bench can give each server's CPU per request.
 */
import "reflect-metadata";
import Koa from "koa";
import { pino } from "pino";
import { loadConfig } from "../src/config.js";
import { topicFor } from "../src/domain/domain-event.js";
import { type Platform, startPlatform } from "../src/main.js";
import type { PassengerIdentity } from "../src/passenger-identity/passenger-identity.js";
import { TOKENS } from "../src/runtime/tokens.js";
import { skyhubToken } from "../test/support/platform.js";

const [mode, portArg, passengerPortArg] = process.argv.slice(2);
process.on("message", () => {
  const { user, system } = process.cpuUsage();
  process.send?.(user + system);
});
// Exits normally when the bench is done with it, so a server started by hand under
// `node --cpu-prof --import tsx bench/http-server.ts ...` writes its profile (Node 20 refuses
// `--cpu-prof` in NODE_OPTIONS, so it cannot be passed through the bench).
process.once("SIGTERM", () => process.exit(0));
const port = Number(portArg);
const TENANT = "urn:airline:ZX";

/** Pushes a one-group disruption through the partner API and waits for the group's offer. */
async function offeredGroup(platform: Platform): Promise<{ caseUrn: string; groupId: string }> {
  const offered = new Promise<{ caseUrn: string; groupId: string }>((resolve) =>
    platform.runtime.bus.subscribe({
      name: "bench.offered-group",
      topic: topicFor({ tenant: TENANT }),
      handler: async (event) => {
        if (event.type === "subcase.offer-ready") resolve(event.data as { caseUrn: string; groupId: string });
        return "SUCCESS";
      },
    }),
  );
  const token = await skyhubToken(`http://localhost:${port}`);
  const departure = new Date(Date.now() + 3 * 3_600_000);
  const pushed = await fetch(`http://127.0.0.1:${port}/partner/v1/disruptions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      externalEventId: `bench-offer-read-${Date.now()}`,
      airlineUrn: TENANT,
      flight: {
        iataDesignator: "ZX4000",
        originAirport: "JFK",
        destinationAirport: "LHR",
        scheduledDeparture: departure.toISOString(),
      },
      disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: new Date().toISOString() },
      passengers: [
        { pnr: "BENCH1", firstName: "Ada", lastName: "Reader", contact: { email: "ada@example.com" } },
      ],
      nextFlight: {
        iataDesignator: "ZX4002",
        scheduledDeparture: new Date(departure.getTime() + 86_400_000).toISOString(),
      },
    }),
  });
  if (pushed.status !== 202) throw new Error(`push answered ${pushed.status}: ${await pushed.text()}`);
  return offered;
}

if (mode === "bare") {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { build: "dev", apiVersion: "v1", region: "local" };
  });
  app.listen(port, "127.0.0.1", () => console.log(`READY ${port}`));
} else {
  const config = loadConfig({
    PORT: String(port),
    PASSENGER_PORT: passengerPortArg,
    RUNTIME: "embedded",
    // High enough that no bucket fills at the rates measured (the passenger's per-tenant route
    // budget at 1,000x was 5,000 reads a second, which the offer read now passes): the limiter still
    // runs on every request, and a 429 is not the read being measured.
    RATE_LIMIT_SCALE: "100000",
    VENDOR_RATE_LIMIT_SCALE: "100000",
  });
  const platform = await startPlatform(config, { logger: pino({ level: "silent" }) });
  if (mode === "passenger") {
    const group = await offeredGroup(platform);
    const session = await platform.container
      .resolve<PassengerIdentity>(TOKENS.passengers)
      .sessions.mint({ tenant: TENANT, ...group });
    console.log(`READY ${passengerPortArg} ${session.token}`);
  } else {
    console.log(`READY ${port}`);
  }
}
