/**
 * A hub meltdown (spec 8.2): a whole evening's departures cancelled at one airport at once. 50
 * flights of 300 passengers (15,000 passengers in 7,500 PNR groups) are pushed within one second at
 * JFK, whose simulated vendors sell 2,000 hotels (SIMULATED_HOTELS_PER_AIRPORT), at zero latency
 * with their throttles lifted (VENDOR_RATE_LIMIT_SCALE=100000) and rate limits raised. Everything
 * runs on the embedded default with automatic demand, allocation and booking on, as `npm start`.
 *
 *   all_offers_ms   the first push sent -> every case's booking settled and every booked group's
 *                   offer notification sent (`subcase.offer-ready`: the saga notifies before it
 *                   offers; groups no hotel took wait in a review item, with no offer).
 *                   Target < 10,000.
 *   peak_rss_mb     the process's maximum resident set over the run. Target < 2,048. The table
 *                   adds the largest V8 heap in use, heap reserved and memory outside the heap
 *                   (external, of which array buffers: sockets' and clients' buffers) sampled
 *                   every 250 ms, to tell which of them makes the peak.
 *   read_p99_ms     an operator reading a case (`GET /v1/cases/{urn}`, one at a time, back to back)
 *                   while the storm runs. Target < 100.
 *   events_per_s    events the airline's topic carried, per second of all_offers_ms.
 *
 * It runs twice, each in a process of its own (so each has its own peak): on the memory state store
 * and on Redis (STATE_STORE=redis at REDIS_URL), the durable single node an airline would run; the
 * durable node's time should be within 2x of memory's. MELTDOWN_STORES picks the stores (default
 * `memory,redis`; Redis is skipped with a printed reason when unreachable), MELTDOWN_FLIGHTS the
 * flights (default 50), MELTDOWN_HOTELS the hotels (default 2,000), MELTDOWN_WAIT_S how long to
 * wait for the offers (default 600), MELTDOWN_LOG a log level for the platform's own log on stderr
 * (silent by default). It measures; it does not assert targets. The last line is the
 * figures as JSON, memory's at the top level and Redis's under `redis_*`.
 */
import "reflect-metadata";
import { spawnSync } from "node:child_process";
import { dirname } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { createClient } from "redis";
import { topicFor } from "../src/domain/domain-event.js";
import { BOOKING_EVENTS } from "../src/domain/events/booking.js";
import type { ReviewItemRequestedData } from "../src/domain/events/review-item.js";
import { TOKENS } from "../src/runtime/tokens.js";
import type { TenantInventoryVendors } from "../src/vendors/tenant-vendors.js";
import { VendorClient } from "../src/vendors/vendor-client.js";
import { startTestPlatform, type TestPlatform } from "../test/support/platform.js";
import { FLIGHT_GROUPS, FLIGHT_PASSENGERS, flightDisruptionPush } from "./flight-disruption.js";
import { OfferWatch } from "./offer-watch.js";
import { serviceNodeFlags } from "./service-node-flags.js";
import { percentile, printTable, round } from "./stats.js";
import { dropDocuments, storeEnvironment } from "./store-environment.js";

const FLIGHTS = Number(process.env.MELTDOWN_FLIGHTS ?? 50);
const HOTELS = Number(process.env.MELTDOWN_HOTELS ?? 2000);
const WAIT_MS = Number(process.env.MELTDOWN_WAIT_S ?? 600) * 1000;
const STORES = (process.env.MELTDOWN_STORES ?? "memory,redis").split(",").map((s) => s.trim());
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
/** MELTDOWN_LOG=warn shows the platform's warnings and errors on stderr (silent by default). */
const LOG_LEVEL = process.env.MELTDOWN_LOG;
const PUSH_WINDOW_MS = 1000;
const TENANT = "urn:airline:ZX";
const ORIGIN = "JFK";
const enc = encodeURIComponent;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface StoreFigures {
  store: string;
  complete: boolean;
  all_offers_ms: number;
  peak_rss_mb: number;
  peak_heap_used_mb: number;
  peak_heap_total_mb: number;
  peak_external_mb: number;
  peak_array_buffers_mb: number;
  read_p99_ms: number;
  read_p50_ms: number;
  reads: number;
  read_failures: number;
  events_per_s: number;
  event_loop_delay_p99_ms: number;
  cases: number;
  cases_settled: number;
  groups_booked: number;
  groups_offered: number;
  push_202_p99_ms: number;
  circuits_seen_open: string;
  groups_in_review_items: string;
  closed: boolean;
}

