/**
 * How long do search + allocate + book take for a 300-passenger flight (spec 2.6, 8.2)? The
 * whole service runs in this process on the embedded default, with the three vendor simulators
 * in process at zero latency and no injected faults.
 *
 * What is timed: a cancelled flight of 300 passengers in 150 PNR groups of two is pushed first
 * (not timed; automatic demand on intake is off so the case waits). The clock starts with the
 * operator's request for the case's rooms (`POST /v1/demand/case/{urn}`, INITIAL, 150 rooms): the
 * seeded demo policy approves it at once, approval starts the allocation wave (one time-boxed
 * search of every vendor, direct contracts, planWave), the wave books what it allocated (one
 * vendor booking per group, candidates in order), and the clock stops when the case's booking
 * actor publishes `booking.wave-settled`: every group then holds a reservation or is named in a
 * review item (groups the wave could not house are in its ALLOCATION_FAILED item). That request
 * is the one an operator or the intake automation makes; what follows is search + allocate + book
 * with nobody acting. The bench checks that coverage before counting a run.
 *
 * Two configurations, each on its own platform: (1) vendor throttles lifted
 * (VENDOR_RATE_LIMIT_SCALE=100000), target < 1 s; (2) the default throttles (per vendor: search
 * 10 calls/s, booking 5 calls/s, bursts of one second's worth), target within 10% of the time
 * the throttles impose. That time is computed from the calls each vendor actually received in
 * the run (counted at the simulators) as the token buckets would pace them from full: per vendor
 * and bucket, max(0, calls - burst) / rate seconds; per phase (search, then booking) the slowest
 * vendor; the phases one after the other. Every run uses new stay dates, so the search is never
 * answered from the cache and every hotel has its full allotment; the buckets are left to fill up
 * before each run. BENCH_RUNS sets the measured runs per configuration (default 5, after one
 * warm-up). It measures; it does not assert targets.
 */
import "reflect-metadata";
import { performance } from "node:perf_hooks";
import { BOOKING_EVENTS, type WaveSettledData } from "../src/domain/events/booking.js";
import { type DomainEvent, topicFor } from "../src/domain/domain-event.js";
import { DEFAULT_VENDOR_LIMITS, type VendorDomain } from "../src/vendors/vendor-client.js";
import { simulatorsOf } from "../test/support/container.js";
import type { VendorOperation } from "../services/vendor-sim/fault-injection.js";
import { startTestPlatform, type TestPlatform } from "../test/support/platform.js";
import { FLIGHT_GROUPS, FLIGHT_PASSENGERS, flightDisruptionPush } from "./flight-disruption.js";
import { percentile, printTable, round } from "./stats.js";
import { storeEnvironment } from "./store-environment.js";

const WARMUP_RUNS = 1;
const MEASURED_RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TENANT = "urn:airline:ZX";
const ORIGIN = "JFK";
const RUN_TIMEOUT_MS = 180_000;
/** More than the one second a bucket takes to fill from empty. */
const BUCKET_REFILL_MS = 1_500;
const LIFTED_SCALE = 100_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const enc = encodeURIComponent;

/** Which bucket paces each vendor operation (src/vendors/vendor-client.ts); token requests take none. */
const BUCKET_OF: Partial<Record<VendorOperation, VendorDomain>> = {
  search: "inventory",
  lookup: "inventory",
  reconcile: "inventory",
  book: "booking",
  cancel: "booking",
};

/** The spec 4.3 push of flight `n`: its own date, so stays never overlap. */
function disruptionPush(n: number) {
  return flightDisruptionPush({
    externalEventId: `bench-reaccommodation-${n}`,
    tenant: TENANT,
    origin: ORIGIN,
    designator: `ZX${2000 + n}`,
    departure: new Date(Date.UTC(2027, 0, 10, 22, 0) + n * 3 * 86_400_000),
    pnrOf: (group) =>
      `R${n.toString(36).toUpperCase().padStart(2, "0")}${group.toString(36).toUpperCase().padStart(3, "0")}`,
    emailPrefix: `r${n}`,
  });
}

/** What the bench hears on the tenant's topic, per case: when the wave completed and settled, who got what. */
class CaseWatch {
  private readonly cases = new Map<string, WatchedCase>();

