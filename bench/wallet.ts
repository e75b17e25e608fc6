/**
 * Wallet issuer webhooks under load (spec 4.5, 6.3) on the embedded default, over real HTTP:
 *
 *   events_per_s       signed issuer webhooks ingested per second: every request carries its
 *                      X-Vendor-Signature (HMAC-SHA256 with the tenant's secret) and a fresh or
 *                      repeated X-Vendor-Event-Id; the service checks the signature, finds the card,
 *                      applies the event in the card's actor and answers a signed 200. N events over
 *                      a few cards, CONCURRENCY in flight at a time: first the authorizations, then
 *                      the captures of those holds, with DUPLICATE_SHARE of each phase sent twice.
 *                      Target >= 5,000.
 *   drift_minor_units  after both phases, the sum over the cards of |expected - actual| of the
 *                      current and available balances, expected computed from the events sent (each
 *                      duplicate counted once). Must be 0: no update lost, none applied twice.
 *
 *   events_per_cpu_s  the same per second of the service process's CPU time (user + system): on a
 *                      shared machine the wall-clock figure also measures the neighbours.
 *   load_cpu_s         the load generator's own CPU time while sending (user + system).
 *   bare_koa_per_s     the same requests against a bare Koa hello world (bench/http-server.ts bare)
 *                      in a process of its own, right after: what HTTP alone allows on this machine
 *                      now; `ratio_to_bare_koa` is events_per_s over it.
 *
 * The service runs in this process, with the Node flags `npm start` gives it (a bench started
 * without them runs itself again with them): the young generation's size decides how much of each
 * request goes to garbage collection. Bodies are signed before the clock starts and sent from a
 * process of their own (bench/wallet-load.mjs), so the figure is the service's, not the client's.
 * It measures; it does not assert targets. The last line is the figures as JSON.
 */