/** Flight `n` of the run `run`: every flight leaves JFK the same evening, so all compete for the same nights. */
function push(run: string, n: number) {
  return flightDisruptionPush({
    externalEventId: `bench-meltdown-${run}-${n}`,
    tenant: TENANT,
    origin: ORIGIN,
    designator: `ZX${5000 + n}`,
    departure: new Date(Date.UTC(2027, 5, 15, 20, 0) + n * 2 * 60_000),
    pnrOf: (group) => `M${(n * FLIGHT_GROUPS + group).toString(36).toUpperCase().padStart(5, "0")}`,
    emailPrefix: `m${run}-${n}`,
  });
}

/** Operator case reads, one after another, until `stop` says so; latencies in ms. */
async function readWhile(
  t: TestPlatform,
  token: string,
  caseUrn: () => string | undefined,
  stop: () => boolean,
) {
  const latencies: number[] = [];
  let failures = 0;
  while (!stop()) {
    const urn = caseUrn();
    if (!urn) {
      await sleep(5);
      continue;
    }
    const started = performance.now();
    // A read the server cannot even accept in time (its event loop held for the client's 10 s
    // connect timeout) counts as a failed read of that latency: the storm goes on.
    const ok = await t
      .call("GET", `/v1/cases/${enc(urn)}`, token)
      .then(async (response) => {
        await response.arrayBuffer();
        return response.status === 200;
      })
      .catch(() => false);
    latencies.push(performance.now() - started);
    if (!ok) failures++;
    await sleep(10);
  }
  return { latencies: latencies.sort((a, b) => a - b), failures };
}

/**
 * Which vendor circuits (spec 8.3: inventory reads, booking writes) were seen open, sampled every
 * 100 ms: a busy event loop makes even zero-latency simulators miss their call timeouts, and an
 * open circuit holds groups back for its cool-down.
 */
function watchCircuits(t: TestPlatform) {
  const vendors = t.platform.container.resolve<TenantInventoryVendors>(TOKENS.vendors);
  const open = new Map<string, number>();
  const timer = setInterval(() => {
    for (const vendor of vendors.forTenant(TENANT)) {
      if (!(vendor instanceof VendorClient)) continue;
      for (const domain of ["inventory", "booking"] as const) {
        if (vendor.circuitState(domain) === "closed") continue;
        const key = `${vendor.id} ${domain}`;
        open.set(key, (open.get(key) ?? 0) + 1);
      }
    }
  }, 100);
  return {
    stop: () => clearInterval(timer),
    /** `vendor domain seconds` per circuit seen open or half-open. */
    seenOpen: () =>
      [...open].map(([key, samples]) => `${key} ${round(samples / 10, 1)} s`).join(", ") || "none",
  };
}

/** The largest of each part of process.memoryUsage(), sampled every 250 ms, in MB. */
function watchMemory() {
  const peak = { heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
  const sample = () => {
    const usage = process.memoryUsage();
    for (const part of Object.keys(peak) as Array<keyof typeof peak>) {
      peak[part] = Math.max(peak[part], usage[part]);
    }
  };
  const timer = setInterval(sample, 250);
  const mb = (bytes: number) => round(bytes / 1024 / 1024);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return {
        peak_heap_used_mb: mb(peak.heapUsed),
        peak_heap_total_mb: mb(peak.heapTotal),
        peak_external_mb: mb(peak.external),
        peak_array_buffers_mb: mb(peak.arrayBuffers),
      };
    },
  };
}

