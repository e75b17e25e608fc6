/**
 * The server side of bench/http.ts, in its own process so the load generator does not share its
 * event loop: `bare` is a Koa hello world, `platform` the whole service on the embedded default.
 * Prints `READY <port>` once listening; answers every IPC message with its CPU time so far
 * (user + system, µs), so the bench can give each server's CPU per request.
 */
import "reflect-metadata";
import Koa from "koa";
import { pino } from "pino";
import { loadConfig } from "../src/config.js";
import { startPlatform } from "../src/main.js";

const [mode, portArg, passengerPortArg] = process.argv.slice(2);
process.on("message", () => {
  const { user, system } = process.cpuUsage();
  process.send?.(user + system);
});
const port = Number(portArg);
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
    RATE_LIMIT_SCALE: "1000",
  });
  await startPlatform(config, { logger: pino({ level: "silent" }) });
  console.log(`READY ${port}`);
}
