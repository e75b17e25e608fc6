import { completeWave, guaranteedHotels, oneRoomAllocation } from "../support/completed-wave.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOOKING_EVENTS } from "../../src/domain/events/booking.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";

const ZX = "urn:airline:ZX";
const CHECK_IN = "2026-12-05";
const CHECK_OUT = "2026-12-06";
const NIGHT = { checkIn: CHECK_IN, checkOut: CHECK_OUT };
const enc = encodeURIComponent;

let t: TestPlatform;
const tokens: Record<string, string> = {};
const events: DomainEvent[] = [];
const waiters: Array<{ match: (e: DomainEvent) => boolean; resolve: (e: DomainEvent) => void }> = [];
/**
 * Both cases depart from airports without a policy, so nothing books them by itself: the booked
 * one gets a synthetic wave (as allocation would write it) and is booked on request; the other has
 * no wave.
 */
let bookedCase: string;
let laxCase: string;
let reservations: Array<Record<string, any>>;

/** Resolves with the first event (past or future) that matches. */
function eventMatching(match: (e: DomainEvent) => boolean): Promise<DomainEvent> {
  const seen = events.find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => waiters.push({ match, resolve }));
}

async function json(response: Response, status: number): Promise<any> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text ? JSON.parse(text) : undefined;
}

async function openCase(externalEventId: string, origin: string): Promise<string> {
  const body = await json(
    await t.call("POST", "/v1/cases", tokens.supervisor, {
      externalEventId,
      flight: { number: "ZX410", origin, destination: "LHR", scheduledDeparture: `${CHECK_IN}T22:00:00Z` },
      nextFlight: { number: "ZX412", scheduledDeparture: `${CHECK_OUT}T18:00:00Z` },
      passengerGroups: [
        {
          id: "GA1",
          pnr: "BKG001",
          passengers: [
            {
              id: `${externalEventId}-p1`,
              firstName: "Ana",
              lastName: "O'Neil <b>",
              tier: "ECONOMY",
              contact: { email: "ana.oneil@example.com", phone: "+14155550111" },
            },
            { id: `${externalEventId}-p2`, firstName: "Luis", lastName: "O'Neil <b>", tier: "ECONOMY" },
          ],
        },
        {
          id: "GA2",
          pnr: "BKG002",
          passengers: [
            {
              id: `${externalEventId}-p3`,
              lastName: "Okafor",
              tier: "ECONOMY",
              contact: { email: "okafor@example.com", phone: "+14155550122" },
            },
          ],
        },
      ],
    }),
    201,
  );
  return body.urn;
}

/** A two-group wave over the first two hotels that take a guarantee (test/support/completed-wave.ts). */
async function completedWave(caseUrn: string): Promise<string> {
  const usable = await guaranteedHotels(t.platform, ZX, NIGHT);
  const chosen = [usable[0]!, usable[1]!];
  return completeWave(t.platform, {
    tenant: ZX,
    caseUrn,
    allocations: [
      oneRoomAllocation("GA1", chosen[0]!, NIGHT, true),
      oneRoomAllocation("GA2", chosen[1]!, NIGHT, true),
    ],
    hotels: chosen.map((hotel) => ({
      hotelUrn: hotel.hotelUrn,
      name: hotel.offers[0]!.name,
      address: hotel.offers[0]!.address,
      offers: hotel.offers.map((o) => ({
        provider: o.provider,
        providerOfferId: o.providerOfferId,
        payments: [...o.payments],
      })),
    })),
  });
}