async function closeWithin(t: TestPlatform, ms: number): Promise<boolean> {
  return Promise.race([t.close().then(() => true), sleep(ms).then(() => false)]);
}

/** One store's run, in this process. */
async function meltdown(store: string): Promise<StoreFigures> {
  const environment = storeEnvironment(store);
  const t = await startTestPlatform({
    env: {
      ...environment,
      RATE_LIMIT_SCALE: "100000",
      VENDOR_RATE_LIMIT_SCALE: "100000",
      DEMAND_ON_INTAKE: "on",
      DEMO_POLICIES: "on",
      SIMULATED_HOTELS_PER_AIRPORT: String(HOTELS),
    },
    ...(LOG_LEVEL ? { logger: pino({ level: LOG_LEVEL }, pino.destination(2)) } : {}),
  });
  const watch = new OfferWatch(t, TENANT, WAIT_MS);
  // Why groups went without a room: the review items' categories, counted by group.
  const reviewed = new Map<string, number>();
  const reasons: string[] = [];
  t.platform.runtime.bus.subscribe({
    name: "bench.meltdown.review-items",
    topic: topicFor({ tenant: TENANT }),
    types: [BOOKING_EVENTS.reviewItemRequested],
    handler: async (event) => {
      const data = event.data as ReviewItemRequestedData;
      const { category } = data;
      reviewed.set(category, (reviewed.get(category) ?? 0) + data.affectedGroups.length);
      reasons.push(
        `${category} ${data.caseUrn}: ${data.reason}; tried ${
          data.attemptedHotels.map((a) => `${a.hotelUrn} ${a.reason} ${a.providerError ?? ""}`).join(", ") || "none"
        }`,
      );
      return "SUCCESS";
    },
  });
  const partner = await t.partnerToken("skyhub-zx");
  const supervisor = await t.operatorToken("supervisor@zx.demo");
  // Unique per run: Redis keeps what earlier runs stored.
  const run = Date.now().toString(36);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const circuits = watchCircuits(t);
  const memory = watchMemory();

  const caseUrns: string[] = [];
  const accepts: number[] = [];
  let done = false;
  const started = performance.now();
  const reads = readWhile(
    t,
    supervisor,
    () => caseUrns[0],
    () => done,
  );
  await Promise.all(
    Array.from({ length: FLIGHTS }, async (_, n) => {
      await sleep((n * PUSH_WINDOW_MS) / FLIGHTS);
      const sent = performance.now();
      const response = await t.call("POST", "/partner/v1/disruptions", partner, push(run, n));
      const body = (await response.json()) as { caseUrn?: string };
      accepts.push(performance.now() - sent);
      if (response.status !== 202 || !body.caseUrn) {
        throw new Error(`push ${n} answered ${response.status}: ${JSON.stringify(body)}`);
      }
      caseUrns.push(body.caseUrn);
    }),
  );
  const complete = await watch.untilAllOffered(caseUrns).then(
    () => true,
    (error: Error) => {
      console.error(`${store}: ${error.message}`);
      return false;
    },
  );
  const allOffersMs = performance.now() - started;
  const events = watch.eventsHeard;
  done = true;
  circuits.stop();
  const memoryPeaks = memory.stop();
  const { latencies, failures } = await reads;
  delay.disable();
  accepts.sort((a, b) => a - b);
  const figures = {
    store,
    complete,
    all_offers_ms: round(allOffersMs),
    peak_rss_mb: round(process.resourceUsage().maxRSS / 1024),
    ...memoryPeaks,
    read_p99_ms: round(percentile(latencies, 99), 2),
    read_p50_ms: round(percentile(latencies, 50), 2),
    reads: latencies.length,
    read_failures: failures,
    events_per_s: Math.round(events / (allOffersMs / 1000)),
    // The histogram's samples are whole 10 ms timer intervals: the delay is what goes beyond.
    event_loop_delay_p99_ms: round(Math.max(0, delay.percentile(99) / 1e6 - 10), 1),
    cases: caseUrns.length,
    cases_settled: watch.settledCount(caseUrns),
    groups_booked: watch.bookedCount(caseUrns),
    groups_offered: watch.offeredCount(caseUrns),
    push_202_p99_ms: round(percentile(accepts, 99)),
    circuits_seen_open: circuits.seenOpen(),
    groups_in_review_items:
      [...reviewed].map(([category, groups]) => `${category} ${groups}`).join(", ") || "none",
    closed: false,
  };
  // Each review item's reason and the hotels tried, on stderr: the figures count groups only.
  for (const reason of reasons) console.error(`${store} review item: ${reason}`);
  figures.closed = await closeWithin(t, 30_000);
  await dropDocuments(environment);
  return figures;
}

