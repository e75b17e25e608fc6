/**
 * How fast does intake open cases, what does an open case weigh, and how soon does a dropped
 * operator's lock go? (spec 8.2). On the embedded runtime with memory stores:
 *  - throughput: 300-passenger disruptions (150 PNR groups) pushed over HTTP, each counted done
 *    once its case is open and all 150 sub-cases are in the `sub-cases` collection.
 *    Target >= 50 cases/s (15,000 passengers/s);
 *  - memory: heap (after gc) per 1,000 open cases;
 *  - lock release: from a lock holder's WebSocket being cut to another operator's screen hearing
 *    `subcase:state-changed` with `lockedBy: null`. Target p99 within 50-200 ms.
 * The embedded default also asks for rooms for every new case and books them (demand, waves,
 * vendor searches, bookings: DEMAND_ON_INTAKE, DEMO_POLICIES), all in this one process. Those are
 * turned off for the three figures above, which are about intake; the throughput is measured
 * again, shorter, with them on, to show what they cost. It measures; it does not assert targets.
 */
import "reflect-metadata";
import { spawnSync } from "node:child_process";
import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { WebSocket } from "ws";
import { SUB_CASE_COLLECTION } from "../src/app/sub-cases/sub-case-index.js";
import { subCaseUrnFor } from "../src/domain/sub-case.js";
import type { DocumentCollection } from "../src/runtime/document-store.js";
import { EmbeddedActorRuntime } from "../src/runtime/embedded/actor-runtime.js";
import { REALTIME_PATH } from "../services/realtime/protocol.js";
import { startTestPlatform, type TestPlatform } from "../test/support/platform.js";
import { serviceNodeFlags } from "./service-node-flags.js";
import { FLIGHT_GROUPS, FLIGHT_PASSENGERS, flightDisruptionPush } from "./flight-disruption.js";
import { percentile, printTable, round } from "./stats.js";
import { dropDocuments, storeEnvironment } from "./store-environment.js";

// The heap is only comparable after a full collection: without --expose-gc, run again with it (and
// with the flags the service runs with).
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc && !process.execArgv.includes("--expose-gc")) {
  const script = fileURLToPath(import.meta.url);
  const flags = ["--expose-gc", ...serviceNodeFlags(), "--import", "tsx", script];
  const child = spawnSync(process.execPath, flags, {
    stdio: "inherit",
    cwd: dirname(dirname(script)),
  });
  process.exit(child.status ?? 1);
}

const WARMUP_CASES = 20;
const MEASURED_CASES = 200;
const CONCURRENCY = 16;
/** Cases opened between the two heap readings; the growth is given per 1,000. */
const MEMORY_CASES = 1000;
const LOCK_ROUNDS = 60;
const AUTOMATION_WARMUP_CASES = 10;
const AUTOMATION_CASES = 60;
const CASE_TIMEOUT_MS = 120_000;
const MESSAGE_TIMEOUT_MS = 5_000;
const TENANT = "urn:airline:ZX";
const ORIGIN = "JFK";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The spec 4.3 push of disruption `n`: PNRs unique in the run. */
function disruptionPush(n: number) {
  return flightDisruptionPush({
    externalEventId: `bench-intake-${n}`,
    tenant: TENANT,
    origin: ORIGIN,
    designator: `ZX${1000 + (n % 9000)}`,
    departure: new Date(Date.UTC(2026, 10, 21, 22, 0) + n * 60_000),
    pnrOf: (group) => pnrOf(n, group),
    emailPrefix: `p${n}`,
  });
}

function pnrOf(n: number, group: number): string {
  return (n * FLIGHT_GROUPS + group).toString(36).toUpperCase().padStart(6, "0");
}

/**
 * Tells when every sub-case of a case is in the `sub-cases` collection. Looking each one up by
 * its URN (derived from case and PNR, as the platform derives it) costs the same however many
 * documents the store holds, where a `count({caseUrn})` per poll would scan them all and slow the
 * platform it measures; the counts are checked once, after the timed run.
 */