  constructor(t: TestPlatform) {
    t.platform.runtime.bus.subscribe({
      name: "bench.reaccommodation",
      topic: topicFor({ tenant: TENANT }),
      types: [
        BOOKING_EVENTS.waveCompleted,
        BOOKING_EVENTS.waveSettled,
        BOOKING_EVENTS.reservationConfirmed,
        BOOKING_EVENTS.reviewItemRequested,
      ],
      handler: async (event) => {
        if (event.caseUrn) this.cases.get(event.caseUrn)?.hear(event);
        return "SUCCESS";
      },
    });
  }

  watch(caseUrn: string): WatchedCase {
    const watched = new WatchedCase();
    this.cases.set(caseUrn, watched);
    return watched;
  }
}

class WatchedCase {
  waveCompletedAt: number | undefined;
  settled: WaveSettledData | undefined;
  readonly reservedGroups = new Set<string>();
  readonly reviewedGroups = new Set<string>();
  readonly reviewCategories: string[] = [];
  private readonly settledSignal: Promise<number>;
  private resolveSettled!: (at: number) => void;

  constructor() {
    this.settledSignal = new Promise((resolve) => {
      this.resolveSettled = resolve;
    });
  }

  hear(event: DomainEvent): void {
    const data = event.data as Record<string, any>;
    switch (event.type) {
      case BOOKING_EVENTS.waveCompleted:
        this.waveCompletedAt ??= performance.now();
        break;
      case BOOKING_EVENTS.reservationConfirmed:
        this.reservedGroups.add(data.groupId);
        break;
      case BOOKING_EVENTS.reviewItemRequested:
        this.reviewCategories.push(data.category);
        for (const group of data.affectedGroups ?? []) this.reviewedGroups.add(group);
        break;
      case BOOKING_EVENTS.waveSettled:
        this.settled = data as WaveSettledData;
        this.resolveSettled(performance.now());
        break;
    }
  }

  /** When the wave settled, or undefined after the timeout. */
  settledAt(): Promise<number | undefined> {
    return Promise.race([this.settledSignal, sleep(RUN_TIMEOUT_MS).then(() => undefined)]);
  }

  /** Groups neither holding a reservation nor named in a review item. */
  uncovered(): number {
    return FLIGHT_GROUPS - new Set([...this.reservedGroups, ...this.reviewedGroups]).size;
  }
}

interface BenchPlatform {
  t: TestPlatform;
  partner: string;
  operator: string;
  watch: CaseWatch;
}

async function startBenchPlatform(vendorScale: number): Promise<BenchPlatform> {
  const t = await startTestPlatform({
    env: {
      ...storeEnvironment(),
      RATE_LIMIT_SCALE: "100000",
      DEMAND_ON_INTAKE: "off",
      DEMO_POLICIES: "on",
      VENDOR_RATE_LIMIT_SCALE: String(vendorScale),
    },
  });
  return {
    t,
    partner: await t.partnerToken("skyhub-zx"),
    operator: await t.operatorToken("operator@zx.demo"),
    watch: new CaseWatch(t),
  };
}

/** Requests received per vendor and bucket so far, at the simulators. */
function vendorCalls(t: TestPlatform): Record<string, Record<VendorDomain, number>> {
  const simulators = simulatorsOf(t.platform);
  return Object.fromEntries(
    simulators.all.map((simulator) => {
      const calls: Record<VendorDomain, number> = { inventory: 0, booking: 0 };
      for (const [operation, count] of Object.entries(simulator.requestsReceived())) {
        const bucket = BUCKET_OF[operation as VendorOperation];
        if (bucket) calls[bucket] += count ?? 0;
      }
      return [simulator.id, calls];
    }),
  );
}

function callsBetween(
  before: Record<string, Record<VendorDomain, number>>,
  after: Record<string, Record<VendorDomain, number>>,
): Record<string, Record<VendorDomain, number>> {
  return Object.fromEntries(
    Object.entries(after).map(([vendor, calls]) => [
      vendor,
      {
        inventory: calls.inventory - (before[vendor]?.inventory ?? 0),
        booking: calls.booking - (before[vendor]?.booking ?? 0),
      },
    ]),
  );
}

/**
 * The least time the token buckets allow for these calls, starting full: the search phase's
 * slowest vendor, then the booking phase's slowest vendor (booking starts after the search).
 */
function imposedMs(calls: Record<string, Record<VendorDomain, number>>, scale: number): number {
  const phase = (domain: VendorDomain) => {
    const rate = DEFAULT_VENDOR_LIMITS[domain] * scale;
    const burst = rate;
    return Math.max(0, ...Object.values(calls).map((c) => (Math.max(0, c[domain] - burst) / rate) * 1000));
  };
  return phase("inventory") + phase("booking");
}

