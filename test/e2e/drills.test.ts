/**
 * Drills (spec 4.2 "Run a drill or shadow case: ADMIN"): a drill replays a past disruption or a
 * synthetic one through the normal automation, against the simulators, while no passenger is
 * notified, no partner gets a webhook, metrics leave it out, and every read says it is a drill.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PassengerOffers } from "../../src/app/passengers/passenger-offer.js";
import { ZEPHYR_AIR } from "../../src/demo/demo-airlines.js";
import { overnightPush } from "../support/overnight-flights.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

let t: TestPlatform;
let admin: string;
let supervisor: string;
let operator: string;
let skyhub: string;
let regulator: string;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let from: string;
/** The live case the drill replays, settled by automation with its offers sent. */
let pastCaseUrn: string;

const enc = encodeURIComponent;

async function offersOf(caseUrn: string): Promise<any[]> {
  const log = await json<{ items: any[] }>(
    await t.call("GET", `/v1/notifications/case/${enc(caseUrn)}`, operator),
    200,
  );
  return log.items.filter((n) => n.template === "offer");
}

/** Waits until both groups of the case were offered a hotel (the saga's offer step ran). */
async function offered(caseUrn: string): Promise<any[]> {
  let offers: any[] = [];
  await vi.waitFor(
    async () => {
      offers = await offersOf(caseUrn);
      expect(offers).toHaveLength(2);
    },
    { timeout: 45_000, interval: 100 },
  );
  return offers;
}

const measure = async (kpi: string) =>
  json<Record<string, any>>(
    await t.call(
      "GET",
      `/partner/v1/metrics?kpi=${kpi}&from=${enc(from)}&to=${enc(new Date().toISOString())}`,
      regulator,
    ),
    200,
  );

