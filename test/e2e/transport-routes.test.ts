/**
 * Ground transport over HTTP (spec 2.8, 4.1, 4.2, 6.3): the case-wide transfer request with the
 * policy's modes, wheelchair vans and shuttle pooling; the segment routes (create, retime,
 * vehicle, cancel), audited with their reasons; the simulated ride provider's refusals, outages and
 * signed progress callbacks.
 */
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { PassengerSessionTokens } from "../../src/passenger-identity/session-tokens.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import { systemClock } from "../../src/runtime/clock.js";
import { type TransportSegment, segmentUrnFor } from "../../src/domain/transport/transport-segment.js";
import { SmtpSink } from "../../services/notifications/smtp-sink.js";
import { CaseTransfers } from "../../src/app/transport/case-transfers.js";
import { RideProviderSimulator } from "../../services/vendor-sim/ride-provider.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { urn } from "../../src/domain/urn.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { expectBodyFieldError, json } from "../support/responses.js";
import { declaration } from "./cases-fixtures.js";
import { openEventStream } from "./passenger-event-stream.js";

const enc = encodeURIComponent;
let t: TestPlatform;
let rides: RideProviderSimulator;
const tokens: Record<string, string> = {};
let caseUrn: string;
let policyUrn: string;
let sessions: PassengerSessionTokens;
const reservations: Record<string, string> = {};

const economy = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  lastName: `Traveller ${id}`,
  tier: "ECONOMY",
  ...extra,
});

/** Groups of the case: two economy pairs and a trio that pool, a business traveller, a wheelchair user, one without a room. */
const GROUPS = [
  { id: "ABC123", pnr: "ABC123", passengers: [economy("p1"), economy("p2")] },
  { id: "XYZ789", pnr: "XYZ789", passengers: [{ id: "p3", lastName: "Okafor", tier: "BUSINESS" }] },
  { id: "WCHAIR1", pnr: "WCHAIR1", passengers: [economy("p4", { specialRequirements: ["WCHR"] })] },
  {
    id: "ECONO2",
    pnr: "ECONO2",
    passengers: [economy("p5", { contact: { email: "camille@example.com", language: "fr" } }), economy("p6")],
  },
  { id: "ECONO3", pnr: "ECONO3", passengers: [economy("p7"), economy("p8"), economy("p9")] },
  { id: "NOROOM", pnr: "NOROOM", passengers: [economy("p10")] },
];

const transfers = () => `/v1/transport/cases/${enc(caseUrn)}/transfers/request`;
const segmentPath = (urn: string, action = "") =>
  `/transport/segments/${enc(urn)}${action ? `/${action}` : ""}`;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the condition never held");
}