interface RunResult {
  ms: number;
  /** CPU time of this process over the timed part: less disturbed than `ms` by other work on the machine. */
  cpuMs: number;
  waveMs: number;
  imposedMs: number;
  calls: Record<string, Record<VendorDomain, number>>;
  reserved: number;
  reviewed: number;
  uncovered: number;
  outcome: string;
  listed: number;
}

/** Pushes flight `n` and waits for its case, then times demand → settled wave. */
async function run(bench: BenchPlatform, n: number, scale: number): Promise<RunResult> {
  const { t, partner, operator, watch } = bench;
  const pushed = await t.call("POST", "/partner/v1/disruptions", partner, disruptionPush(n));
  const accepted = (await pushed.json()) as { caseUrn?: string };
  if (pushed.status !== 202 || !accepted.caseUrn) {
    throw new Error(`push ${n} answered ${pushed.status}: ${JSON.stringify(accepted)}`);
  }
  const caseUrn = accepted.caseUrn;
  await caseReady(t, operator, caseUrn);
  const watched = watch.watch(caseUrn);
  await sleep(BUCKET_REFILL_MS);

  const before = vendorCalls(t);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const requested = await t.call("POST", `/v1/demand/case/${enc(caseUrn)}`, operator, {
    type: "INITIAL",
    roomsRequested: FLIGHT_GROUPS,
  });
  if (requested.status !== 201 && requested.status !== 200) {
    throw new Error(`demand for ${caseUrn} answered ${requested.status}: ${await requested.text()}`);
  }
  const settledAt = await watched.settledAt();
  if (settledAt === undefined) throw new Error(`${caseUrn}: no settled wave within ${RUN_TIMEOUT_MS} ms`);
  const { user, system } = process.cpuUsage(cpu);
  const calls = callsBetween(before, vendorCalls(t));

  const listed = await reservationCount(t, operator, caseUrn);
  return {
    ms: settledAt - start,
    cpuMs: (user + system) / 1000,
    waveMs: (watched.waveCompletedAt ?? Number.NaN) - start,
    imposedMs: imposedMs(calls, scale),
    calls,
    reserved: watched.reservedGroups.size,
    reviewed: watched.reviewedGroups.size,
    uncovered: watched.uncovered(),
    outcome: watched.settled?.outcome ?? "?",
    listed,
  };
}

/** The case is open with every group once its detail answers with 150 groups. */
async function caseReady(t: TestPlatform, token: string, caseUrn: string): Promise<void> {
  const until = Date.now() + RUN_TIMEOUT_MS;
  while (Date.now() < until) {
    const response = await t.call("GET", `/v1/cases/${enc(caseUrn)}`, token);
    if (response.ok) {
      const body = (await response.json()) as { passengerGroups?: unknown[] };
      if (body.passengerGroups?.length === FLIGHT_GROUPS) return;
    } else {
      await response.body?.cancel();
    }
    await sleep(20);
  }
  throw new Error(`${caseUrn} did not open with ${FLIGHT_GROUPS} groups`);
}