beforeAll(async () => {
  t = await startTestPlatform();
  admin = await t.operatorToken("admin@zx.demo");
  supervisor = await t.operatorToken("supervisor@zx.demo");
  operator = await t.operatorToken("operator@zx.demo");
  skyhub = await t.partnerToken("skyhub-zx");
  regulator = await t.partnerToken("regulator-zx");
  receiver = await startWebhookReceiver();
  await json(await t.call("PUT", "/partner/v1/webhooks", skyhub, { url: receiver.url }), 201);
  from = new Date(Date.now() - 1000).toISOString();
  const airport = ZEPHYR_AIR.airports.find((a) => a.code === "JFK")!;
  const pushed = await t.call(
    "POST",
    "/partner/v1/disruptions",
    skyhub,
    overnightPush({
      externalEventId: `DRILL-SOURCE-${Date.now()}`,
      airport,
      flightNumber: 300,
      reason: "WEATHER",
      passengers: [
        {
          pnr: "DRA123",
          lastName: "Rivera",
          cabinClass: "ECONOMY",
          loyaltyTier: "STANDARD",
          contact: { email: "drill-source@example.com" },
        },
        {
          pnr: "DRB789",
          lastName: "Okafor",
          cabinClass: "BUSINESS",
          loyaltyTier: "GOLD",
          contact: { phone: "+15550107777" },
        },
      ],
    }),
  );
  pastCaseUrn = (await json<{ caseUrn: string }>(pushed, 202)).caseUrn;
  const sent = await offered(pastCaseUrn);
  expect(sent.every((n) => n.status !== "SUPPRESSED")).toBe(true);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe("POST /v1/drills", () => {
  it("replays a past case as a drill: automation offers, nothing is sent, no webhook, no metric", async () => {
    const before = await measure("manual-review-rate");
    const response = await t.call("POST", "/v1/drills", admin, { fromCaseUrn: pastCaseUrn });
    const drill = await json(response, 201);
    expect(drill).toMatchObject({ status: "OPEN", drill: true });
    expect(drill.urn).not.toBe(pastCaseUrn);
    expect(response.headers.get("location")).toBe(`/v1/cases/${enc(drill.urn)}`);
    expect(drill.passengerGroups.map((g: any) => g.id).sort()).toEqual(["DRA123", "DRB789"]);

    // The normal automation runs to the offer, and the notifier records it as suppressed.
    for (const offer of await offered(drill.urn)) {
      expect(offer).toMatchObject({
        status: "SUPPRESSED",
        suppressedBecause: "drill",
        channel: null,
        attempts: [],
        carriesMagicLink: false,
      });
    }

    // Every read marks it.
    expect(await json(await t.call("GET", `/v1/cases/${enc(drill.urn)}`, operator), 200)).toMatchObject({
      drill: true,
    });
    expect(await json(await t.call("GET", `/v1/cases/${enc(pastCaseUrn)}`, operator), 200)).toMatchObject({
      drill: false,
    });
    const list = await json<{ items: any[] }>(await t.call("GET", "/v1/cases?limit=100", operator), 200);
    expect(list.items.find((c) => c.urn === drill.urn)).toMatchObject({ drill: true });
    expect(list.items.find((c) => c.urn === pastCaseUrn)).toMatchObject({ drill: false });

    // The passenger's offer says so too.
    const offers = t.platform.container.resolve(PassengerOffers);
    const session = (caseUrn: string) => ({
      surface: "passenger" as const,
      actorUrn: "urn:passenger-session:DRA123",
      tenant: "urn:airline:ZX",
      caseUrn,
      groupId: "DRA123",
      expiresAt: Date.now() + 3_600_000,
    });
    expect(await offers.current(session(drill.urn))).toMatchObject({ drill: true, status: "OFFER_READY" });
    expect(await offers.current(session(pastCaseUrn))).toMatchObject({ drill: false });

    // The partner got the live case's events and none of the drill's.
    expect(receiver.received.some((r) => r.body.case_urn === pastCaseUrn)).toBe(true);
    expect(receiver.received.filter((r) => r.body.case_urn === drill.urn)).toEqual([]);

    // Metrics leave the drill out: the same cases are measured as before it ran.
    const after = await measure("manual-review-rate");
    expect(after.sampleSize).toBe(before.sampleSize);
    expect((await measure("time-to-first-offer-p50")).sampleSize).toBe(1);

    // The request is audited, naming the drill's case.
    const trail = await json<{ items: any[] }>(
      await t.call("GET", `/v1/audit/case/${enc(drill.urn)}`, admin),
      200,
    );
    expect(trail.items.map((e) => e.action)).toEqual(expect.arrayContaining(["drill.run"]));
  }, 60_000);

  it("opens a synthetic drill at an airport", async () => {
    const drill = await json(
      await t.call("POST", "/v1/drills", admin, { synthetic: { airport: "JFK", passengers: 5 } }),
      201,
    );
    expect(drill).toMatchObject({ drill: true, flight: { origin: "JFK", number: "DRILL" } });
    expect(drill.passengerGroups.map((g: any) => g.passengers.length)).toEqual([2, 2, 1]);
  });

  it("is ADMIN only (403), refuses bad bodies (400) and an unknown past case (404)", async () => {
    const body = { synthetic: { airport: "JFK", passengers: 2 } };
    expect((await t.call("POST", "/v1/drills", supervisor, body)).status).toBe(403);
    expect((await t.call("POST", "/v1/drills", operator, body)).status).toBe(403);
    expect((await t.call("POST", "/v1/drills", undefined, body)).status).toBe(401);
    for (const bad of [
      {},
      { synthetic: { airport: "jfk", passengers: 2 } },
      { synthetic: { airport: "JFK", passengers: 0 } },
      { fromCaseUrn: pastCaseUrn, synthetic: body.synthetic },
    ]) {
      const response = await t.call("POST", "/v1/drills", admin, bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/application\/problem\+json/);
    }
    const unknown = await t.call("POST", "/v1/drills", admin, {
      fromCaseUrn: "urn:case:00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.status).toBe(404);
  });
});

describe("POST and GET /v1/cases/{case_urn}/shadow", () => {
  const reservationsOf = async (caseUrn: string) =>
    (
      await json<{ items: any[] }>(
        await t.call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations`, operator),
        200,
      )
    ).items;

  it("reports what automation would allocate against what was done, booking and sending nothing", async () => {
    const path = `/v1/cases/${enc(pastCaseUrn)}/shadow`;
    expect((await t.call("GET", path, admin)).status).toBe(404);
    const reservationsBefore = await reservationsOf(pastCaseUrn);
    const offersBefore = await offersOf(pastCaseUrn);
    const deliveriesBefore = receiver.received.length;

    const report = await json(await t.call("POST", path, admin), 200);
    expect(report).toMatchObject({
      caseUrn: pastCaseUrn,
      automation: { outcome: "PLANNED", reason: null, groupsLeftOut: 0 },
      operators: { reservations: 2, byOperators: 0, groupsHoused: 2, reason: null },
    });
    expect(report.automation.rooms).toBeGreaterThan(0);
    expect(report.automation.totalCost.amountMinor).toBeGreaterThan(0);
    expect(report.operators.rooms).toBe(
      reservationsBefore.filter((r) => r.status !== "CANCELLED").reduce((sum, r) => sum + r.rooms, 0),
    );
    expect(report.operators.timeToFirstOfferSeconds).toBeGreaterThanOrEqual(0);
    expect(report.difference.rooms).toBe(report.automation.rooms - report.operators.rooms);
    if (report.automation.totalCost.currency === report.operators.totalCost.currency) {
      expect(report.difference.totalCost.amountMinor).toBe(
        report.automation.totalCost.amountMinor - report.operators.totalCost.amountMinor,
      );
    }

    // Nothing booked, nothing sent, nothing delivered.
    expect(await reservationsOf(pastCaseUrn)).toEqual(reservationsBefore);
    expect(await offersOf(pastCaseUrn)).toEqual(offersBefore);
    expect(receiver.received.length).toBe(deliveriesBefore);

    expect(await json(await t.call("GET", path, admin), 200)).toEqual(report);
    const trail = await json<{ items: any[] }>(
      await t.call("GET", `/v1/audit/case/${enc(pastCaseUrn)}`, admin),
      200,
    );
    expect(trail.items.map((e) => e.action)).toEqual(expect.arrayContaining(["shadow.run"]));
  }, 60_000);

  it("estimates automation's time to offer from the tenant's other automated cases, drills left out", async () => {
    const shadow = (caseUrn: string) => t.call("POST", `/v1/cases/${enc(caseUrn)}/shadow`, admin);
    // The only other cases so far are drills: nothing to estimate from.
    const alone = await json(await shadow(pastCaseUrn), 200);
    expect(alone.automation).toMatchObject({ timeToFirstOfferSeconds: null, timeToFirstOfferSampleSize: 0 });
    expect(alone.difference.timeToFirstOfferSeconds).toBeNull();

    const airport = ZEPHYR_AIR.airports.find((a) => a.code === "JFK")!;
    const pushed = await t.call(
      "POST",
      "/partner/v1/disruptions",
      skyhub,
      overnightPush({
        externalEventId: `SHADOW-PEER-${Date.now()}`,
        airport,
        flightNumber: 301,
        reason: "WEATHER",
        passengers: [
          { pnr: "SHA111", lastName: "Lind", cabinClass: "ECONOMY", loyaltyTier: "STANDARD" },
          { pnr: "SHB222", lastName: "Moreau", cabinClass: "ECONOMY", loyaltyTier: "STANDARD" },
        ],
      }),
    );
    const peerUrn = (await json<{ caseUrn: string }>(pushed, 202)).caseUrn;
    await offered(peerUrn);
    const peer = await json(await shadow(peerUrn), 200);
    expect(peer.operators.byOperators).toBe(0);
    expect(peer.automation.timeToFirstOfferSampleSize).toBe(1);

    const report = await json(await shadow(pastCaseUrn), 200);
    expect(report.automation).toMatchObject({
      timeToFirstOfferSeconds: peer.operators.timeToFirstOfferSeconds,
      timeToFirstOfferSampleSize: 1,
    });
    expect(report.difference.timeToFirstOfferSeconds).toBe(
      peer.operators.timeToFirstOfferSeconds - report.operators.timeToFirstOfferSeconds,
    );
  }, 60_000);

  it("is ADMIN only (403) and answers 404 for an unknown case", async () => {
    const path = `/v1/cases/${enc(pastCaseUrn)}/shadow`;
    expect((await t.call("POST", path, supervisor)).status).toBe(403);
    expect((await t.call("GET", path, operator)).status).toBe(403);
    const unknown = `/v1/cases/${enc("urn:case:00000000-0000-4000-8000-000000000000")}/shadow`;
    expect((await t.call("POST", unknown, admin)).status).toBe(404);
    expect((await t.call("GET", unknown, admin)).status).toBe(404);
  });
});