async function redisReachable(): Promise<string | undefined> {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    await client.close();
    return undefined;
  } catch (error) {
    client.destroy();
    return error instanceof Error ? error.message : String(error);
  }
}

/** Runs one store in a child process (with the flags the service runs with) and reads its last line. */
function inChild(store: string): StoreFigures | undefined {
  const script = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [...serviceNodeFlags(), "--import", "tsx", script, store], {
    stdio: ["ignore", "pipe", "inherit"],
    cwd: dirname(dirname(script)),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const last = child.stdout.trim().split("\n").at(-1);
  if (child.status !== 0 || !last?.startsWith("{")) {
    console.log(`${store}: the run failed (exit ${child.status})\n${child.stdout}`);
    return undefined;
  }
  return JSON.parse(last) as StoreFigures;
}

const childStore = process.argv[2];
if (childStore) {
  console.log(JSON.stringify(await meltdown(childStore)));
  process.exit(0);
}

const results: StoreFigures[] = [];
for (const store of STORES) {
  if (store === "redis") {
    const unreachable = await redisReachable();
    if (unreachable) {
      console.log(`redis: skipped, Redis at ${REDIS_URL} is unreachable (${unreachable})`);
      continue;
    }
  }
  const figures = inChild(store);
  if (figures) results.push(figures);
}
printTable(
  `Hub meltdown: ${FLIGHTS} flights of ${FLIGHT_PASSENGERS} passengers (${FLIGHTS * FLIGHT_GROUPS} groups) pushed ` +
    `within ${PUSH_WINDOW_MS} ms at ${ORIGIN}, ${HOTELS} hotels, zero-latency simulators, throttles lifted`,
  (Object.keys(results[0] ?? {}) as Array<keyof StoreFigures>)
    .filter((key) => key !== "store")
    .map((key) => ({
      figure: key,
      ...Object.fromEntries(results.map((r) => [r.store, String(r[key])])),
    })),
);
for (const r of results) {
  if (!r.complete) console.log(`${r.store}: not every booked group was offered within ${WAIT_MS / 1000} s`);
  if (!r.closed) console.log(`${r.store}: the platform had not closed 30 s after close()`);
}
const memory = results.find((r) => r.store === "memory");
const redis = results.find((r) => r.store === "redis");
const figuresOf = (r: StoreFigures | undefined, prefix: string) =>
  r
    ? {
        [`${prefix}all_offers_ms`]: r.complete ? r.all_offers_ms : null,
        [`${prefix}peak_rss_mb`]: r.peak_rss_mb,
        [`${prefix}read_p99_ms`]: r.read_p99_ms,
        [`${prefix}events_per_s`]: r.events_per_s,
      }
    : {};
console.log(
  JSON.stringify({
    bench: "meltdown",
    flights: FLIGHTS,
    passengers: FLIGHTS * FLIGHT_PASSENGERS,
    hotels: HOTELS,
    ...figuresOf(memory, ""),
    ...figuresOf(redis, "redis_"),
    ...(memory?.complete && redis?.complete
      ? { durable_ratio: round(redis.all_offers_ms / memory.all_offers_ms, 2) }
      : {}),
  }),
);
process.exit(0);
