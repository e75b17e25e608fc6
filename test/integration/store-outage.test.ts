import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_ERRORS_URL, PROBLEM_CONTENT_TYPE } from "../../src/http/problem.js";
import { freePort, startTestPlatform, type TestPlatform } from "../support/platform.js";

/**
 * A store outage seen from the HTTP surfaces: while the Redis that holds the platform's state,
 * counters and documents is down, a request answers a 503 problem at once (it does not wait for
 * Redis to come back), and the service answers again once it is back. The test runs a Redis of its
 * own, on a port of its own, which it stops and starts again; without redis-server it is skipped
 * with the reason printed.
 */
const installed = spawnSync("redis-server", ["--version"]);
const reason = installed.error?.message ?? (installed.status === 0 ? undefined : installed.stderr.toString());
if (reason) console.warn(`Store outage tests skipped: redis-server cannot run (${reason})`);

/** A redis-server on `port`, keeping nothing on disk; resolves once it accepts connections. */
async function startRedis(port: number): Promise<ChildProcess> {
  const server = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    server.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    server.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve();
    });
  });
  server.removeAllListeners("exit");
  server.stdout!.resume();
  return server;
}

async function stopRedis(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, "exit");
  server.kill("SIGKILL");
  await exited;
}

describe.skipIf(reason !== undefined)("a request while the platform's Redis is down", () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let t: TestPlatform;
  let supervisor: string;
  let partner: string;

  // Should the platform hang closing, the Redis it was given still goes with this worker.
  const killRedis = () => redis?.kill("SIGKILL");

  beforeAll(async () => {
    process.once("exit", killRedis);
    port = await freePort();
    redis = await startRedis(port);
    t = await startTestPlatform({
      env: { STATE_STORE: "redis", DOCUMENT_STORE: "redis", REDIS_URL: `redis://127.0.0.1:${port}` },
    });
    supervisor = await t.operatorToken("supervisor@zx.demo");
    partner = await t.partnerToken("skyhub-zx");
  });
  afterAll(async () => {
    await t?.close();
    await stopRedis(redis);
    process.off("exit", killRedis);
  });

  const casesOf = (token: string) => t.call("GET", "/v1/cases", token);
  const partnerCall = () => t.call("GET", "/partner/v1/cases", partner);

  it("answers 503 unavailable/store with Retry-After, leaking nothing, and answers again once Redis is back", async () => {
    expect((await casesOf(supervisor)).status).toBe(200);
    const partnerStatus = (await partnerCall()).status;
    expect(partnerStatus).toBeLessThan(500);

    await stopRedis(redis);
    for (const response of [await casesOf(supervisor), await partnerCall()]) {
      const text = await response.text();
      expect(response.status, text).toBe(503);
      expect(response.headers.get("content-type")).toContain(PROBLEM_CONTENT_TYPE);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      const problem = JSON.parse(text);
      expect(problem).toMatchObject({ type: `${DEFAULT_ERRORS_URL}/unavailable/store`, status: 503 });
      expect(text).not.toMatch(new RegExp(`redis|${port}|127\\.0\\.0\\.1|ECONN`, "i"));
    }

    redis = await startRedis(port);
    await vi.waitFor(async () => expect((await casesOf(supervisor)).status).toBe(200), {
      timeout: 15_000,
      interval: 100,
    });
    expect((await partnerCall()).status).toBe(partnerStatus);
  });
});
