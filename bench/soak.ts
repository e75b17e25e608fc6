/**
 * Does the service hold steady under hours of ordinary load (spec 8.2)? Mixed traffic at a fixed
 * rate for SOAK_MINUTES (default 30) on the embedded default with automatic demand, allocation
 * and booking on, zero-latency simulators and throttles lifted:
 *  - a 300-passenger disruption pushed every SOAK_PUSH_EVERY_S seconds (default 20), each a new
 *    flight, so intake, search, allocation, booking, sagas and notifications keep running;
 *  - operator reads at SOAK_READS_PER_S (default 20): a case's detail and the case list in turn;
 *  - compensations (`reoffer`) at SOAK_COMPENSATIONS_PER_S (default 2) over the offered sub-cases.
 * Every SAMPLE_S seconds it reads the resident set, the heap and the event loop's delay over the
 * window; at the end it prints the least-squares slope of each per minute (flat is the goal: the
 * stores grow with the cases pushed, so the heap grows by what they hold) and every error: an
 * answer other than the expected status, or a request that failed. STATE_STORE and REDIS_URL are
 * taken from the environment. Not part of `npm run bench` (bench/run-all.mjs skips it): run it alone.
 * It measures; it does not assert targets. The last line is the figures as JSON.
 */
import "reflect-metadata";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { decodeJwt } from "jose";
import { startTestPlatform, type TestPlatform } from "../test/support/platform.js";
import { FLIGHT_PASSENGERS, flightDisruptionPush } from "./flight-disruption.js";
import { OfferWatch } from "./offer-watch.js";
import { printTable, round } from "./stats.js";
import { storeEnvironment } from "./store-environment.js";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const PUSH_EVERY_S = Number(process.env.SOAK_PUSH_EVERY_S ?? 20);
const READS_PER_S = Number(process.env.SOAK_READS_PER_S ?? 20);
const COMPENSATIONS_PER_S = Number(process.env.SOAK_COMPENSATIONS_PER_S ?? 2);
/** Enough samples for a slope even on a one-minute run. */
const SAMPLE_S = Math.min(30, (MINUTES * 60) / 12);
const TENANT = "urn:airline:ZX";
const ORIGIN = "JFK";
const enc = encodeURIComponent;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
  minute: number;
  rssMb: number;
  heapMb: number;
  delayMeanMs: number;
  delayP99Ms: number;
}

/** The histogram's samples are whole timer intervals: the delay is what goes beyond the interval. */
const DELAY_RESOLUTION_MS = 10;
const lateMs = (nanos: number) => Math.max(0, nanos / 1e6 - DELAY_RESOLUTION_MS);

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

/** Errors by kind: what was asked and what came back. */
class Errors {
  readonly counts = new Map<string, number>();

  add(kind: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }
}

/** Calls `request` every `1000 / perSecond` ms on the clock (not after the previous answer) until `until`. */
async function atFixedRate(perSecond: number, until: number, request: (i: number) => Promise<void>) {
  if (perSecond <= 0) return;
  const begun = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; ; i++) {
    const due = begun + (i * 1000) / perSecond;
    if (due >= until) break;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const call = request(i).finally(() => inFlight.delete(call));
    inFlight.add(call);
  }
  await Promise.all(inFlight);
}

/**
 * A bearer token obtained again a minute before its `exp`: the soak outlives one (an operator's
 * lasts 15 minutes), and a run that read "401" for its second half measured nothing.
 */
function renewing(obtain: () => Promise<string>): () => Promise<string> {
  const obtained = () =>
    obtain().then((token) => {
      const { exp } = decodeJwt(token);
      return { token, renewAt: exp === undefined ? Number.POSITIVE_INFINITY : exp * 1000 - 60_000 };
    });
  let current: ReturnType<typeof obtained> | undefined;
  return async () => {
    current ??= obtained();
    if (Date.now() >= (await current).renewAt) current = obtained();
    return (await current).token;
  };
}

