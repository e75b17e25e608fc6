import type { ChildProcess } from "node:child_process";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRegionalInstance } from "../../scripts/regional-instances.js";
import { SmtpSink } from "../../services/notifications/smtp-sink.js";
import { RideProviderSimulator } from "../../services/vendor-sim/ride-provider.js";
import { WalletIssuerSimulator } from "../../services/vendor-sim/wallet-issuer.js";
import { ZEPHYR_AIR } from "../../src/demo/demo-airlines.js";
import { demoCredentials } from "../../src/demo/demo-credentials.js";
import { SeededRandom } from "../../src/domain/seeded-random.js";
import { defaultAudiences } from "../../src/identity/audiences.js";
import { totpCode } from "../../src/identity/totp.js";
import { simulatorsOf } from "../support/container.js";
import { overnightFlights } from "../support/overnight-flights.js";
import {
  freePort,
  requestToken,
  skyhubToken,
  startTestPlatform,
  type TestPlatform,
} from "../support/platform.js";
import { REDIS_URL, redisForTests } from "../support/redis.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

/**
 * Crash safety: the whole flow (partner pushes, demand, allocation and booking, the sub-case sagas
 * with their meal cards, rides, vouchers and notifications, partner webhooks) runs in a platform
 * process on Redis (STATE_STORE=redis) that is killed with SIGKILL at seeded random moments and
 * started again each time. What it talks to outlives the kills and witnesses what happened: the
 * vendor simulators (hotel ledgers, the wallet issuer's cards, the ride provider) run in a vendor-sim
 * app in this process, as do the SMTP sink and the partner's webhook receiver.
 *
 * CHAOS_SEED repeats a run (the seed is printed). Documents (the case index, webhook subscriptions,
 * the event log) live in MongoDB when MONGODB_URL is set, otherwise in the killed process's memory,
 * where no kill leaves them: partner webhooks are then delivered only while the registration lasts,
 * so their at-least-once delivery is checked only with MongoDB.
 */
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const KILLS = 12;
const FLIGHTS = 5;
const LAST_NAMES = [
  "Rivera",
  "Okafor",
  "Tanaka",
  "Novak",
  "Haddad",
  "Lindqvist",
  "Moreau",
  "Santos",
  "Kowalski",
  "Mensah",
];
/** A logical database of its own, flushed first, so other tests' keys are neither read nor touched. */
const CHAOS_DB = 11;
const chaosRedisUrl = `${REDIS_URL.replace(/\/\d+$/, "")}/${CHAOS_DB}`;
const mongoUrl = process.env.MONGODB_URL;
const QUIESCENCE_MS = 120_000;
const STILL_FOR_MS = 8_000;

const redis = await redisForTests("Crash safety under SIGKILL");

interface Passenger {
  pnr: string;
  lastName: string;
  email: string;
}

interface Flight {
  externalEventId: string;
  body: Record<string, unknown>;
  passengers: Passenger[];
}

/**
 * Overnight flights (the wait is long and the cause the airline's, so each group is owed meals and
 * gets a meal card) of two passengers each, on their own PNR: one group per passenger, told apart
 * by last name.
 */