beforeAll(async () => {
  const key = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  t = await startTestPlatform({
    env: {
      DEMAND_ON_INTAKE: "off",
      DEMO_POLICIES: "off",
      RATE_LIMIT_SCALE: "20",
      PASSENGER_SIGNING_KEY: JSON.stringify(key),
    },
  });
  const issuer = t.platform.config.passengerBaseUrl.replace(/\/+$/, "");
  sessions = new PassengerSessionTokens({
    issuer,
    audience: `${issuer}/v1`,
    key: await loadPassengerSigningKey(key),
    revocations: new CaseRevocations(t.platform.runtime.documents),
    clock: systemClock,
  });
  rides = t.platform.container.resolve(RideProviderSimulator);
  for (const user of [
    "supervisor@zx.demo",
    "admin@zx.demo",
    "operator@zx.demo",
    "operator.jfk@zx.demo",
    "finance@zx.demo",
    "operator@vq.demo",
  ]) {
    tokens[user] = await t.operatorToken(user);
  }
  const policy = await json(
    await t.call("POST", "/v1/policies", tokens["supervisor@zx.demo"], {
      name: "JFK ground transport",
      context: { airport: "JFK", airline: "ZX" },
      transport: {
        mode: "SHUTTLE",
        perTier: { BUSINESS: "PRIVATE_CAR" },
        shuttleCapacity: 4,
        minutesBeforePickup: 20,
        // The case-wide request is what these tests drive: the saga leaves the rides to it.
        ridesWithOffer: false,
      },
    }),
    201,
  );
  policyUrn = policy.urn;
  await json(await t.call("POST", `/v1/policies/${enc(policy.urn)}/activate`, tokens["admin@zx.demo"]), 200);
  const opened = await json(
    await t.call(
      "POST",
      "/v1/cases",
      tokens["supervisor@zx.demo"],
      declaration(`transport-${randomUUID()}`, { passengerGroups: GROUPS }),
    ),
    201,
  );
  caseUrn = opened.urn;
  for (const group of GROUPS.filter((g) => g.id !== "NOROOM")) {
    const reservation = await json(
      await t.call("POST", "/v1/booking/manual-reservations", tokens["supervisor@zx.demo"], {
        caseUrn,
        groupId: group.id,
        hotel: { name: `Hotel of ${group.id}`, address: "1 Airport Rd, Queens" },
        confirmationNumber: `PHONE-${group.id}`,
        checkIn: "2026-11-21",
        checkOut: "2026-11-22",
        rooms: 1,
        cost: { amountMinor: 15_000, currency: "USD" },
        reason: "booked by phone",
      }),
      201,
    );
    reservations[group.id] = reservation.urn;
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("POST /v1/transport/cases/{urn}/transfers/request", () => {
  let first: { segments: TransportSegment[]; skipped: unknown[]; ridesRequested: number };

  it("books each group's vehicle from the policy, a wheelchair van, and pools shuttles by capacity", async () => {
    first = await json(
      await t.call("POST", transfers(), tokens["operator.jfk@zx.demo"], { directions: ["AIRPORT_TO_HOTEL"] }),
      200,
    );
    const byGroup = Object.fromEntries(first.segments.map((s) => [s.groupId, s]));
    expect(Object.keys(byGroup).sort()).toEqual(["ABC123", "ECONO2", "ECONO3", "WCHAIR1", "XYZ789"]);
    expect(first.skipped).toEqual([
      { groupId: "NOROOM", direction: "AIRPORT_TO_HOTEL", reason: "no-reservation" },
    ]);
    expect(first.segments.every((s) => s.status === "BOOKED" && s.direction === "AIRPORT_TO_HOTEL")).toBe(
      true,
    );
    expect(byGroup.XYZ789!.vehicleType).toBe("PRIVATE_CAR");
    expect(byGroup.WCHAIR1!).toMatchObject({ vehicleType: "WHEELCHAIR_VAN", specialRequirements: ["WCHR"] });
    // Capacity 4: the two pairs share a run; the trio rides alone.
    expect(byGroup.ABC123!.ride!.rideId).toBe(byGroup.ECONO2!.ride!.rideId);
    expect(byGroup.ABC123!.ride!.poolId).toEqual(expect.stringMatching(/^urn:transport-pool:/));
    expect(byGroup.ECONO3!.ride!.rideId).not.toBe(byGroup.ABC123!.ride!.rideId);
    expect(first.ridesRequested).toBe(4);
    expect(rides.ride(byGroup.ABC123!.ride!.rideId)).toMatchObject({ passengers: 4, vehicleType: "SHUTTLE" });
    // minutesBeforePickup 20 from now.
    const lead = Date.parse(byGroup.XYZ789!.scheduledAt) - Date.now();
    expect(lead).toBeGreaterThan(15 * 60_000);
    expect(lead).toBeLessThanOrEqual(20 * 60_000);
    expect(byGroup.XYZ789!.ride).toMatchObject({ dispatcherPhone: rides.settings.dispatcherPhone });
  });

  it("is idempotent: asked again, nothing new is booked", async () => {
    const again = await json(
      await t.call("POST", transfers(), tokens["operator@zx.demo"], { directions: ["AIRPORT_TO_HOTEL"] }),
      200,
    );
    expect(again.ridesRequested).toBe(0);
    expect(again.segments.map((s: TransportSegment) => [s.urn, s.ride?.rideId])).toEqual(
      first.segments.map((s) => [s.urn, s.ride?.rideId]),
    );
  });

  it("receives the provider's signed driver assignment and ETA on every segment of the ride", async () => {
    const pooled = first.segments.find((s) => s.groupId === "ABC123")!;
    await rides.settled();
    const seen = await eventually(
      async () =>
        json<TransportSegment>(await t.call("GET", segmentPath(pooled.urn), tokens["operator@zx.demo"]), 200),
      (s) => s.ride?.driver !== null,
    );
    expect(seen.ride).toMatchObject({
      driver: expect.any(String),
      vehicle: expect.stringMatching(/^shuttle /),
    });
    const etaAt = new Date(Date.now() + 7 * 60_000).toISOString();
    expect(await rides.reportEta(pooled.ride!.rideId, etaAt)).toBe(true);
    for (const groupId of ["ABC123", "ECONO2"]) {
      const urn = first.segments.find((s) => s.groupId === groupId)!.urn;
      const segment = await json<TransportSegment>(
        await t.call("GET", segmentPath(urn), tokens["operator@zx.demo"]),
        200,
      );
      expect(segment.ride!.etaAt).toBe(etaAt);
    }
    const callback = rides.ride(pooled.ride!.rideId)!.callbacks.at(-1)!;
    expect(callback).toMatchObject({ type: "eta", status: 200, tries: 1 });
  });

  it("refuses a bad signature, an unknown group, another tenant, a read-only role and bad input", async () => {
    const unsigned = await fetch(`${t.base}/v1/transport/callbacks/rides`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Vendor-Signature": "sha256=AAAA",
        "X-Vendor-Signature-Timestamp": String(Math.floor(Date.now() / 1000)),
      },
      body: JSON.stringify({
        eventId: "e1",
        rideId: "ride-x",
        type: "completed",
        occurredAt: new Date().toISOString(),
      }),
    });
    expect(unsigned.status).toBe(401);
    const unknown = await json(
      await t.call("POST", transfers(), tokens["operator@zx.demo"], { groupIds: ["NOPE"] }),
      404,
    );
    expect(unknown.type).toMatch(/group-not-found$/);
    expect((await t.call("POST", transfers(), tokens["operator@vq.demo"], {})).status).toBe(403);
    expect((await t.call("POST", transfers(), tokens["finance@zx.demo"], {})).status).toBe(403);
    expect((await t.call("POST", transfers())).status).toBe(401);
    await expectBodyFieldError(
      await t.call("POST", transfers(), tokens["operator@zx.demo"], { directions: ["SIDEWAYS"] }),
      "/directions/0",
    );
    const missing = `/v1/transport/cases/${enc("urn:case:00000000-0000-4000-8000-000000000000")}/transfers/request`;
    expect((await t.call("POST", missing, tokens["operator@zx.demo"], {})).status).toBe(404);
  });
});

describe("the transport segment routes (spec 4.2)", () => {
  const create = (groupId: string, overrides: Record<string, unknown> = {}) =>
    t.call("POST", "/transport/segments", tokens["operator@zx.demo"], {
      reservationUrn: reservations[groupId],
      direction: "HOTEL_TO_AIRPORT",
      scheduledAt: "2026-11-22T15:00:00Z",
      ...overrides,
    });

  it("creates a leg of a reservation's group, answering a repeat with the same segment", async () => {
    const segment = await json<TransportSegment>(await create("ABC123"), 201);
    expect(segment).toMatchObject({
      caseUrn,
      groupId: "ABC123",
      direction: "HOTEL_TO_AIRPORT",
      status: "BOOKED",
      vehicleType: "SHUTTLE",
      scheduledAt: "2026-11-22T15:00:00.000Z",
      pickupLocation: "Hotel of ABC123, 1 Airport Rd, Queens",
      passengers: 2,
    });
    const again = await json<TransportSegment>(await create("ABC123"), 201);
    expect([again.urn, again.status, again.ride?.rideId]).toEqual([
      segment.urn,
      "BOOKED",
      segment.ride?.rideId,
    ]);
    const other = await json(await create("ABC123", { scheduledAt: "2026-11-22T14:00:00Z" }), 409);
    expect(other.type).toMatch(/transport-segment-exists$/);
  });

  it("retimes, changes the vehicle and cancels with a reason, each audited, the provider following", async () => {
    const segment = await json<TransportSegment>(await create("XYZ789", { vehicleType: "TAXI" }), 201);
    expect(segment).toMatchObject({ vehicleType: "TAXI", status: "BOOKED" });
    const rideId = segment.ride!.rideId;
    const operator = tokens["operator@zx.demo"];

    await expectBodyFieldError(
      await t.call("POST", segmentPath(segment.urn, "retime"), operator, {
        scheduledAt: "2026-11-22T14:30:00Z",
      }),
      "/reason",
    );
    const retimed = await json<TransportSegment>(
      await t.call("POST", segmentPath(segment.urn, "retime"), operator, {
        scheduledAt: "2026-11-22T14:30:00Z",
        reason: "earlier check-in at the airport",
      }),
      200,
    );
    expect(retimed.scheduledAt).toBe("2026-11-22T14:30:00.000Z");
    expect(rides.ride(rideId)!.pickupAt).toBe("2026-11-22T14:30:00.000Z");

    const van = await json<TransportSegment>(
      await t.call("POST", segmentPath(segment.urn, "vehicle"), operator, {
        vehicleType: "PRIVATE_CAR",
        reason: "business tier travels by car",
      }),
      200,
    );
    expect(van.vehicleType).toBe("PRIVATE_CAR");
    expect(rides.ride(rideId)!.vehicleType).toBe("PRIVATE_CAR");

    const cancelled = await json<TransportSegment>(
      await t.call("POST", segmentPath(segment.urn, "cancel"), operator, {
        reason: "passenger drives himself",
      }),
      200,
    );
    expect(cancelled).toMatchObject({
      status: "CANCELLED",
      cancellation: { by: "urn:user:zx-operator", reason: "passenger drives himself" },
    });
    expect(rides.ride(rideId)!.status).toBe("CANCELLED");
    const twice = await json<TransportSegment>(
      await t.call("POST", segmentPath(segment.urn, "cancel"), operator, { reason: "again" }),
      200,
    );
    expect(twice.version).toBe(cancelled.version);
    expect(
      (
        await t.call("POST", segmentPath(segment.urn, "retime"), operator, {
          scheduledAt: "2026-11-22T14:00:00Z",
          reason: "too late",
        })
      ).status,
    ).toBe(409);

    const audit = await json(
      await t.call("GET", `/v1/audit/entity/${enc(segment.urn)}`, tokens["supervisor@zx.demo"]),
      200,
    );
    const actions = audit.items.map((a: { action: string }) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        "transport.segment.create",
        "transport.segment.retime",
        "transport.segment.vehicle",
        "transport.segment.cancel",
      ]),
    );
    const cancellation = audit.items.find(
      (a: { action: string }) => a.action === "transport.segment.cancel.change",
    );
    expect(cancellation).toMatchObject({
      actorUrn: "urn:user:zx-operator",
      reason: "passenger drives himself",
      before: { status: "BOOKED" },
      after: { status: "CANCELLED" },
    });
    // The repeated cancellation changed nothing: one change entry.
    expect(actions.filter((a: string) => a === "transport.segment.cancel.change")).toHaveLength(1);
  });

  it("keeps a shared shuttle run for the other groups when one group cancels", async () => {
    const list = await json(
      await t.call("POST", transfers(), tokens["operator@zx.demo"], {
        directions: ["AIRPORT_TO_HOTEL"],
        groupIds: ["ABC123", "ECONO2"],
      }),
      200,
    );
    const [abc, eco] = list.segments as TransportSegment[];
    await json(
      await t.call("POST", segmentPath(abc!.urn, "cancel"), tokens["operator@zx.demo"], {
        reason: "went home",
      }),
      200,
    );
    expect(rides.ride(eco!.ride!.rideId)!.status).toBe("CONFIRMED");
  });

  it("records the provider's refusal as DECLINED and its outage as PENDING, retried when asked again", async () => {
    rides.declineNext();
    const declined = await json<TransportSegment>(await create("ECONO3"), 201);
    expect(declined).toMatchObject({ status: "DECLINED", providerError: "NO_VEHICLE_AVAILABLE", ride: null });

    rides.configureFaults({ errorRates: { unavailable: 1 } });
    const pending = await json<TransportSegment>(await create("WCHAIR1"), 201);
    expect(pending).toMatchObject({
      status: "PENDING",
      providerError: "HTTP_503",
      vehicleType: "WHEELCHAIR_VAN",
    });
    rides.configureFaults({ errorRates: {} });

    const retried = await json(
      await t.call("POST", transfers(), tokens["operator@zx.demo"], {
        directions: ["HOTEL_TO_AIRPORT"],
        groupIds: ["WCHAIR1", "ECONO3"],
      }),
      200,
    );
    const byGroup = Object.fromEntries(retried.segments.map((s: TransportSegment) => [s.groupId, s]));
    expect(byGroup.WCHAIR1).toMatchObject({ status: "BOOKED", providerError: null, urn: pending.urn });
    // The declined leg is asked for again, one generation on.
    expect(byGroup.ECONO3).toMatchObject({ status: "BOOKED", generation: 2, urn: declined.urn });
  });

  it("refuses other tenants, other airports, unknown segments and reservations, and bad bodies", async () => {
    const segment = (
      await json<{ segments: TransportSegment[] }>(
        await t.call("POST", transfers(), tokens["operator@zx.demo"], {
          directions: ["AIRPORT_TO_HOTEL"],
          groupIds: ["XYZ789"],
        }),
        200,
      )
    ).segments[0]!;
    expect((await t.call("GET", segmentPath(segment.urn), tokens["operator@vq.demo"])).status).toBe(403);
    expect(
      (await t.call("POST", segmentPath(segment.urn, "cancel"), tokens["operator@vq.demo"], { reason: "x" }))
        .status,
    ).toBe(403);
    expect((await t.call("GET", segmentPath(segment.urn))).status).toBe(401);
    const unknown = "urn:transport-segment:00000000-0000-4000-8000-000000000000";
    expect(
      (await t.call("POST", segmentPath(unknown, "cancel"), tokens["operator@zx.demo"], { reason: "x" }))
        .status,
    ).toBe(404);
    expect((await t.call("GET", segmentPath("urn:case:nope"), tokens["operator@zx.demo"])).status).toBe(400);
    expect(
      (await create("ABC123", { reservationUrn: "urn:reservation:nope:vendor:manual:status:confirmed" }))
        .status,
    ).toBe(404);
    await expectBodyFieldError(await create("ABC123", { direction: "UP" }), "/direction");
    await expectBodyFieldError(await create("ABC123", { scheduledAt: "tomorrow" }), "/scheduledAt");
    await expectBodyFieldError(await create("ABC123", { vehicleType: "BICYCLE" }), "/vehicleType");
    await expectBodyFieldError(
      await t.call("POST", segmentPath(segment.urn, "vehicle"), tokens["operator@zx.demo"], { reason: "x" }),
      "/vehicleType",
    );
  });

  it("documents every transport route in the operator OpenAPI document", async () => {
    const doc = await json(await fetch(`${t.base}/openapi/operator/v1.json`), 200);
    for (const path of [
      "/transport/segments",
      "/transport/segments/{segmentUrn}/retime",
      "/transport/segments/{segmentUrn}/vehicle",
      "/transport/segments/{segmentUrn}/cancel",
      "/v1/transport/cases/{caseUrn}/transfers/request",
    ]) {
      expect(doc.paths[path]?.post, path).toBeDefined();
    }
  });
});

