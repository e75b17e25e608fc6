/**
 * Requests per second of two HTTP servers, each in a process of its own so the load generator does
 * not share their event loops, measured side by side in alternating one-second slices: a change in
 * what else the machine is doing falls on both alike instead of on whichever ran second.
 * `bench/http-server.ts` is the server side (`bare`, `platform`, `passenger` modes).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { percentile } from "./stats.js";
import { serviceNodeFlags } from "./service-node-flags.js";

const CONNECTIONS = 32;
const WARMUP_MS = 2_000;
const SLICE_MS = 1_000;
/** Slices per server: 6 s of measurement each. */
const SLICES = 6;

export const MEASUREMENT = { connections: CONNECTIONS, seconds: (SLICES * SLICE_MS) / 1000 };

export interface BenchServer {
  process: ChildProcess;
  /** What the server printed after READY: its port, then anything the mode hands over (a token). */
  ready: string[];
}

/** Starts `bench/http-server.ts <args>` and resolves once it prints `READY ...`. */
export function startServer(args: string[]): Promise<BenchServer> {
  const child = spawn(
    process.execPath,
    [...serviceNodeFlags(), "--import", "tsx", "bench/http-server.ts", ...args],
    {
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n").find((l) => l.startsWith("READY "));
      if (line) resolve({ process: child, ready: line.trim().split(/\s+/).slice(1) });
    });
    child.once("exit", (code) => reject(new Error(`bench server ${args[0]} exited with ${code}`)));
  });
}

export interface Target {
  port: number;
  path: string;
  headers: Record<string, string>;
  agent: Agent;
}

export function target(port: number, path: string, headers: Record<string, string>): Target {
  return { port, path, headers, agent: new Agent({ keepAlive: true, maxSockets: CONNECTIONS }) };
}

interface Tally {
  count: number;
  failures: number;
  samples: number[];
  /** The server's CPU time spent during the measured slices, µs. */
  cpuMicros: number;
}

export interface Figures {
  rps: number;
  cpuPerRequest: number;
  p50: number;
  p99: number;
  failures: number;
}

/** Warms both up, then measures them in alternating slices; the targets' agents are closed after. */
export async function measureAlternating(
  first: { server: BenchServer; target: Target },
  second: { server: BenchServer; target: Target },
): Promise<[Figures, Figures]> {
  await drive(first.target, WARMUP_MS);
  await drive(second.target, WARMUP_MS);
  const tallies: [Tally, Tally] = [
    { count: 0, failures: 0, samples: [], cpuMicros: 0 },
    { count: 0, failures: 0, samples: [], cpuMicros: 0 },
  ];
  for (let n = 0; n < SLICES; n++) {
    await slice(first.server.process, first.target, tallies[0]);
    await slice(second.server.process, second.target, tallies[1]);
  }
  first.target.agent.destroy();
  second.target.agent.destroy();
  return [figures(tallies[0]), figures(tallies[1])];
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

/** The server's CPU time so far (user + system), µs. */
function cpuOf(server: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    server.once("message", (micros) => resolve(micros as number));
    server.send("cpu");
  });
}

/** Runs one measured slice against `server`, adding its requests and CPU time to `tally`. */
async function slice(server: ChildProcess, on: Target, tally: Tally): Promise<void> {
  const before = await cpuOf(server);
  await drive(on, SLICE_MS, tally);
  tally.cpuMicros += (await cpuOf(server)) - before;
}

/** Keeps CONNECTIONS requests in flight for `ms`, adding them to `tally` when given. */
async function drive({ port, path, headers, agent }: Target, ms: number, tally?: Tally): Promise<void> {
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const start = process.hrtime.bigint();
        const status = await get(agent, port, path, headers);
        if (!tally) continue;
        tally.samples.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (status === 200) tally.count++;
        else tally.failures++;
      }
    }),
  );
}

function figures({ count, failures, samples, cpuMicros }: Tally): Figures {
  samples.sort((a, b) => a - b);
  return {
    rps: count / ((SLICES * SLICE_MS) / 1000),
    cpuPerRequest: cpuMicros / (count + failures),
    p99: percentile(samples, 99),
    p50: percentile(samples, 50),
    failures,
  };
}