/** Reservations the booking API lists for the case (after the timed part). */
async function reservationCount(t: TestPlatform, token: string, caseUrn: string): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const query = `limit=200${cursor ? `&cursor=${enc(cursor)}` : ""}`;
    const response = await t.call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations?${query}`, token);
    const page = (await response.json()) as {
      items?: unknown[];
      nextCursor?: string | null;
      hasMore?: boolean;
    };
    count += page.items?.length ?? 0;
    cursor = page.hasMore ? (page.nextCursor ?? undefined) : undefined;
  } while (cursor);
  return count;
}

/** The runtime's close can wait on deliveries still retrying; the figures are printed regardless. */
async function closeWithin(t: TestPlatform, ms: number): Promise<boolean> {
  return Promise.race([t.close().then(() => true), sleep(ms).then(() => false)]);
}

interface Configuration {
  name: string;
  scale: number;
  runs: RunResult[];
  closed: boolean;
}

async function measure(name: string, scale: number, firstFlight: number): Promise<Configuration> {
  const bench = await startBenchPlatform(scale);
  const runs: RunResult[] = [];
  for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
    const result = await run(bench, firstFlight + i, scale);
    if (i >= WARMUP_RUNS) runs.push(result);
    console.error(
      `${name} run ${i + 1 - WARMUP_RUNS}: ${round(result.ms)} ms (wave ${round(result.waveMs)} ms, CPU ${round(result.cpuMs)} ms), imposed ${round(result.imposedMs)} ms, ` +
        `${result.reserved} reserved, ${result.reviewed} in review, ${result.outcome}, calls ${JSON.stringify(result.calls)}`,
    );
  }
  return { name, scale, runs, closed: await closeWithin(bench.t, 30_000) };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => percentile(sorted(values), 50);
const p90 = (values: number[]) => percentile(sorted(values), 90);
const sum = (calls: Record<string, Record<VendorDomain, number>>, domain: VendorDomain) =>
  Object.values(calls).reduce((total, c) => total + c[domain], 0);

const lifted = await measure("throttles lifted", LIFTED_SCALE, 0);
const throttled = await measure("default throttles", 1, 100);

const ratios = throttled.runs.map((r) => r.ms / r.imposedMs);
const rows = [lifted, throttled].flatMap((configuration) => {
  const { runs } = configuration;
  const ms = runs.map((r) => r.ms);
  const wave = runs.map((r) => r.waveMs);
  const last = runs.at(-1)!;
  return [
    {
      configuration: configuration.name,
      figure: "demand request -> wave settled, median / p90 (ms)",
      value: `${round(median(ms))} / ${round(p90(ms))}`,
      target: configuration.scale === 1 ? "" : "< 1000",
    },
    {
      configuration: configuration.name,
      figure: "  CPU time of the process meanwhile, median (ms)",
      value: round(median(runs.map((r) => r.cpuMs))),
      target: "",
    },
    {
      configuration: configuration.name,
      figure: "  of which search + allocate (wave completed), median (ms)",
      value: round(median(wave)),
      target: "",
    },
    {
      configuration: configuration.name,
      figure: "vendor calls per run: search / booking (all vendors, last run)",
      value: `${sum(last.calls, "inventory")} / ${sum(last.calls, "booking")}`,
      target: "",
    },
    {
      configuration: configuration.name,
      figure: "groups reserved / in a review item / neither (last run)",
      value: `${last.reserved} / ${last.reviewed} / ${last.uncovered}`,
      target: "- / - / 0",
    },
    {
      configuration: configuration.name,
      figure: "reservations listed by the booking API (last run)",
      value: last.listed,
      target: "",
    },
  ];
});
rows.push(
  {
    configuration: throttled.name,
    figure: "time the throttles impose, median (ms)",
    value: round(median(throttled.runs.map((r) => r.imposedMs))),
    target: "",
  },
  {
    configuration: throttled.name,
    figure: "measured / imposed, median / p90",
    value: `${round(median(ratios), 3)} / ${round(p90(ratios), 3)}`,
    target: "<= 1.10",
  },
);
printTable(
  `Search + allocate + book: ${FLIGHT_PASSENGERS} passengers in ${FLIGHT_GROUPS} groups at ${ORIGIN}, zero-latency ` +
    `simulators, ${MEASURED_RUNS} runs per configuration (after ${WARMUP_RUNS} warm-up)`,
  rows,
);
for (const configuration of [lifted, throttled]) {
  if (configuration.runs.some((r) => r.uncovered > 0)) {
    console.log(`${configuration.name}: some runs left groups with neither a reservation nor a review item`);
  }
  if (!configuration.closed)
    console.log(`the platform (${configuration.name}) had not closed 30 s after close()`);
}
console.log(
  JSON.stringify({
    bench: "reaccommodation",
    lifted_median_ms: round(median(lifted.runs.map((r) => r.ms))),
    lifted_p90_ms: round(p90(lifted.runs.map((r) => r.ms))),
    lifted_cpu_median_ms: round(median(lifted.runs.map((r) => r.cpuMs))),
    throttled_median_ms: round(median(throttled.runs.map((r) => r.ms))),
    throttled_p90_ms: round(p90(throttled.runs.map((r) => r.ms))),
    throttled_imposed_median_ms: round(median(throttled.runs.map((r) => r.imposedMs))),
    throttled_ratio_median: round(median(ratios), 3),
    throttled_ratio_p90: round(p90(ratios), 3),
    groups_reserved: lifted.runs.at(-1)!.reserved,
    groups_in_review: lifted.runs.at(-1)!.reviewed,
  }),
);
process.exit(0);