class SubCaseWatch {
  private readonly waiting = new Map<string, { missing: Set<string>; done: () => void }>();
  private polling = false;

  constructor(private readonly subCases: DocumentCollection<{ _id: string }>) {}

  /** True once they all exist; false if they did not within CASE_TIMEOUT_MS. */
  allOf(caseUrn: string, pnrs: string[]): Promise<boolean> {
    const missing = new Set(pnrs.map((pnr) => subCaseUrnFor(caseUrn, pnr)));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(caseUrn);
        resolve(false);
      }, CASE_TIMEOUT_MS);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiting.set(caseUrn, { missing, done });
      if (!this.polling) void this.poll();
    });
  }

  private async poll(): Promise<void> {
    this.polling = true;
    while (this.waiting.size > 0) {
      for (const [caseUrn, { missing, done }] of this.waiting) {
        for (const urn of missing) if (await this.subCases.get(urn)) missing.delete(urn);
        if (missing.size === 0) {
          this.waiting.delete(caseUrn);
          done();
        }
      }
      await sleep(1);
    }
    this.polling = false;
  }
}

/** A running platform with the partner token that pushes and the watch on its sub-cases. */
interface BenchPlatform {
  t: TestPlatform;
  token: string;
  watch: SubCaseWatch;
}

interface Pushed {
  caseUrn: string;
  acceptedMs: number;
  doneMs: number;
  complete: boolean;
  retries: number;
}

/**
 * A keep-alive connection that the server closes just as it is reused fails the request. The push
 * is idempotent on externalEventId, so it is sent again, as a partner would (at most twice more).
 */
async function sendPush(t: TestPlatform, token: string, body: unknown) {
  for (let retries = 0; ; retries++) {
    try {
      return { response: await t.call("POST", "/partner/v1/disruptions", token, body), retries };
    } catch (error) {
      if (retries === 2) throw error;
    }
  }
}

async function pushAndWait({ t, token, watch }: BenchPlatform, n: number): Promise<Pushed> {
  const body = disruptionPush(n);
  const pnrs = Array.from({ length: FLIGHT_GROUPS }, (_, g) => pnrOf(n, g));
  const start = performance.now();
  const { response, retries } = await sendPush(t, token, body);
  const accepted = (await response.json()) as { caseUrn?: string };
  const acceptedMs = performance.now() - start;
  if (response.status !== 202 || !accepted.caseUrn) {
    throw new Error(`push ${n} answered ${response.status}: ${JSON.stringify(accepted)}`);
  }
  const complete = await watch.allOf(accepted.caseUrn, pnrs);
  return { caseUrn: accepted.caseUrn, acceptedMs, doneMs: performance.now() - start, complete, retries };
}

/** Pushes disruptions `from`..`from + count - 1`, CONCURRENCY at a time, each until its sub-cases exist. */
async function pushMany(bench: BenchPlatform, from: number, count: number) {
  const results: Array<Pushed & { finishedAt: number }> = [];
  let next = from;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < from + count) {
        const pushed = await pushAndWait(bench, next++);
        results.push({ ...pushed, finishedAt: performance.now() });
      }
    }),
  );
  return results;
}

/**
 * Waits until the platform has worked off what the pushes set going (projections, index copies,
 * the channel's fan-out): the event loop busy under 5% over a quarter second, or 60 s at most.
 */
async function settle(): Promise<boolean> {
  const until = Date.now() + 60_000;
  let last = performance.eventLoopUtilization();
  while (Date.now() < until) {
    await sleep(250);
    const now = performance.eventLoopUtilization();
    if (performance.eventLoopUtilization(now, last).utilization < 0.05) return true;
    last = now;
  }
  return false;
}

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

