import type { ChildProcess } from "node:child_process";
import { exportJWK, generateKeyPair, type JWK } from "jose";
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
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { PassengerSessionTokens } from "../../src/passenger-identity/session-tokens.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import type { GroupBooking } from "../../src/domain/booking/group-booking.js";
import type { WebhookDelivery } from "../../src/domain/webhooks/webhook-delivery.js";
import { caseIdFor } from "../../src/domain/case.js";
import { systemClock } from "../../src/runtime/clock.js";
import { RedisStateStore } from "../../src/runtime/redis/state-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
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
 * CHAOS_SEED repeats a run (the seed is printed); CHAOS_KEEP_DB=1 leaves the run's Redis database
 * (printed) for inspection. Documents (the case index, webhook subscriptions, the event log) are in
 * that Redis database too (DOCUMENT_STORE=redis, the durable single node's default), or in MongoDB
 * when MONGODB_URL is set: either way they outlive every kill, and every check below holds on both.
 */
const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const KILLS = 12;
const FLIGHTS = 5;
/** Passengers who decline their offer, each answer followed by a kill during the rollback it starts. */
const DECLINES = 3;
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
/** The run's claim on a logical database of its own (other tests use database 0 under key prefixes). */
const CLAIM_KEY = "chaos-crash-kill:claimed-by";
const mongoUrl = process.env.MONGODB_URL;
const QUIESCENCE_MS = 120_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const STILL_FOR_MS = 8_000;

const redis = await redisForTests("Crash safety under SIGKILL");

/**
 * A Redis logical database (1 to 15) no other run holds, emptied and claimed for this run, so its
 * keys neither meet other tests' nor those of a concurrent run of this test.
 */
async function claimDatabase(): Promise<string> {
  const root = REDIS_URL.replace(/\/\d+$/, "");
  for (let db = 1; db <= 15; db++) {
    const url = `${root}/${db}`;
    const client = createClient({ url });
    await client.connect();
    try {
      if ((await client.dbSize()) > 0 && !(await client.exists(CLAIM_KEY))) continue;
      if ((await client.set(CLAIM_KEY, String(SEED), { NX: true, EX: 900 })) !== "OK") continue;
      for await (const keys of client.scanIterator({ COUNT: 500 })) {
        const others = keys.filter((k) => k !== CLAIM_KEY);
        if (others.length > 0) await client.del(others);
      }
      return url;
    } finally {
      await client.close();
    }
  }
  throw new Error("no free Redis logical database (1 to 15) for the chaos run");
}

async function releaseDatabase(url: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  await client.flushDb();
  await client.close();
}

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
    // A day later than the next overnight flights: the declined rooms' free cancellation (18:00 UTC
    // on check-in day in the simulators) is open at any hour, so every decline cancels with the vendor.
    const { departure, nextDeparture } = overnightFlights(airport, Date.now() + DAY_MS);
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
  let chaosRedisUrl: string | undefined;
  let signingKey: JWK;
  let sessions: PassengerSessionTokens;
  const base = () => `http://localhost:${port}`;
  const passengerBase = () => `http://localhost:${passengerPort}`;

  beforeAll(async () => {
    chaosRedisUrl = await claimDatabase();
    console.log(`chaos run on ${chaosRedisUrl}`);
    vendorSim = await startTestPlatform({ env: { SERVICES: "vendor-sim" } });
    smtp = await SmtpSink.start();
    receiver = await startWebhookReceiver();
    [port, passengerPort] = [await freePort(), await freePort()];
    // Passenger sessions minted here are honoured by every restarted process.
    signingKey = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
    sessions = new PassengerSessionTokens({
      issuer: passengerBase(),
      audience: `${passengerBase()}/v1`,
      key: await loadPassengerSigningKey(signingKey),
      revocations: new CaseRevocations(new MemoryDocumentStore()),
      clock: systemClock,
    });
  }, 60_000);

  afterAll(async () => {
    child?.kill("SIGKILL");
    await vendorSim?.close();
    await smtp?.close();
    await receiver?.close();
    if (chaosRedisUrl && !process.env.CHAOS_KEEP_DB) await releaseDatabase(chaosRedisUrl);
  });

  /** The platform in a process of its own, on the same ports each time (callbacks find it again). */
  async function start(): Promise<void> {
    const instance = await startRegionalInstance(
      { name: "chaos", port, passengerPort, location: { lat: 0, lon: 0 } },
      base(),
      undefined,
      {
        STATE_STORE: "redis",
        REDIS_URL: chaosRedisUrl!,
        PASSENGER_SIGNING_KEY: JSON.stringify(signingKey),
        ...(mongoUrl
          ? { DOCUMENT_STORE: "mongodb", MONGODB_URL: mongoUrl, MONGODB_DATABASE: `chaos_${SEED}` }
          : { DOCUMENT_STORE: "redis" }),
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

  /** The passenger declines the group's offer, as often as it takes (the offer may not be out yet). */
  async function decline(passenger: Passenger, caseUrn: string): Promise<void> {
    const { token } = await sessions.mint({ tenant: "urn:airline:ZX", caseUrn, groupId: passenger.pnr });
    for (let attempt = 0; attempt < 600; attempt++) {
      try {
        const response = await fetch(`${passengerBase()}/v1/me/offer/decline`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ reason: "staying with family" }),
        });
        const text = await response.text();
        if (response.ok || text.includes("offer-already-declined")) return;
        // Each refused try (409 while the offer is not out yet) counts against the session's write
        // limit (spec 8.1): a 429 is waited out as a client would, by its Retry-After.
        if (response.status === 429) {
          await pause(Number(response.headers.get("retry-after") ?? 1) * 1000);
          continue;
        }
      } catch {
        // Down or starting.
      }
      await pause(200);
    }
    throw new Error(`${passenger.lastName}'s decline was never taken`);
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
    const decliners = random.sample(
      all.flatMap((f) => f.passengers.map((p) => ({ ...p, flight: f }))),
      DECLINES,
    );
    for (let k = 0; k < KILLS; k++) {
      const decliner = k >= FLIGHTS ? decliners[k - FLIGHTS] : undefined;
      if (decliner) await decline(decliner, caseUrns.get(decliner.flight.externalEventId)!);
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
    const fingerprint = async () =>
      JSON.stringify([
        hotels.map((h) => h.backend.changesSince(-1).length),
        wallet.issuedCards().map((c) => [c.loaded, c.status]),
        rides.booked().map((r) => r.status),
        (await smtp.messages()).length,
        receiver.received.length,
      ]);
    // Booking's own view, from the actors' state in Redis: a group stays BOOKING while its claim holds.
    const state = await RedisStateStore.connect({ url: chaosRedisUrl!, prefix: "state:" });
    const claimed = async (): Promise<GroupBooking[]> => {
      const bookings = await Promise.all(
        all.map(async (flight) => {
          const caseId = caseIdFor("urn:airline:ZX", flight.externalEventId);
          const entries = await state.getMany<GroupBooking>(
            await state.keys(`actor||BookingActor||${caseId}||booking:`),
          );
          return [...entries.values()].map((e) => e.value);
        }),
      );
      return bookings.flat().filter((b) => b.state === "BOOKING");
    };
    // A partner delivery whose attempt a kill cut short is retried by its reminder a minute later
    // (spec 6.1's backoff; the WebhookDeliveryActor sets it before each attempt): still RETRYING.
    const retryingDeliveries = async (): Promise<number> => {
      const keys = (await state.keys("actor||WebhookDeliveryActor||")).filter((key) =>
        key.endsWith("||delivery"),
      );
      const deliveries = await state.getMany<WebhookDelivery>(keys);
      return [...deliveries.values()].filter((d) => d.value.status === "RETRYING").length;
    };
    const lastRestart = Date.now();
    let last = await fingerprint();
    let stillSince = Date.now();
    let booking = await claimed();
    let retrying = await retryingDeliveries();
    const quiescenceDeadline = Date.now() + QUIESCENCE_MS;
    while (
      (Date.now() - stillSince < STILL_FOR_MS || booking.length > 0 || retrying > 0) &&
      Date.now() < quiescenceDeadline
    ) {
      await pause(500);
      booking = await claimed();
      retrying = await retryingDeliveries();
      const now = `${await fingerprint()} ${booking.length} ${retrying}`;
      if (now !== last) [last, stillSince] = [now, Date.now()];
    }
    await state.close();
    const quiescent = Date.now() - stillSince >= STILL_FOR_MS && booking.length === 0 && retrying === 0;
    // The last change after the last restart (a witness, or a group's booking decided): how long the
    // restarted process took to finish what the killed ones left.
    const quiescenceMs = stillSince - lastRestart;
    const ledger = hotels.flatMap((h) => h.backend.changesSince(-1).map((c) => ({ vendor: h.id, ...c })));
    const passengers = all.flatMap((f) => f.passengers.map((p) => ({ ...p, flight: f })));
    const declined = new Set(decliners.map((d) => d.lastName));
    console.log(
      `chaos run: ${KILLS} kills, ${DECLINES} declines (${decliners.map((d) => d.lastName).join(", ")}), restarts ${Math.round(restarts.reduce((a, b) => a + b, 0) / restarts.length)} ms on average, ` +
        `${Math.round((Date.now() - began) / 1000)} s in all; quiescent ${quiescent ? `${quiescenceMs} ms` : "never (bounded wait ran out)"} after the last restart; ` +
        `${ledger.length} hotel ledger entries, ` +
        `${wallet.issuedCards().length} cards, ${rides.booked().length} rides, ${(await smtp.messages()).length} e-mails, ` +
        `${receiver.received.length} webhook deliveries`,
    );

    // A kill must not strand a group under its claim: the restarted process (the next incarnation of
    // the same node) takes its dead predecessor's claims over at once, without waiting for the lease.
    expect(
      booking.map(
        (b) => `${b.groupId} (attempt ${b.attempt ?? 1}, held by ${JSON.stringify(b.claim?.holder)})`,
      ),
      "groups left BOOKING under a killed process's claim",
    ).toEqual([]);

    // 1. Every group holds exactly one live reservation, or a review item names it, or declined
    //    and its room was cancelled; no room was booked twice, none cancelled twice (the vendors'
    //    ledgers witness).
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
      if (live.length > 0) continue;
      if (declined.has(passenger.lastName)) {
        expect(cancelled.length, `${passenger.lastName} declined: the room cancelled once`).toBe(1);
        expect(created.length, `${passenger.lastName} declined: one room booked`).toBe(1);
      } else {
        unhoused.push(passenger);
      }
    }
    const offered = passengers.filter((p) => !unhoused.includes(p));
    if (unhoused.length > 0) {
      const review = await fetch(`${base()}/v1/booking/manual-review?state=OPEN`, {
        headers: { Authorization: `Bearer ${await supervisorToken()}` },
      });
      const items =
        ((await review.json()) as { items?: { caseUrn: string; affectedGroups?: string[] }[] }).items ?? [];
      for (const passenger of unhoused) {
        const caseUrn = caseUrns.get(passenger.flight.externalEventId);
        // A refused booking raises its review item in the turn that records the refusal.
        const named = items.some(
          (i) => i.caseUrn === caseUrn && (i.affectedGroups ?? []).some((g) => g.includes(passenger.pnr)),
        );
        console.log(
          `${passenger.lastName} (${passenger.pnr}) holds no reservation; review items: ${JSON.stringify(items)}`,
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
    const mails = await smtp.messages();
    for (const passenger of passengers) {
      const mine = mails.filter((m) => m.envelope.to.includes(passenger.email));
      for (const [subject, sends] of countBy(mine, (m) => m.subject)) {
        const urns = new Set(sends.map((m) => m.notificationUrn));
        expect(urns.size, `${passenger.email} "${subject}": ${[...urns].join(", ")}`).toBe(1);
        expect([...urns][0]).toMatch(/^urn:notification:/);
      }
      if (offered.includes(passenger)) {
        expect(mine.length, `${passenger.email} got no offer`).toBeGreaterThan(0);
      }
    }

    // 5. Webhook events: one URN per event (a redelivery repeats it), and every event delivered at
    //    least once.
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
    const offerEvents = new Set(
      deliveries.filter((d) => d.type === "subcase.offer-ready").map((d) => d.subject),
    );
    const missing = {
      "case.opened": [...caseUrns.values()].filter((urn) => !opened.has(urn)).length,
      "subcase.offer-ready": offered.length - offerEvents.size,
    };
    expect(missing).toEqual({ "case.opened": 0, "subcase.offer-ready": 0 });
  }, 480_000);
});