describe("the passenger's transport (spec 4.4) and the voucher's transport block (2.8)", () => {
  const session = async (groupId: string) =>
    (await sessions.mint({ tenant: "urn:airline:ZX", caseUrn, groupId })).token;
  const me = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${t.passengerBase}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...init.headers },
    });

  it("shows the group's legs with status and ETA, and streams the provider's ETA to the passenger", async () => {
    const token = await session("ECONO2");
    const transport = await json(await me("/v1/me/transport", token), 200);
    expect(transport.status).toBe("BOOKED");
    const leg = transport.legs.find((l: { direction: string }) => l.direction === "AIRPORT_TO_HOTEL");
    expect(leg).toMatchObject({
      status: "BOOKED",
      vehicleType: "SHUTTLE",
      pickupLocation: "JFK airport, arrivals curb",
      dispatcherPhone: rides.settings.dispatcherPhone,
      vehicle: expect.stringMatching(/^shuttle .+, .+/),
      etaAt: expect.any(String),
    });
    expect(transport.onDemand).toMatchObject({ allowed: false });

    const stream = await openEventStream(`${t.passengerBase}/v1/me/events`, token);
    try {
      expect(stream.status).toBe(200);
      const segment = await json<TransportSegment>(
        await t.call("GET", segmentPath(leg.segmentUrn), tokens["operator@zx.demo"]),
        200,
      );
      const etaAt = new Date(Date.now() + 3 * 60_000).toISOString();
      await rides.reportEta(segment.ride!.rideId, etaAt);
      let event = await stream.next();
      while (event.event !== "transport.eta-updated") event = await stream.next();
      expect(event.data).toMatchObject({ segmentUrn: leg.segmentUrn, status: "BOOKED", etaAt });
      expect(event.data.requestedBy).toBeUndefined();
    } finally {
      stream.close();
    }
  });

  it("lets a passenger ask for a ride only when the policy allows it", async () => {
    const token = await session("ECONO2");
    const refused = await json(await me("/v1/me/transport/request", token, { method: "POST" }), 403);
    expect(refused.type).toMatch(/transport-not-allowed$/);
    await json(
      await t.call("POST", `/v1/policies/${enc(policyUrn)}/patch`, tokens["supervisor@zx.demo"], {
        transport: { passengerMayRequest: true },
        reason: "passengers may call their own ride",
      }),
      200,
    );
    expect((await json(await me("/v1/me/transport", token), 200)).onDemand.allowed).toBe(true);
    const asked = await json(
      await me("/v1/me/transport/request", token, {
        method: "POST",
        body: JSON.stringify({ direction: "HOTEL_TO_AIRPORT" }),
      }),
      202,
    );
    const back = asked.legs.find((l: { direction: string }) => l.direction === "HOTEL_TO_AIRPORT");
    // The fixture's next flight has left already: the pickup is as soon as the provider can come.
    expect(back).toMatchObject({ status: "BOOKED", vehicleType: "SHUTTLE" });
    expect(Date.parse(back.pickupTime)).toBeGreaterThan(Date.now());
    const again = await json(
      await me("/v1/me/transport/request", token, {
        method: "POST",
        body: JSON.stringify({ direction: "HOTEL_TO_AIRPORT" }),
      }),
      202,
    );
    // The driver may have been assigned in between: the same legs, no second ride.
    const legsOf = (view: Record<string, any>) =>
      view.legs.map((l: { segmentUrn: string; status: string }) => [l.segmentUrn, l.status]);
    expect(legsOf(again)).toEqual(legsOf(asked));
    const noRoom = await json(
      await me("/v1/me/transport/request", await session("NOROOM"), { method: "POST" }),
      409,
    );
    expect(noRoom.type).toMatch(/transport-not-possible$/);
    const bad = await me("/v1/me/transport/request", token, {
      method: "POST",
      body: JSON.stringify({ direction: "UP" }),
    });
    expect(bad.status).toBe(400);
  });

  it("prints the booked legs on the voucher: pickup place and time, vehicle or driver, dispatcher", async () => {
    const html = await (
      await t.call(
        "GET",
        `/v1/booking/reservations/${enc(reservations.ECONO2!)}/voucher/html`,
        tokens["operator@zx.demo"],
      )
    ).text();
    expect(html).toContain('id="transport-heading"');
    expect(html).toContain("JFK airport, arrivals curb");
    expect(html).toContain(`tel:${rides.settings.dispatcherPhone}`);
    const passengerVoucher = await (await me("/v1/me/voucher", await session("ECONO2"))).text();
    expect(passengerVoucher).toContain('id="transport-heading"');
    // A group without transport has no transport block.
    const none = await (
      await t.call(
        "GET",
        `/v1/booking/reservations/${enc(reservations.ABC123!)}/voucher/html`,
        tokens["operator@zx.demo"],
      )
    ).text();
    expect(none).not.toContain("JFK airport, departures");
  });

  it("documents the passenger routes in the passenger OpenAPI document", async () => {
    const doc = await json(await fetch(`${t.base}/openapi/passenger/v1.json`), 200);
    expect(doc.paths["/v1/me/transport"]?.get).toBeDefined();
    expect(doc.paths["/v1/me/transport/request"]?.post).toBeDefined();
  });
});