async function throughput(bench: BenchPlatform, warmup: number, measured: number) {
  await pushMany(bench, 0, warmup);
  await settle();
  const started = performance.now();
  const results = await pushMany(bench, warmup, measured);
  const seconds = (performance.now() - started) / 1000;
  // The last quarter shows whether the rate holds as the stores fill up.
  const ordered = results.map((r) => r.finishedAt).sort((a, b) => a - b);
  const quarter = Math.floor(measured / 4);
  const lastQuarterSeconds = (ordered.at(-1)! - ordered[ordered.length - 1 - quarter]!) / 1000;
  const subCases = bench.t.platform.runtime.documents.collection(SUB_CASE_COLLECTION);
  const counted = await Promise.all(results.map((r) => subCases.count({ caseUrn: r.caseUrn })));
  const latencies = results.map((r) => r.doneMs).sort((a, b) => a - b);
  const accepts = results.map((r) => r.acceptedMs).sort((a, b) => a - b);
  return {
    casesPerSecond: measured / seconds,
    lastQuarterCasesPerSecond: quarter / lastQuarterSeconds,
    latencyP50: percentile(latencies, 50),
    latencyP99: percentile(latencies, 99),
    acceptedP50: percentile(accepts, 50),
    acceptedP99: percentile(accepts, 99),
    incomplete: results.filter((r) => !r.complete).length,
    retries: results.reduce((sum, r) => sum + r.retries, 0),
    countMismatches: counted.filter((count) => count !== FLIGHT_GROUPS).length,
    seconds,
  };
}

/** Live actor activations: a cache the embedded runtime bounds, so they weigh the same before and after. */
function activations(bench: BenchPlatform): number | string {
  const { actors } = bench.t.platform.runtime;
  return actors instanceof EmbeddedActorRuntime ? actors.activeCount : "n/a";
}

async function memory(bench: BenchPlatform, from: number) {
  await settle();
  const activationsBefore = activations(bench);
  const before = heapAfterGc();
  const started = performance.now();
  const results = await pushMany(bench, from, MEMORY_CASES);
  const seconds = (performance.now() - started) / 1000;
  const settled = await settle();
  const after = heapAfterGc();
  return {
    seconds,
    settled,
    activations: `${activationsBefore} / ${activations(bench)}`,
    mbPer1000: ((after - before) / 1e6 / MEMORY_CASES) * 1000,
    beforeMb: before / 1e6,
    afterMb: after / 1e6,
    incomplete: results.filter((r) => !r.complete).length,
    retries: results.reduce((sum, r) => sum + r.retries, 0),
  };
}

/** A `ws` client on the operator channel that keeps what it receives and waits for a match. */
class ChannelClient {
  private readonly received: Array<Record<string, any>> = [];
  private readonly listeners = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => {
      this.received.push(JSON.parse(data.toString()));
      for (const listener of [...this.listeners]) listener();
    });
  }

  static async authenticated(
    url: string,
    token: string,
  ): Promise<{ client: ChannelClient; operatorUrn: string }> {
    const socket = new WebSocket(url);
    const client = new ChannelClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    socket.send(JSON.stringify({ type: "auth", token }));
    const ready = await client.next((m) => m.type === "ready");
    return { client, operatorUrn: ready.operatorUrn as string };
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Forgets what came so far: `next` then waits for what comes after. */
  clear(): void {
    this.received.length = 0;
  }

  next(match: (message: Record<string, any>) => boolean): Promise<Record<string, any>> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.find(match);
        if (!found) return;
        this.listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error("no matching message in time"));
      }, MESSAGE_TIMEOUT_MS);
      this.listeners.add(check);
      check();
    });
  }
}

const stateChange = (subCaseUrn: string, lockedBy: string | null) => (m: Record<string, any>) =>
  m.type === "event" &&
  m.event === "subcase:state-changed" &&
  m.data?.subCaseUrn === subCaseUrn &&
  m.data?.lockedBy === lockedBy;

/**
 * The holder connects and locks over HTTP with the same token (the lock is bound to the token's
 * user, which is also the connection's principal), the observer sees the lock, then the holder's
 * socket is cut without a close handshake, as a dropped network or a killed tab would.
 */