async function expect(errors: Errors, what: string, status: number, call: () => Promise<Response>) {
  try {
    const response = await call();
    await response.arrayBuffer();
    if (response.status !== status) errors.add(`${what}: ${response.status}`);
  } catch (error) {
    errors.add(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function push(run: string, n: number) {
  return flightDisruptionPush({
    externalEventId: `bench-soak-${run}-${n}`,
    tenant: TENANT,
    origin: ORIGIN,
    designator: `ZX${6000 + (n % 3000)}`,
    // A flight a day: each one's stays have the hotels to themselves.
    departure: new Date(Date.UTC(2027, 8, 1, 22, 0) + n * 86_400_000),
    pnrOf: (group) => `S${(n * 150 + group).toString(36).toUpperCase().padStart(5, "0")}`,
    emailPrefix: `s${run}-${n}`,
  });
}

async function soak(t: TestPlatform) {
  const partner = renewing(() => t.partnerToken("skyhub-zx"));
  const supervisor = renewing(() => t.operatorToken("supervisor@zx.demo"));
  const watch = new OfferWatch(t, TENANT, 120_000);
  const errors = new Errors();
  const caseUrns: string[] = [];
  const offered: string[] = [];
  const run = Date.now().toString(36);
  const started = performance.now();
  const until = started + MINUTES * 60_000;
  const samples: Sample[] = [];
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  delay.enable();

  const sampling = (async () => {
    while (performance.now() < until) {
      await sleep(SAMPLE_S * 1000);
      const { rss, heapUsed } = process.memoryUsage();
      samples.push({
        minute: (performance.now() - started) / 60_000,
        rssMb: rss / 1e6,
        heapMb: heapUsed / 1e6,
        delayMeanMs: lateMs(delay.mean),
        delayP99Ms: lateMs(delay.percentile(99)),
      });
      delay.reset();
    }
  })();

  const pushes = atFixedRate(1 / PUSH_EVERY_S, until, async (n) => {
    try {
      const response = await t.call("POST", "/partner/v1/disruptions", await partner(), push(run, n));
      const body = (await response.json()) as { caseUrn?: string };
      if (response.status !== 202 || !body.caseUrn) {
        errors.add(`push: ${response.status}`);
        return;
      }
      caseUrns.push(body.caseUrn);
      const detail = await t.call("GET", `/v1/cases/${enc(body.caseUrn)}`, await supervisor());
      await detail.arrayBuffer();
      await watch.untilAllOffered([body.caseUrn]);
      const read = await t.call("GET", `/v1/cases/${enc(body.caseUrn)}`, await supervisor());
      const groups = (await read.json()) as {
        passengerGroups?: Array<{ subCaseUrn: string; operationalStatus: string }>;
      };
      for (const g of groups.passengerGroups ?? []) {
        if (g.operationalStatus === "OFFER_READY") offered.push(g.subCaseUrn);
      }
    } catch (error) {
      errors.add(`push: ${error instanceof Error ? error.message : String(error)}`);
    }
  });

  const reads = atFixedRate(READS_PER_S, until, async (i) => {
    const caseUrn = caseUrns[i % Math.max(1, caseUrns.length)];
    if (i % 2 === 0 && caseUrn) {
      await expect(errors, "GET /v1/cases/{urn}", 200, async () =>
        t.call("GET", `/v1/cases/${enc(caseUrn)}`, await supervisor()),
      );
    } else {
      await expect(errors, "GET /v1/cases", 200, async () =>
        t.call("GET", "/v1/cases?limit=20", await supervisor()),
      );
    }
  });

  const compensations = atFixedRate(COMPENSATIONS_PER_S, until, async (i) => {
    const subCaseUrn = offered[i % Math.max(1, offered.length)];
    if (!subCaseUrn) return;
    await expect(errors, "POST /v1/subcases/{urn}/compensate", 202, async () =>
      t.call("POST", `/v1/subcases/${enc(subCaseUrn)}/compensate`, await supervisor(), { action: "reoffer" }),
    );
  });

  await Promise.all([pushes, reads, compensations, sampling]);
  delay.disable();
  return { samples, errors, cases: caseUrns.length, offered: offered.length, events: watch.eventsHeard };
}

const t = await startTestPlatform({
  env: {
    ...storeEnvironment(),
    RATE_LIMIT_SCALE: "100000",
    VENDOR_RATE_LIMIT_SCALE: "100000",
    DEMAND_ON_INTAKE: "on",
    DEMO_POLICIES: "on",
  },
});
const result = await soak(t);
const closed = await Promise.race([t.close().then(() => true), sleep(30_000).then(() => false)]);

const { samples, errors } = result;
printTable(
  `Soak: ${MINUTES} min, samples every ${round(SAMPLE_S)} s`,
  samples.map((s) => ({
    minute: round(s.minute, 2),
    rss_mb: round(s.rssMb),
    heap_mb: round(s.heapMb),
    loop_delay_mean_ms: round(s.delayMeanMs, 2),
    loop_delay_p99_ms: round(s.delayP99Ms, 2),
  })),
);
// The first sample holds the start-up's allocations and compilation; the slopes leave it out.
const steady = samples.length > 3 ? samples.slice(1) : samples;
const rssSlope = slope(steady.map((s) => [s.minute, s.rssMb] as const));
const heapSlope = slope(steady.map((s) => [s.minute, s.heapMb] as const));
const delaySlope = slope(steady.map((s) => [s.minute, s.delayP99Ms] as const));
printTable(
  "Errors",
  errors.total ? [...errors.counts].map(([kind, count]) => ({ kind, count })) : [{ kind: "none", count: 0 }],
);
console.log(
  `${result.cases} flights of ${FLIGHT_PASSENGERS} passengers pushed, ${result.offered} sub-cases offered, ` +
    `${result.events} events on the airline's topic${closed ? "" : "; the platform had not closed 30 s after close()"}`,
);
console.log(
  JSON.stringify({
    bench: "soak",
    minutes: MINUTES,
    store: process.env.STATE_STORE || "memory",
    rss_mb_per_min: round(rssSlope, 2),
    heap_mb_per_min: round(heapSlope, 2),
    loop_delay_p99_ms_per_min: round(delaySlope, 3),
    last_rss_mb: round(samples.at(-1)?.rssMb ?? Number.NaN),
    last_loop_delay_p99_ms: round(samples.at(-1)?.delayP99Ms ?? Number.NaN, 2),
    errors: errors.total,
    cases: result.cases,
  }),
);
process.exit(0);