beforeAll(async () => {
  t = await startTestPlatform();
  t.platform.runtime.bus.subscribe({
    name: "test-booking-routes",
    topic: topicFor({ tenant: ZX }),
    handler: async (event) => {
      events.push(event);
      for (const waiter of waiters.filter((w) => w.match(event))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
      return "SUCCESS";
    },
  });
  for (const [name, user] of [
    ["supervisor", "supervisor@zx.demo"],
    ["operator", "operator@zx.demo"],
    ["operatorJfk", "operator.jfk@zx.demo"],
    ["finance", "finance@zx.demo"],
    ["vqSupervisor", "supervisor@vq.demo"],
  ] as const) {
    tokens[name] = await t.operatorToken(user);
  }
  for (const partner of ["skyhub-zx", "regulator-zx", "tripdesk-vq"])
    tokens[partner] = await t.partnerToken(partner);
  bookedCase = await openCase("booking-e2e-sfo", "SFO");
  laxCase = await openCase("booking-e2e-lax", "LAX");
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("POST /v1/cases/{urn}/book-rooms", () => {
  it("refuses a case allocation has not run for (409 no-wave)", async () => {
    const problem = await json(
      await t.call("POST", `/v1/cases/${enc(laxCase)}/book-rooms`, tokens.supervisor),
      409,
    );
    expect(problem.type).toMatch(/\/conflict\/no-wave$/);
  });

  it("accepts the latest wave (202), books it asynchronously, one reservation per group", async () => {
    const waveUrn = await completedWave(bookedCase);
    expect(
      events.filter((e) => e.type === BOOKING_EVENTS.reservationConfirmed && e.caseUrn === bookedCase),
    ).toEqual([]);
    const accepted = await json(
      await t.call("POST", `/v1/cases/${enc(bookedCase)}/book-rooms`, tokens.supervisor),
      202,
    );
    expect(accepted).toMatchObject({ caseUrn: bookedCase, waveUrn, status: "ACCEPTED", groups: 2 });
    const settled = await eventMatching(
      (e) => e.type === BOOKING_EVENTS.waveSettled && e.caseUrn === bookedCase,
    );
    expect(settled.data).toMatchObject({ waveUrn, outcome: "FULFILLED" });

    const page = await json(
      await t.call("GET", `/v1/booking/cases/${enc(bookedCase)}/reservations`, tokens.operator),
      200,
    );
    reservations = page.items;
    expect(reservations.map((r) => r.groupId).sort()).toEqual(["GA1", "GA2"]);
    for (const reservation of reservations) {
      expect(reservation.urn).toMatch(/^urn:reservation:[0-9a-f-]{36}:vendor:vendor-[abc]:status:confirmed$/);
      expect(reservation).toMatchObject({
        status: "CONFIRMED",
        caseUrn: bookedCase,
        voucher: { version: 1 },
      });
    }

    const again = await json(
      await t.call("POST", `/v1/cases/${enc(bookedCase)}/book-rooms`, tokens.supervisor),
      202,
    );
    expect(again.bookings).toMatchObject({ BOOKED: 2, FAILED: 0 });
  });

  it("refuses a lower role, another tenant, an unknown case and a URN of another kind", async () => {
    const path = `/v1/cases/${enc(bookedCase)}/book-rooms`;
    expect((await t.call("POST", path, tokens.operator)).status).toBe(403);
    expect((await t.call("POST", path, tokens.vqSupervisor)).status).toBe(403);
    expect(
      (await t.call("POST", `/v1/cases/${enc("urn:case:nope")}/book-rooms`, tokens.supervisor)).status,
    ).toBe(404);
    expect(
      (await t.call("POST", `/v1/cases/${enc("urn:wave:nope")}/book-rooms`, tokens.supervisor)).status,
    ).toBe(400);
  });
});

describe("reservation reads", () => {
  it("finds a reservation by its URN whatever the status segment says, not under another vendor", async () => {
    const reservation = reservations[0]!;
    const read = await json(
      await t.call("GET", `/v1/booking/reservations/${enc(reservation.urn)}`, tokens.operator),
      200,
    );
    expect(read).toEqual(reservation);
    const later = reservation.urn.replace(":status:confirmed", ":status:checked_out");
    expect((await t.call("GET", `/v1/booking/reservations/${enc(later)}`, tokens.operator)).status).toBe(200);
    const bare = `urn:reservation:${reservation.id}`;
    expect((await t.call("GET", `/v1/booking/reservations/${enc(bare)}`, tokens.operator)).status).toBe(200);
    const otherVendor = reservation.urn.replace(/:vendor:[^:]+:/, ":vendor:vendor-z:");
    expect(
      (await t.call("GET", `/v1/booking/reservations/${enc(otherVendor)}`, tokens.operator)).status,
    ).toBe(404);
  });

  it("refuses a role outside AIRPORT_OPERATOR+, another tenant, another airport, unknown and malformed URNs", async () => {
    const one = `/v1/booking/reservations/${enc(reservations[0]!.urn)}`;
    const list = `/v1/booking/cases/${enc(bookedCase)}/reservations`;
    expect((await t.call("GET", one, tokens.finance)).status).toBe(403);
    expect((await t.call("GET", list, tokens.finance)).status).toBe(403);
    expect((await t.call("GET", one, tokens.vqSupervisor)).status).toBe(403);
    expect((await t.call("GET", list, tokens.vqSupervisor)).status).toBe(403);
    expect((await t.call("GET", one, tokens.operatorJfk)).status).toBe(403);
    expect((await t.call("GET", list, tokens.operatorJfk)).status).toBe(403);
    const unknown = "urn:reservation:00000000-0000-0000-0000-000000000000:vendor:vendor-a:status:confirmed";
    expect((await t.call("GET", `/v1/booking/reservations/${enc(unknown)}`, tokens.operator)).status).toBe(
      404,
    );
    expect(
      (await t.call("GET", `/v1/booking/cases/${enc("urn:case:nope")}/reservations`, tokens.operator)).status,
    ).toBe(404);
    expect(
      (await t.call("GET", `/v1/booking/reservations/${enc("urn:case:x")}`, tokens.operator)).status,
    ).toBe(400);
  });
});

describe("GET /v1/booking/reservations/{urn}/voucher/html", () => {
  it("answers printable HTML with the escaped names, the hotel, the dates and a QR code", async () => {
    const reservation = reservations.find((r) => r.groupId === "GA1")!;
    const response = await t.call(
      "GET",
      `/v1/booking/reservations/${enc(reservation.urn)}/voucher/html`,
      tokens.operator,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Ana O&#39;Neil &lt;b&gt;");
    expect(html).not.toContain("<b>");
    expect(html).toContain(CHECK_IN);
    expect(html).toContain(reservation.confirmationNumber);
    expect(html).toMatch(
      /<img src="data:image\/svg\+xml;base64,[^"]+" width="200" height="200" alt="QR code of voucher /,
    );
    expect(html).not.toContain("ana.oneil@example.com");
  });

  it("refuses another tenant, a lower role and an unknown reservation", async () => {
    const path = `/v1/booking/reservations/${enc(reservations[0]!.urn)}/voucher/html`;
    expect((await t.call("GET", path, tokens.vqSupervisor)).status).toBe(403);
    expect((await t.call("GET", path, tokens.finance)).status).toBe(403);
    const unknown = `/v1/booking/reservations/${enc("urn:reservation:missing")}/voucher/html`;
    expect((await t.call("GET", unknown, tokens.operator)).status).toBe(404);
  });
});

describe("partner bookings and vouchers", () => {
  it("reads a booking with bookings.read, without payment, cost or contact details", async () => {
    const reservation = reservations.find((r) => r.groupId === "GA1")!;
    const booking = await json(
      await t.call("GET", `/partner/v1/bookings/${enc(reservation.urn)}`, tokens["skyhub-zx"]),
      200,
    );
    expect(booking).toMatchObject({
      urn: reservation.urn,
      status: "CONFIRMED",
      hotel: { hotelUrn: reservation.hotel.hotelUrn, name: reservation.hotel.name },
      voucherUrn: reservation.voucher.urn,
    });
    expect(booking).not.toHaveProperty("cost");
    expect(booking).not.toHaveProperty("payment");
    expect(JSON.stringify(booking)).not.toMatch(/example\.com|\+1415/);
  });

  it("reads a voucher and a passenger's vouchers with vouchers.read, with nothing beyond what the passenger received", async () => {
    const reservation = reservations.find((r) => r.groupId === "GA1")!;
    const voucher = await json(
      await t.call("GET", `/partner/v1/vouchers/${enc(reservation.voucher.urn)}`, tokens["skyhub-zx"]),
      200,
    );
    expect(voucher).toMatchObject({
      voucherUrn: reservation.voucher.urn,
      reservationUrn: reservation.urn,
      validity: "VALID",
      checkIn: CHECK_IN,
      checkOut: CHECK_OUT,
      confirmationNumber: reservation.confirmationNumber,
    });
    expect(voucher.passengers.map((p: { name: string }) => p.name)).toEqual([
      "Ana O'Neil <b>",
      "Luis O'Neil <b>",
    ]);
    expect(JSON.stringify(voucher)).not.toMatch(/example\.com|\+1415|verificationCode|cost|payment/);

    const passengerUrn = `urn:passenger:booking-e2e-sfo-p1`;
    const page = await json(
      await t.call("GET", `/partner/v1/passengers/${enc(passengerUrn)}/vouchers`, tokens["skyhub-zx"]),
      200,
    );
    expect(page.items.map((v: { voucherUrn: string }) => v.voucherUrn)).toEqual([reservation.voucher.urn]);
    expect(JSON.stringify(page)).not.toMatch(/example\.com|\+1415/);
  });

  it("refuses a missing scope, another tenant and unknown URNs", async () => {
    const reservation = reservations[0]!;
    const booking = `/partner/v1/bookings/${enc(reservation.urn)}`;
    const voucher = `/partner/v1/vouchers/${enc(reservation.voucher.urn)}`;
    const passenger = `/partner/v1/passengers/${enc("urn:passenger:booking-e2e-sfo-p1")}/vouchers`;
    for (const path of [booking, voucher, passenger]) {
      expect((await t.call("GET", path, tokens["regulator-zx"])).status).toBe(403);
    }
    expect((await t.call("GET", booking, tokens["tripdesk-vq"])).status).toBe(403);
    expect((await t.call("GET", voucher, tokens["tripdesk-vq"])).status).toBe(403);
    const other = await json(await t.call("GET", passenger, tokens["tripdesk-vq"]), 200);
    expect(other.items).toEqual([]);
    expect(
      (await t.call("GET", `/partner/v1/bookings/${enc("urn:reservation:missing")}`, tokens["skyhub-zx"]))
        .status,
    ).toBe(404);
    expect(
      (await t.call("GET", `/partner/v1/vouchers/${enc("urn:voucher:missing")}`, tokens["skyhub-zx"])).status,
    ).toBe(404);
    expect((await t.call("GET", booking, tokens.operator)).status).toBe(401);
  });
});

describe("POST /v1/booking/manual-reservations", () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    caseUrn: laxCase,
    groupId: "GA2",
    hotel: { name: "Harbor <Inn>", address: "5 Pier Rd, Los Angeles" },
    confirmationNumber: "PHONE-778",
    checkIn: CHECK_IN,
    checkOut: CHECK_OUT,
    rooms: 1,
    cost: { amountMinor: 18_900, currency: "USD" },
    reason: "booked by phone: no vendor had rooms",
    ...overrides,
  });

  it("records an out-of-band reservation that counts as booked, audited with its reason", async () => {
    const reservation = await json(
      await t.call("POST", "/v1/booking/manual-reservations", tokens.supervisor, body()),
      201,
    );
    expect(reservation).toMatchObject({
      caseUrn: laxCase,
      groupId: "GA2",
      status: "CONFIRMED",
      vendor: "manual",
      payment: "OUT_OF_BAND",
      source: "manual",
      reason: "booked by phone: no vendor had rooms",
      hotel: { name: "Harbor <Inn>" },
    });
    expect(reservation.urn).toMatch(/^urn:reservation:[0-9a-f-]{36}:vendor:manual:status:confirmed$/);
    const page = await json(
      await t.call("GET", `/v1/booking/cases/${enc(laxCase)}/reservations`, tokens.operator),
      200,
    );
    expect(page.items.map((r: { urn: string }) => r.urn)).toEqual([reservation.urn]);
    await eventMatching((e) => e.type === "case.reservation-recorded" && e.caseUrn === laxCase);
    const detail = await json(await t.call("GET", `/v1/cases/${enc(laxCase)}`, tokens.operator), 200);
    expect(JSON.stringify(detail)).toContain(reservation.urn);
    const summary = await json(
      await t.call("GET", `/demand/case/${enc(laxCase)}/summary`, tokens.supervisor),
      200,
    );
    expect(summary.totalBooked).toBe(1);
    const audit = await json(
      await t.call("GET", `/v1/audit/entity/${enc(reservation.urn)}`, tokens.supervisor),
      200,
    );
    expect(
      audit.items.some((a: { reason?: string }) => a.reason === "booked by phone: no vendor had rooms"),
    ).toBe(true);

    const twice = await json(
      await t.call("POST", "/v1/booking/manual-reservations", tokens.supervisor, body()),
      409,
    );
    expect(twice.type).toMatch(/\/conflict\/group-already-booked$/);
  });

  it("refuses a lower role, another tenant, a bad body, an unknown case or group", async () => {
    const path = "/v1/booking/manual-reservations";
    expect((await t.call("POST", path, tokens.operator, body({ groupId: "GA1" }))).status).toBe(403);
    expect((await t.call("POST", path, tokens.vqSupervisor, body({ groupId: "GA1" }))).status).toBe(403);
    const { reason, ...withoutReason } = body({ groupId: "GA1" });
    const invalid = await json(
      await t.call("POST", path, tokens.supervisor, { ...withoutReason, rooms: 0 }),
      400,
    );
    expect(invalid.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(["/rooms"]));
    expect((await t.call("POST", path, tokens.supervisor, body({ caseUrn: "urn:case:nope" }))).status).toBe(
      404,
    );
    expect((await t.call("POST", path, tokens.supervisor, body({ groupId: "NOPE" }))).status).toBe(404);
    expect(
      (await t.call("POST", path, tokens.supervisor, body({ groupId: "GA1", checkOut: CHECK_IN }))).status,
    ).toBe(400);
  });
});

describe("OpenAPI", () => {
  it("documents the booking routes in valid operator and partner documents", async () => {
    const expected = {
      operator: [
        "/v1/cases/{caseUrn}/book-rooms",
        "/v1/booking/cases/{caseUrn}/reservations",
        "/v1/booking/reservations/{reservationUrn}",
        "/v1/booking/reservations/{reservationUrn}/voucher/html",
        "/v1/booking/manual-reservations",
      ],
      partner: [
        "/partner/v1/bookings/{bookingUrn}",
        "/partner/v1/vouchers/{voucherUrn}",
        "/partner/v1/passengers/{passengerUrn}/vouchers",
      ],
    };
    for (const [surface, paths] of Object.entries(expected)) {
      const document = await json(await t.call("GET", `/openapi/${surface}/v1.json`), 200);
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(paths));
      const result = await new Validator().validate(document);
      expect(result.errors).toBeUndefined();
    }
  });
});