async function lockRelease(t: TestPlatform, caseUrn: string, pnrs: string[]) {
  const url = `${t.base.replace(/^http/, "ws")}${REALTIME_PATH}`;
  const holderToken = await t.operatorToken("operator@zx.demo");
  const { client: observer } = await ChannelClient.authenticated(
    url,
    await t.operatorToken("supervisor@zx.demo"),
  );
  observer.send({ type: "subscribe", caseUrn });
  await observer.next((m) => m.type === "subscribed");
  const samples: number[] = [];
  let failures = 0;
  let lockRefused = 0;
  for (let round = 0; round < LOCK_ROUNDS; round++) {
    const subCaseUrn = subCaseUrnFor(caseUrn, pnrs[round % pnrs.length]!);
    const { client: holder, operatorUrn } = await ChannelClient.authenticated(url, holderToken);
    observer.clear();
    const response = await t.call("POST", `/v1/subcases/${encodeURIComponent(subCaseUrn)}/lock`, holderToken);
    const lock = (await response.json()) as { lockedBy?: string };
    if (response.status !== 200 || lock.lockedBy !== operatorUrn) {
      lockRefused++;
      holder.socket.terminate();
      continue;
    }
    try {
      await observer.next(stateChange(subCaseUrn, operatorUrn));
      observer.clear();
      const cut = performance.now();
      holder.socket.terminate();
      await observer.next(stateChange(subCaseUrn, null));
      samples.push(performance.now() - cut);
    } catch {
      failures++;
    }
  }
  observer.socket.terminate();
  samples.sort((a, b) => a - b);
  return {
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: samples.at(-1) ?? Number.NaN,
    measured: samples.length,
    failures,
    lockRefused,
  };
}

/** What each platform of the run was started with, for `dropDocuments` at the end. */
const environments: Record<string, string>[] = [];

/** The whole service in this process, silent, with rate limits out of the way. */
async function startBenchPlatform(automation: "on" | "off"): Promise<BenchPlatform> {
  const environment = storeEnvironment();
  environments.push(environment);
  const t = await startTestPlatform({
    env: {
      ...environment,
      RATE_LIMIT_SCALE: "100000",
      DEMAND_ON_INTAKE: automation,
      DEMO_POLICIES: automation,
    },
  });
  const watch = new SubCaseWatch(t.platform.runtime.documents.collection(SUB_CASE_COLLECTION));
  return { t, token: await t.partnerToken("skyhub-zx"), watch };
}

/**
 * The runtime's close can wait without end on deliveries still retrying (automatic bookings in
 * flight): the figures are printed regardless. True if it closed in time.
 */
async function closeWithin(t: TestPlatform, ms: number): Promise<boolean> {
  return Promise.race([t.close().then(() => true), sleep(ms).then(() => false)]);
}

const intake = await startBenchPlatform("off");
const rate = await throughput(intake, WARMUP_CASES, MEASURED_CASES);

const lockCaseNumber = WARMUP_CASES + MEASURED_CASES;
const lockCase = await pushAndWait(intake, lockCaseNumber);
await settle();
const storedAtLockRun = await intake.t.platform.runtime.documents.collection(SUB_CASE_COLLECTION).count();
const release = await lockRelease(
  intake.t,
  lockCase.caseUrn,
  Array.from({ length: FLIGHT_GROUPS }, (_, g) => pnrOf(lockCaseNumber, g)),
);

const heap = await memory(intake, lockCaseNumber + 1);
const intakeClosed = await closeWithin(intake.t, 30_000);

// Last: a platform that does not close would go on working beside whatever came after it.
const automated = await startBenchPlatform("on");
const automatedRate = await throughput(automated, AUTOMATION_WARMUP_CASES, AUTOMATION_CASES);
const automatedClosed = await closeWithin(automated.t, 30_000);