describe("the return-leg e-mail (spec 8.2)", () => {
  it("tells the group by e-mail, in its language, when and where the ride back picks it up; once", async () => {
    // The leg the passenger asked for above.
    const segment = await json<TransportSegment>(
      await t.call(
        "GET",
        segmentPath(segmentUrnFor(caseUrn, "ECONO2", "HOTEL_TO_AIRPORT")),
        tokens["operator@zx.demo"],
      ),
      200,
    );
    expect(segment.status).toBe("BOOKED");
    // What the segment actor's reminder emits about 12 hours before the flight (its timing is the
    // actor test's): here the event is published as the reminder would.
    const due: DomainEvent = {
      id: urn("event"),
      type: "transport.return-leg-due",
      tenant: "urn:airline:ZX",
      occurredAt: new Date().toISOString(),
      correlationUrn: "urn:trace:00000000000000000000000000000002",
      caseUrn,
      data: { segmentUrn: segment.urn, caseUrn, groupId: "ECONO2", segment, by: "urn:system:transport" },
    };
    const bus = t.platform.runtime.bus;
    await bus.publish(topicFor(due), due);
    const sink = t.platform.container.resolve(SmtpSink);
    const mail = await sink.waitFor((m) => m.subject.includes("transfert vers l'aéroport"));
    expect(mail.envelope.to).toEqual(["camille@example.com"]);
    expect(mail.text).toContain(
      `${segment.scheduledAt.slice(0, 10)} ${segment.scheduledAt.slice(11, 16)} UTC`,
    );
    expect(mail.text).toContain("Hotel of ECONO2, 1 Airport Rd, Queens");
    expect(mail.text).toContain("ZX102");
    // Delivered again, the event sends nothing more.
    await bus.publish(topicFor(due), { ...due, id: urn("event") });
    const log = await eventually(
      async () =>
        json(await t.call("GET", `/v1/notifications/case/${enc(caseUrn)}`, tokens["operator@zx.demo"]), 200),
      (page) => page.items.some((n: { template: string }) => n.template === "transport-return"),
    );
    const sent = log.items.filter((n: { template: string }) => n.template === "transport-return");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ groupId: "ECONO2", channel: "email", language: "fr" });
  });
});

