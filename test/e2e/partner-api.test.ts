/**
 * What a partner reads of cases the platform settled by itself (as `npm start` runs it: the demo
 * policy approves the demand, a wave allocates, booking reserves and issues vouchers, the saga
 * offers): a case's services, and the certified KPIs, from the records that hold them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PassengerOffers } from "../../src/app/passengers/passenger-offer.js";
import { IssueWalletCard } from "../../src/app/wallet/issue-wallet-card.js";
import { ZEPHYR_AIR } from "../../src/demo/demo-airlines.js";
import { KPI_IDS } from "../../src/domain/kpi-catalog.js";
import { overnightPush } from "../support/overnight-flights.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";

let t: TestPlatform;
let skyhub: string;
let operator: string;
let caseUrn: string;
let regulator: string;
/** SkyHub's (Tier-1) webhook receiver, subscribed before the disruption is pushed. */
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
/** The window the test's cases were opened in. */
let from: string;

const enc = encodeURIComponent;

/** A disruption at JFK with two PNR groups, pushed by SkyHub; answers once both groups were offered a hotel and may answer. */
async function settledCase(externalEventId: string): Promise<string> {
  const airport = ZEPHYR_AIR.airports.find((a) => a.code === "JFK")!;
  const pushed = await t.call(
    "POST",
    "/partner/v1/disruptions",
    skyhub,
    overnightPush({
      externalEventId,
      airport,
      flightNumber: 100,
      reason: "WEATHER",
      passengers: [
        {
          pnr: "SVC123",
          lastName: "Rivera",
          cabinClass: "ECONOMY",
          loyaltyTier: "STANDARD",
          contact: { email: "svc@example.com" },
        },
        {
          pnr: "SVC789",
          lastName: "Okafor",
          cabinClass: "BUSINESS",
          loyaltyTier: "GOLD",
          contact: { phone: "+15550108888" },
        },
      ],
    }),
  );
  const urn = (await json<{ caseUrn: string }>(pushed, 202)).caseUrn;
  await vi.waitFor(
    async () => {
      const log = await json<{ items: any[] }>(
        await t.call("GET", `/v1/notifications/case/${enc(urn)}`, operator),
        200,
      );
      expect(log.items.filter((n) => n.template === "offer")).toHaveLength(2);
      const manifest = await json<{ items: any[] }>(
        await t.call("GET", `/v1/cases/${enc(urn)}/manifest`, operator),
        200,
      );
      expect(manifest.items.map((group) => group.status)).toEqual(["OFFER_READY", "OFFER_READY"]);
    },
    { timeout: 45_000, interval: 100 },
  );
  return urn;
}