for (const environment of environments) await dropDocuments(environment);
const releaseWithinTarget = release.p99 >= 50 && release.p99 <= 200;
printTable(
  `Intake (automatic demand and bookings off): ${MEASURED_CASES} pushes of ${FLIGHT_PASSENGERS} passengers in ` +
    `${FLIGHT_GROUPS} groups (after ${WARMUP_CASES} warm-up), ${CONCURRENCY} in flight`,
  [
    {
      figure: "cases/s (push -> case opened and all sub-cases exist)",
      value: round(rate.casesPerSecond, 1),
      target: ">= 50",
    },
    {
      figure: "passengers/s",
      value: Math.round(rate.casesPerSecond * FLIGHT_PASSENGERS),
      target: ">= 15,000",
    },
    { figure: "seconds for the measured pushes", value: round(rate.seconds), target: "" },
    {
      figure: "cases/s over the last quarter of the run",
      value: round(rate.lastQuarterCasesPerSecond, 1),
      target: "",
    },
    {
      figure: "push -> 202 p50 / p99 (ms)",
      value: `${round(rate.acceptedP50)} / ${round(rate.acceptedP99)}`,
      target: "",
    },
    {
      figure: "push -> all sub-cases p50 / p99 (ms)",
      value: `${round(rate.latencyP50)} / ${round(rate.latencyP99)}`,
      target: "",
    },
    { figure: `cases not complete within ${CASE_TIMEOUT_MS / 1000} s`, value: rate.incomplete, target: "0" },
    { figure: "pushes sent again after a dropped connection", value: rate.retries, target: "" },
    {
      figure: `cases whose sub-cases count is not ${FLIGHT_GROUPS}`,
      value: rate.countMismatches,
      target: "0",
    },
  ],
);
printTable(
  `The same with the embedded default's automatic demand and bookings on: ${AUTOMATION_CASES} pushes ` +
    `(after ${AUTOMATION_WARMUP_CASES} warm-up)`,
  [
    { figure: "cases/s", value: round(automatedRate.casesPerSecond, 1) },
    { figure: "passengers/s", value: Math.round(automatedRate.casesPerSecond * FLIGHT_PASSENGERS) },
    {
      figure: "push -> all sub-cases p50 / p99 (ms)",
      value: `${round(automatedRate.latencyP50)} / ${round(automatedRate.latencyP99)}`,
    },
    { figure: "cases not complete", value: automatedRate.incomplete },
  ],
);
printTable(`Memory: heap after gc, before and after ${MEMORY_CASES} more cases`, [
  { figure: "heap before (MB)", value: round(heap.beforeMb) },
  { figure: "heap after (MB)", value: round(heap.afterMb) },
  { figure: `MB per 1,000 open cases (measured on ${MEMORY_CASES})`, value: round(heap.mbPer1000) },
  { figure: "seconds to open them", value: round(heap.seconds) },
  { figure: "actor activations before / after (a bounded cache)", value: heap.activations },
  {
    figure: "platform idle before the second reading (else read after 60 s)",
    value: heap.settled ? "yes" : "no",
  },
  { figure: "cases not complete", value: heap.incomplete },
  { figure: "pushes sent again after a dropped connection", value: heap.retries },
]);
printTable(`Lock release after disconnect: ${LOCK_ROUNDS} rounds, ${storedAtLockRun} sub-cases stored`, [
  { figure: "p50 (ms)", value: round(release.p50), target: "" },
  { figure: "p99 (ms)", value: round(release.p99), target: "50-200" },
  { figure: "max (ms)", value: round(release.max), target: "" },
  {
    figure: "rounds measured / no release seen / lock refused",
    value: `${release.measured} / ${release.failures} / ${release.lockRefused}`,
    target: "",
  },
]);
console.log(`lock release p99 ${releaseWithinTarget ? "within" : "outside"} 50-200 ms`);
for (const [name, closed] of [
  ["without", intakeClosed],
  ["with", automatedClosed],
] as const) {
  if (!closed) console.log(`the platform ${name} automatic bookings had not closed 30 s after close()`);
}
console.log(
  JSON.stringify({
    bench: "intake",
    cases_per_s: round(rate.casesPerSecond, 1),
    passengers_per_s: Math.round(rate.casesPerSecond * FLIGHT_PASSENGERS),
    case_latency_p99_ms: round(rate.latencyP99),
    mb_per_1000_cases: round(heap.mbPer1000),
    lock_release_p50_ms: round(release.p50),
    lock_release_p99_ms: round(release.p99),
    cases_per_s_with_bookings: round(automatedRate.casesPerSecond, 1),
  }),
);
process.exit(0);