describe("the saga's legs (CaseTransfers)", () => {
  it("books a group's transfer once however often and concurrently asked, and cancels it once", async () => {
    const transfers = t.platform.container.resolve(CaseTransfers);
    const leg = {
      caseUrn,
      groupId: "XYZ789",
      direction: "HOTEL_TO_AIRPORT" as const,
      correlationUrn: "urn:trace:3",
    };
    const before = rides.booked().length;
    const [a, b] = await Promise.all([
      transfers.bookTransferForGroup(leg),
      transfers.bookTransferForGroup(leg),
    ]);
    expect(a!.urn).toBe(b!.urn);
    expect(a!.status).toBe("BOOKED");
    expect(b!.ride!.rideId).toBe(a!.ride!.rideId);
    expect((await transfers.bookTransferForGroup(leg))!.ride!.rideId).toBe(a!.ride!.rideId);
    expect(rides.booked().length).toBe(before + 1);

    const cancel = {
      caseUrn,
      groupId: "XYZ789",
      direction: "HOTEL_TO_AIRPORT" as const,
      reason: "passenger declined the offer",
      correlationUrn: "urn:trace:4",
    };
    const [first] = await transfers.cancelTransferForGroup(cancel);
    expect(first).toMatchObject({
      status: "CANCELLED",
      cancellation: { by: "urn:system:transport", reason: "passenger declined the offer" },
    });
    const [again] = await transfers.cancelTransferForGroup(cancel);
    expect(again!.version).toBe(first!.version);
    expect(rides.ride(a!.ride!.rideId)!.status).toBe("CANCELLED");
    // A group without a room has nothing to ride to; a leg never asked for cancels to nothing.
    expect(await transfers.bookTransferForGroup({ ...leg, groupId: "NOROOM" })).toBeUndefined();
    expect(await transfers.cancelTransferForGroup({ ...cancel, groupId: "NOROOM" })).toEqual([]);
  });
});