import "reflect-metadata";
import { fork, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { IssueWalletCard } from "../src/app/wallet/issue-wallet-card.js";
import { WalletReads } from "../src/app/wallet/wallet-reads.js";
import { type WalletCardState, availableBalance } from "../src/domain/wallet/wallet-card.js";
import { freePort, startTestPlatform } from "../test/support/platform.js";
import { startServer } from "./alternating-slices.js";
import { serviceNodeFlags } from "./service-node-flags.js";
import { printTable, round } from "./stats.js";

const TENANT = "urn:airline:ZX";
const CASE = "urn:case:9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a";
const SECRET = "demo-wallet-webhook-zx";
const CARDS = Number(process.env.BENCH_WALLET_CARDS ?? 8);
const EVENTS = Number(process.env.BENCH_WALLET_EVENTS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_WALLET_CONCURRENCY ?? 64);
const DUPLICATE_SHARE = 0.05;
const CARD_AMOUNT = 2_000_000;

interface LoadAnswer {
  elapsedMs: number;
  /** The generator's own CPU time while sending. */
  cpuMs: number;
  statuses: Record<string, number>;
  sent: number;
}

/** Signs and sends the events from a process of its own (bench/wallet-load.mjs); its timing and statuses. */
function load(settings: Record<string, unknown>): { ready: Promise<void>; done: Promise<LoadAnswer> } {
  const child = fork(fileURLToPath(new URL("./wallet-load.mjs", import.meta.url)), [], { execArgv: [] });
  const done = new Promise<LoadAnswer>((resolve, reject) => {
    child.once("message", (answer) => resolve(answer as LoadAnswer));
    child.once("error", reject);
    child.once("exit", (code) => code !== 0 && reject(new Error(`the load generator exited with ${code}`)));
  });
  return { ready: new Promise((resolve) => child.send(settings, () => resolve())), done };
}

async function main(): Promise<void> {
  const t = await startTestPlatform({ env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
  const url = `${t.base}/v1/wallet/webhooks/wallet-sim`;
  try {
    const issue = t.platform.container.resolve(IssueWalletCard);
    const cards: WalletCardState[] = [];
    for (let i = 0; i < CARDS; i++) {
      const outcome = await issue.issueWalletCard({
        tenant: TENANT,
        caseUrn: CASE,
        groupId: `G${i}`,
        airport: "JFK",
        amount: CARD_AMOUNT,
        currency: "USD",
        scheduledDrops: false,
        requestedBy: "urn:system:bench",
        correlationUrn: "urn:trace:5af7651916cd43dd8448eb211c80319c",
      });
      if (outcome.outcome !== "issued") throw new Error(`card ${i} not issued: ${JSON.stringify(outcome)}`);
      cards.push(outcome.card);
    }

    // Two phases of EVENTS / 2: the holds, then their captures (bench/wallet-load.mjs signs and sends them).
    const perPhase = Math.floor(EVENTS / 2);
    const captured = new Map<string, number>(cards.map((c) => [c.urn, 0]));
    const events: [number, number][] = [];
    for (let i = 0; i < perPhase; i++) {
      const [card, amount] = [i % cards.length, 1 + (i % 97)];
      events.push([card, amount]);
      captured.set(cards[card]!.urn, captured.get(cards[card]!.urn)! + amount);
    }
    const settings = {
      url,
      secret: SECRET,
      cardIds: cards.map((c) => c.issuerCardId),
      events,
      duplicateEvery: Math.round(1 / DUPLICATE_SHARE),
      concurrency: CONCURRENCY,
    };
    const generator = load(settings);
    await generator.ready;
    const cpuBefore = process.cpuUsage();
    const { elapsedMs, cpuMs: loadCpuMs, statuses, sent } = await generator.done;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    const elapsedS = elapsedMs / 1000;
    const { 200: ok = 0, ...failures } = statuses;

    // The same load against a bare Koa hello world in a process of its own: what HTTP alone costs here.
    const bare = await startServer(["bare", String(await freePort())]);
    const bareCpu = () =>
      new Promise<number>((resolve) => {
        bare.process.once("message", (micros) => resolve(micros as number));
        bare.process.send("cpu");
      });
    const bareGenerator = load({ ...settings, url: `http://127.0.0.1:${bare.ready[0]}/` });
    await bareGenerator.ready;
    const bareCpuBefore = await bareCpu();
    const bareRun = await bareGenerator.done;
    const bareCpuS = ((await bareCpu()) - bareCpuBefore) / 1e6;
    bare.process.kill();
    const bareEventsPerS = Math.round(bareRun.sent / (bareRun.elapsedMs / 1000));

    const reads = t.platform.container.resolve(WalletReads);
    let drift = 0;
    const rows: Array<Record<string, string | number>> = [];
    for (const card of cards) {
      const actual = (await reads.cardOfGroup(CASE, card.groupId))!;
      const expected = CARD_AMOUNT - captured.get(card.urn)!;
      drift += Math.abs(expected - actual.currentBalance) + Math.abs(expected - availableBalance(actual));
      rows.push({
        card: card.groupId,
        transactions: actual.transactions.length,
        expected,
        current: actual.currentBalance,
        available: availableBalance(actual),
      });
    }
    printTable("Cards after the events", rows);
    const figures = {
      bench: "wallet",
      events: sent,
      cards: CARDS,
      concurrency: CONCURRENCY,
      duplicates: sent - 2 * perPhase,
      answered_200: ok,
      non_200: failures,
      elapsed_s: round(elapsedS, 2),
      events_per_s: Math.round(sent / elapsedS),
      // The service's own CPU time: what a core to itself would give on this shared machine.
      service_cpu_s: round(cpuS, 2),
      events_per_cpu_s: Math.round(sent / cpuS),
      // The load generator's, on the same machine: what it leaves the service of the other CPU.
      load_cpu_s: round(loadCpuMs / 1000, 2),
      bare_koa_per_s: bareEventsPerS,
      bare_koa_per_cpu_s: Math.round(bareRun.sent / bareCpuS),
      ratio_to_bare_koa: round(sent / elapsedS / bareEventsPerS, 2),
      drift_minor_units: drift,
    };
    printTable("Signed issuer webhooks (target >= 5,000 events/s, drift 0)", [
      { events: sent, seconds: figures.elapsed_s, events_per_s: figures.events_per_s, drift },
    ]);
    console.log(JSON.stringify(figures));
  } finally {
    await t.close();
  }
}

const shippedFlags = serviceNodeFlags();
if (shippedFlags.every((flag) => process.execArgv.includes(flag))) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  const run = spawnSync(
    process.execPath,
    [...shippedFlags, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: "inherit" },
  );
  process.exit(run.status ?? 1);
}
