/**
 * What a partner reads of a case the platform settled by itself (as `npm start` runs it: the demo
 * policy approves the demand, a wave allocates, booking reserves and issues vouchers, the saga
 * offers): its services from the records that hold them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ZEPHYR_AIR } from "../../src/demo/demo-airlines.js";
import { overnightFlights } from "../support/overnight-flights.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";

let t: TestPlatform;
let skyhub: string;
let operator: string;
let caseUrn: string;

const enc = encodeURIComponent;

/** A disruption at JFK with two PNR groups, pushed by SkyHub; answers once both groups were offered a hotel. */
async function settledCase(externalEventId: string): Promise<string> {
  const airport = ZEPHYR_AIR.airports.find((a) => a.code === "JFK")!;
  const { departure, nextDeparture } = overnightFlights(airport, Date.now());
  const pushed = await t.call("POST", "/partner/v1/disruptions", skyhub, {
    externalEventId,
    airlineUrn: "urn:airline:ZX",
    flight: {
      iataDesignator: "ZX100",
      originAirport: "JFK",
      destinationAirport: "LHR",
      scheduledDeparture: departure.toISOString(),
    },
    disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: new Date().toISOString() },
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
    nextFlight: { iataDesignator: "ZX102", scheduledDeparture: nextDeparture.toISOString() },
  });
  const urn = (await json<{ caseUrn: string }>(pushed, 202)).caseUrn;
  await vi.waitFor(
    async () => {
      const log = await json<{ items: any[] }>(
        await t.call("GET", `/v1/notifications/case/${enc(urn)}`, operator),
        200,
      );
      expect(log.items.filter((n) => n.template === "offer")).toHaveLength(2);
    },
    { timeout: 45_000, interval: 100 },
  );
  return urn;
}

beforeAll(async () => {
  t = await startTestPlatform();
  skyhub = await t.partnerToken("skyhub-zx");
  operator = await t.operatorToken("operator@zx.demo");
  caseUrn = await settledCase(`SERVICES-${Date.now()}`);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("GET /partner/v1/cases/{case_urn}/services", () => {
  it("lists the case's hotel reservations with their vouchers, as the booking reads show them", async () => {
    const services = await json<Record<string, any>>(
      await t.call("GET", `/partner/v1/cases/${enc(caseUrn)}/services`, skyhub),
      200,
    );
    expect(services).toMatchObject({ caseUrn, transport: [], walletCards: [] });
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

  it("refuses another airline's registration (403) and an unknown case (404)", async () => {
    const vq = await t.partnerToken("regulator-vq");
    expect((await t.call("GET", `/partner/v1/cases/${enc(caseUrn)}/services`, vq)).status).toBe(403);
    const unknown = enc("urn:case:00000000-0000-4000-8000-000000000000");
    expect((await t.call("GET", `/partner/v1/cases/${unknown}/services`, skyhub)).status).toBe(404);
  });
});