beforeAll(async () => {
  t = await startTestPlatform();
  skyhub = await t.partnerToken("skyhub-zx");
  operator = await t.operatorToken("operator@zx.demo");
  regulator = await t.partnerToken("regulator-zx");
  receiver = await startWebhookReceiver();
  await json(await t.call("PUT", "/partner/v1/webhooks", skyhub, { url: receiver.url }), 201);
  from = new Date(Date.now() - 1000).toISOString();
  caseUrn = await settledCase(`SERVICES-${Date.now()}`);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

describe("GET /partner/v1/cases/{case_urn}/services", () => {
  it("lists the case's hotel reservations with their vouchers, as the booking reads show them", async () => {
    const services = await json<Record<string, any>>(
      await t.call("GET", `/partner/v1/cases/${enc(caseUrn)}/services`, skyhub),
      200,
    );
    // No meal is owed for a weather cancellation at JFK (US DOT: controllable delays only): no card.
    expect(services).toMatchObject({ caseUrn, walletCards: [] });
    expect(services.hotels.map((h: any) => h.groupId).sort()).toEqual(["SVC123", "SVC789"]);
    for (const hotel of services.hotels) {
      expect(hotel).toMatchObject({
        caseUrn,
        status: "CONFIRMED",
        hotel: { hotelUrn: expect.stringMatching(/^urn:/), name: expect.any(String) },
        voucherUrn: expect.stringMatching(/^urn:voucher:/),
      });
      expect(hotel.cost).toBeUndefined();
      const booking = await json(await t.call("GET", `/partner/v1/bookings/${enc(hotel.urn)}`, skyhub), 200);
      expect(booking).toEqual(hotel);
    }
    const operatorView = await json<{ items: any[] }>(
      await t.call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations`, operator),
      200,
    );
    expect(services.hotels.map((h: any) => h.urn).sort()).toEqual(
      operatorView.items.map((r) => r.urn).sort(),
    );
  });

  it("lists the transport legs and wallet cards recorded for the case, without prices, balances or issuer ids", async () => {
    const transfers = await t.call(
      "POST",
      `/v1/transport/cases/${enc(caseUrn)}/transfers/request`,
      operator,
      { directions: ["AIRPORT_TO_HOTEL"] },
    );
    expect(transfers.status).toBe(200);
    // As the saga's wallet leg issues it where a meal is owed.
    const issued = await t.platform.container.resolve(IssueWalletCard).issueWalletCard({
      tenant: "urn:airline:ZX",
      caseUrn,
      groupId: "SVC123",
      airport: "JFK",
      amount: 3_000,
      currency: "USD",
      scheduledDrops: false,
      requestedBy: "urn:system:wallet",
      correlationUrn: "urn:trace:services-wallet",
    });
    expect(issued.outcome).toBe("issued");

    const services = await json<Record<string, any>>(
      await t.call("GET", `/partner/v1/cases/${enc(caseUrn)}/services`, skyhub),
      200,
    );
    // The saga booked each group's rides both ways with its offer; the request found them standing.
    expect(services.transport.map((leg: any) => [leg.groupId, leg.direction]).sort()).toEqual([
      ["SVC123", "AIRPORT_TO_HOTEL"],
      ["SVC123", "HOTEL_TO_AIRPORT"],
      ["SVC789", "AIRPORT_TO_HOTEL"],
      ["SVC789", "HOTEL_TO_AIRPORT"],
    ]);
    for (const leg of services.transport) {
      expect(leg).toMatchObject({
        urn: expect.stringMatching(/^urn:transport-segment:/),
        reservationUrn: expect.stringMatching(/^urn:reservation:/),
        status: expect.any(String),
        pickupLocation: expect.any(String),
      });
      expect(leg.ride).toBeUndefined();
    }
    expect(services.walletCards).toEqual([
      {
        urn: (issued as { card: { urn: string } }).card.urn,
        groupId: "SVC123",
        status: "LOADED",
        issuedAt: expect.any(String),
      },
    ]);
  });

  it("refuses another airline's registration (403) and an unknown case (404)", async () => {
    const vq = await t.partnerToken("regulator-vq");
    expect((await t.call("GET", `/partner/v1/cases/${enc(caseUrn)}/services`, vq)).status).toBe(403);
    const unknown = enc("urn:case:00000000-0000-4000-8000-000000000000");
    expect((await t.call("GET", `/partner/v1/cases/${unknown}/services`, skyhub)).status).toBe(404);
  });
});

describe("GET /partner/v1/metrics", () => {
  const metric = async (kpi: string, window = { from, to: new Date().toISOString() }) =>
    json<Record<string, any>>(
      await t.call(
        "GET",
        `/partner/v1/metrics?kpi=${kpi}&from=${enc(window.from)}&to=${enc(window.to)}`,
        regulator,
      ),
      200,
    );

  it("measures the settled case: time to first offer, groups booked without an operator, cost per passenger, savings", async () => {
    const p50 = await metric("time-to-first-offer-p50");
    expect(p50).toMatchObject({
      kpi: "time-to-first-offer-p50",
      unit: "seconds",
      tenant: "urn:airline:ZX",
      sampleSize: 1,
      reason: null,
      definition: expect.stringContaining("first offer notification"),
    });
    expect(p50.value).toBeGreaterThan(0);
    expect(p50.value).toBeLessThan(45);
    // One case: every percentile is its one time.
    expect((await metric("time-to-first-offer-p95")).value).toBe(p50.value);

    expect(await metric("groups-booked-without-operator")).toMatchObject({
      value: 1,
      sampleSize: 2,
      unit: "ratio",
    });

    const reservations = await json<{ items: any[] }>(
      await t.call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations`, operator),
      200,
    );
    const totalMinor = reservations.items.reduce((sum, r) => sum + r.cost.amountMinor, 0);
    const passengers = reservations.items.reduce((sum, r) => sum + r.guests.length, 0);
    const currency = reservations.items[0].cost.currency;
    expect(await metric("cost-per-passenger")).toMatchObject({
      value: Math.round(totalMinor / passengers) / 100,
      currency,
      sampleSize: passengers,
      breakdown: { [currency]: { value: Math.round(totalMinor / passengers) / 100, sampleSize: passengers } },
    });

    const savings = await metric("savings-vs-market-direct-contracts");
    expect(savings).toMatchObject({ unit: "money", sampleSize: 1, reason: null, currency: "USD" });
    expect(savings.value).toBeGreaterThanOrEqual(0);

    expect(await metric("manual-review-rate")).toMatchObject({ value: 0, sampleSize: 1 });
  });

  it("answers null with a reason where there is nothing to measure, never a made-up figure", async () => {
    expect(await metric("acceptance-rate")).toMatchObject({
      value: null,
      sampleSize: 0,
      reason: "no passenger of the window's cases has answered an offer",
    });
    const before = { from: "2020-01-01T00:00:00Z", to: "2020-01-02T00:00:00Z" };
    for (const kpi of KPI_IDS.filter((id) => id !== "webhook-delivery-p95")) {
      const empty = await metric(kpi, before);
      expect(empty, kpi).toMatchObject({ value: null, sampleSize: 0, reason: expect.any(String) });
    }
    // The regulator is Tier-2, and only SkyHub (Tier-1) subscribed to webhooks.
    expect(await metric("webhook-delivery-p95")).toMatchObject({
      value: null,
      sampleSize: 0,
      reason: "no webhook delivery to a Tier-2 registration in the window",
      breakdown: { "tier-2": { value: null, sampleSize: 0 }, "tier-3": { value: null, sampleSize: 0 } },
    });
  });

  it("measures webhook deliveries per tier, from each event to the attempt that delivered it", async () => {
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThan(0));
    const measured = await metric("webhook-delivery-p95");
    const tier1 = measured.breakdown["tier-1"];
    expect(tier1.sampleSize).toBeGreaterThan(0);
    expect(tier1.sampleSize).toBeLessThanOrEqual(receiver.received.length);
    expect(tier1.value).toBeGreaterThanOrEqual(0);
    expect(tier1.value).toBeLessThan(45);
  });

  it("counts the passengers' answers in the acceptance rate", async () => {
    const offers = t.platform.container.resolve(PassengerOffers);
    const session = (groupId: string) => ({
      surface: "passenger" as const,
      actorUrn: `urn:passenger-session:${groupId}`,
      tenant: "urn:airline:ZX",
      caseUrn,
      groupId,
      expiresAt: Date.now() + 3_600_000,
    });
    await offers.accept(session("SVC123"), "urn:trace:metrics-accept");
    await offers.decline(session("SVC789"), "too far", "urn:trace:metrics-decline");
    await vi.waitFor(async () => {
      expect(await metric("acceptance-rate")).toMatchObject({ value: 0.5, sampleSize: 2, reason: null });
    });
  });

  it("refuses a KPI outside the catalog, a bad or reversed window (400), and a registration without metrics.read (403)", async () => {
    const to = new Date().toISOString();
    const call = (query: string, token = regulator) => t.call("GET", `/partner/v1/metrics?${query}`, token);
    const unknown = await call(`kpi=bookings-per-minute&from=${enc(from)}&to=${enc(to)}`);
    expect(unknown.status).toBe(400);
    expect((await json<{ errors: any[] }>(unknown, 400)).errors[0]).toMatchObject({
      in: "query",
      field: expect.stringMatching(/kpi$/),
    });
    expect((await call(`kpi=acceptance-rate&from=yesterday&to=${enc(to)}`)).status).toBe(400);
    expect((await call(`kpi=acceptance-rate&to=${enc(to)}`)).status).toBe(400);
    const reversed = await call(`kpi=acceptance-rate&from=${enc(to)}&to=${enc(from)}`);
    expect((await json<{ type: string }>(reversed, 400)).type).toMatch(/\/invalid\/window-reversed$/);
    const tooLong = await call(`kpi=acceptance-rate&from=2020-01-01T00:00:00Z&to=${enc(to)}`);
    expect((await json<{ type: string }>(tooLong, 400)).type).toMatch(/\/invalid\/window-too-long$/);
    expect((await call(`kpi=acceptance-rate&from=${enc(from)}&to=${enc(to)}`, skyhub)).status).toBe(403);
  });

  it("measures the caller's airline only", async () => {
    const vq = await t.partnerToken("regulator-vq");
    const response = await t.call(
      "GET",
      `/partner/v1/metrics?kpi=manual-review-rate&from=${enc(from)}&to=${enc(new Date().toISOString())}`,
      vq,
    );
    expect(await json(response, 200)).toMatchObject({ tenant: "urn:airline:VQ", value: null, sampleSize: 0 });
  });
});