function flights(seed: number): Flight[] {
  return Array.from({ length: FLIGHTS }, (_, f) => {
    const airport = ZEPHYR_AIR.airports[f % ZEPHYR_AIR.airports.length]!;
    const { departure, nextDeparture } = overnightFlights(airport, Date.now());
    const externalEventId = `chaos-${seed}-${f}`;
    const passengers = [0, 1].map((p) => ({
      pnr: `CH${String(seed % 1000).padStart(3, "0")}${f * 2 + p}`.slice(0, 6),
      lastName: LAST_NAMES[f * 2 + p]!,
      email: `pax-${seed}-${f}-${p}@chaos.example`,
    }));
    return {
      externalEventId,
      passengers,
      body: {
        externalEventId,
        airlineUrn: "urn:airline:ZX",
        flight: {
          iataDesignator: `ZX${300 + f}`,
          originAirport: airport.code,
          destinationAirport: "LHR",
          scheduledDeparture: departure.toISOString(),
        },
        disruption: { type: "CANCELLED", reason: "MAINTENANCE", decidedAt: new Date().toISOString() },
        passengers: passengers.map((p) => ({
          pnr: p.pnr,
          lastName: p.lastName,
          cabinClass: "ECONOMY",
          loyaltyTier: "STANDARD",
          contact: { email: p.email, language: "en" },
        })),
        nextFlight: { iataDesignator: `ZX${400 + f}`, scheduledDeparture: nextDeparture.toISOString() },
      },
    };
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

describe.skipIf(!redis.reachable)("crash safety: the whole flow under SIGKILL, on Redis", () => {
  let vendorSim: TestPlatform;
  let smtp: SmtpSink;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let child: ChildProcess | undefined;
  let port: number;
  let passengerPort: number;
  const base = () => `http://localhost:${port}`;
  const passengerBase = () => `http://localhost:${passengerPort}`;

  beforeAll(async () => {
    const client = createClient({ url: chaosRedisUrl });
    await client.connect();
    await client.flushDb();
    await client.close();
    vendorSim = await startTestPlatform({ env: { SERVICES: "vendor-sim" } });
    smtp = await SmtpSink.start();
    receiver = await startWebhookReceiver();
    [port, passengerPort] = [await freePort(), await freePort()];
  }, 60_000);

  afterAll(async () => {
    child?.kill("SIGKILL");
    await vendorSim?.close();
    await smtp?.close();
    await receiver?.close();
  });

  /** The platform in a process of its own, on the same ports each time (callbacks find it again). */
  async function start(): Promise<void> {
    const instance = await startRegionalInstance(
      { name: "chaos", port, passengerPort, location: { lat: 0, lon: 0 } },
      base(),
      undefined,
      {
        STATE_STORE: "redis",
        REDIS_URL: chaosRedisUrl,
        ...(mongoUrl
          ? { DOCUMENT_STORE: "mongo", MONGODB_URL: mongoUrl, MONGODB_DATABASE: `chaos_${SEED}` }
          : {}),
        VENDOR_SIM_URL: vendorSim.base,
        SMTP_URL: smtp.url,
        WEBHOOK_ALLOW_LOOPBACK_HTTP: "on",
        PASSENGER_BASE_URL: passengerBase(),
        LOG_LEVEL: "fatal",
      },
    );
    child = instance.process;
  }

  async function kill(): Promise<void> {
    const dying = child!;
    const exited = new Promise((resolve) => dying.once("exit", resolve));
    dying.kill("SIGKILL");
    await exited;
    child = undefined;
  }

  /** Calls the platform as SkyHub until it answers `accepted` (it may be down or starting meanwhile). */
  async function untilAnswered(
    call: (token: string) => Promise<Response>,
    accepted: (status: number) => boolean,
  ): Promise<Response> {
    for (let attempt = 0; attempt < 600; attempt++) {
      try {
        const response = await call(await skyhubToken(base()));
        if (accepted(response.status)) return response;
        await response.arrayBuffer();
      } catch {
        // Down or starting: a later attempt finds the restarted process.
      }
      await pause(200);
    }
    throw new Error("the platform never answered");
  }

  async function supervisorToken(): Promise<string> {
    const audiences = defaultAudiences(base(), passengerBase());
    const credentials = demoCredentials({
      baseUrl: base(),
      passengerBaseUrl: passengerBase(),
      authUrl: `${base()}/auth`,
      audiences,
      now: Date.now(),
    });
    const user = credentials.tenants
      .flatMap((t) => t.users)
      .find((u) => u.username === "supervisor@zx.demo")!;
    return requestToken(base(), {
      grant_type: "password",
      username: user.username,
      password: user.password,
      audience: audiences.operator,
      otp: totpCode(user.totpSecret!, Date.now()),
    });
  }

  it("keeps every invariant across seeded random kills", async () => {
    console.log(`chaos seed ${SEED} (CHAOS_SEED=${SEED} repeats this run)`);
    const began = Date.now();
    const random = new SeededRandom(SEED);
    const all = flights(SEED);
    const caseUrns = new Map<string, string>();
    await start();

    await untilAnswered(
      (token) =>
        fetch(`${base()}/partner/v1/webhooks`, {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ url: receiver.url }),
        }),
      (status) => status === 200 || status === 201,
    );

    // Each of the first kills lands while a freshly pushed flight is being worked on; the rest land
    // while restarted processes resume what the earlier ones left.
    const restarts: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      const flight = all[k];
      if (flight) {
        const response = await untilAnswered(
          (token) =>
            fetch(`${base()}/partner/v1/disruptions`, {
              method: "POST",
              headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
              body: JSON.stringify(flight.body),
            }),
          (status) => status === 202 || status === 200,
        );
        caseUrns.set(flight.externalEventId, ((await response.json()) as { caseUrn: string }).caseUrn);
      }
      await pause(random.int(0, 2_500));
      await kill();
      const restarting = Date.now();
      await start();
      restarts.push(Date.now() - restarting);
    }

    // Quiescence: every witness stays still for a while (bounded).
    const hotels = simulatorsOf(vendorSim.platform).all;
    const wallet = vendorSim.platform.container.resolve(WalletIssuerSimulator);
    const rides = vendorSim.platform.container.resolve(RideProviderSimulator);
    const fingerprint = () =>
      JSON.stringify([
        hotels.map((h) => h.backend.changesSince(-1).length),
        wallet.issuedCards().map((c) => [c.loaded, c.status]),
        rides.booked().map((r) => r.status),
        smtp.messages().length,
        receiver.received.length,
      ]);
    let last = fingerprint();
    let stillSince = Date.now();
    const quiescenceDeadline = Date.now() + QUIESCENCE_MS;
    while (Date.now() - stillSince < STILL_FOR_MS && Date.now() < quiescenceDeadline) {
      await pause(500);
      const now = fingerprint();
      if (now !== last) [last, stillSince] = [now, Date.now()];
    }
    const ledger = hotels.flatMap((h) => h.backend.changesSince(-1).map((c) => ({ vendor: h.id, ...c })));
    const passengers = all.flatMap((f) => f.passengers.map((p) => ({ ...p, flight: f })));
    console.log(
      `chaos run: ${KILLS} kills, restarts ${Math.round(restarts.reduce((a, b) => a + b, 0) / restarts.length)} ms on average, ` +
        `${Math.round((Date.now() - began) / 1000)} s in all; ${ledger.length} hotel ledger entries, ` +
        `${wallet.issuedCards().length} cards, ${rides.booked().length} rides, ${smtp.messages().length} e-mails, ` +
        `${receiver.received.length} webhook deliveries`,
    );

    // 1. Every group holds exactly one live reservation, or a review item names it; no room was
    //    booked twice, none cancelled twice (the vendors' ledgers witness).
    const unhoused: typeof passengers = [];
    for (const passenger of passengers) {
      const mine = ledger.filter((c) => c.reservation.guestNames.some((n) => n.includes(passenger.lastName)));
      const created = mine
        .filter((c) => c.kind === "CREATED")
        .map((c) => `${c.vendor}/${c.reservation.reservationId}`);
      const cancelled = mine
        .filter((c) => c.kind === "CANCELLED")
        .map((c) => `${c.vendor}/${c.reservation.reservationId}`);
      expect(new Set(cancelled).size, `${passenger.lastName}: a reservation cancelled twice`).toBe(
        cancelled.length,
      );
      const live = created.filter((id) => !cancelled.includes(id));
      expect(
        live.length,
        `${passenger.lastName}: live reservations ${JSON.stringify(live)}`,
      ).toBeLessThanOrEqual(1);
      if (live.length === 0) unhoused.push(passenger);
    }
    if (unhoused.length > 0) {
      const review = await fetch(`${base()}/v1/booking/manual-review?state=OPEN`, {
        headers: { Authorization: `Bearer ${await supervisorToken()}` },
      });
      const items =
        ((await review.json()) as { items?: { caseUrn: string; affectedGroups?: string[] }[] }).items ?? [];
      for (const passenger of unhoused) {
        const caseUrn = caseUrns.get(passenger.flight.externalEventId);
        const named = items.some(
          (i) => i.caseUrn === caseUrn && (i.affectedGroups ?? []).some((g) => g.includes(passenger.pnr)),
        );
        expect(named, `${passenger.lastName} has no live reservation and no review item`).toBe(true);
      }
    }

    // 2. No meal card loaded twice: one card per group at the issuer, never loaded beyond what it funds.
    const cards = wallet.issuedCards();
    expect(cards.length).toBeLessThanOrEqual(passengers.length);
    expect(new Set(cards.map((c) => c.reference)).size).toBe(cards.length);
    for (const card of cards) expect(card.loaded, `card ${card.cardId}`).toBeLessThanOrEqual(card.initial);

    // 3. No ride booked twice: one ride per reference, at most two live (to the hotel and back) per group.
    const booked = rides.booked();
    expect(new Set(booked.map((r) => r.reference)).size).toBe(booked.length);
    expect(booked.filter((r) => r.status !== "CANCELLED").length).toBeLessThanOrEqual(2 * passengers.length);

    // 4. Every passenger notified once per template: repeated sends carry the same notification URN
    //    (the receiver's dedupe key), and every housed passenger got the offer.
    const mails = smtp.messages();
    for (const passenger of passengers) {
      const mine = mails.filter((m) => m.envelope.to.includes(passenger.email));
      for (const [subject, sends] of countBy(mine, (m) => m.subject)) {
        const urns = new Set(sends.map((m) => m.notificationUrn));
        expect(urns.size, `${passenger.email} "${subject}": ${[...urns].join(", ")}`).toBe(1);
        expect([...urns][0]).toMatch(/^urn:notification:/);
      }
      if (!unhoused.includes(passenger)) {
        expect(mine.length, `${passenger.email} got no offer`).toBeGreaterThan(0);
      }
    }

    // 5. Webhook events: one URN per event (a redelivery repeats it), and, with durable documents,
    //    every event delivered at least once.
    const deliveries = receiver.received.map((r) => ({
      type: r.body.type,
      urn: String(r.headers["x-svc-event-urn"]),
      subject: String(
        r.body.data?.subCaseUrn ?? r.body.data?.voucherUrn ?? r.body.data?.cardUrn ?? r.body.case_urn,
      ),
    }));
    for (const delivery of deliveries) expect(delivery.urn).toMatch(/^urn:event:/);
    for (const [key, events] of countBy(deliveries, (d) => `${d.type} ${d.subject}`)) {
      expect(new Set(events.map((e) => e.urn)).size, `${key} came under several URNs`).toBe(1);
    }
    const opened = new Set(deliveries.filter((d) => d.type === "case.opened").map((d) => d.subject));
    const offered = new Set(deliveries.filter((d) => d.type === "subcase.offer-ready").map((d) => d.subject));
    const missing = {
      "case.opened": [...caseUrns.values()].filter((urn) => !opened.has(urn)).length,
      "subcase.offer-ready": passengers.length - unhoused.length - offered.size,
    };
    if (mongoUrl) {
      expect(missing).toEqual({ "case.opened": 0, "subcase.offer-ready": 0 });
    } else {
      console.warn(
        `at-least-once webhook delivery not checked: documents (webhook registrations) are in the killed process's memory without MONGODB_URL; missing here ${JSON.stringify(missing)}`,
      );
    }
  }, 480_000);
});
