/**
 * The passenger API of spec 4.4 over real HTTP, on a platform that books the cases it opens (the
 * demo policies, demand on intake): the offer, the voucher in the passenger's language, check-in,
 * meal card and transport as they honestly stand, problem reports, the event stream and its resume,
 * and the surface's conventions (private caching, Idempotency-Key, a session's own case only).
 */
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { PassengerSessionTokens } from "../../src/passenger-identity/session-tokens.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import { systemClock } from "../../src/runtime/clock.js";
import { publishEvent } from "../../src/runtime/event-bus.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, ZX } from "./cases-fixtures.js";
import { type EventStreamClient, openEventStream } from "./passenger-event-stream.js";

const VQ = "urn:airline:VQ";

let t: TestPlatform;
let sessions: PassengerSessionTokens;
let supervisor: string;
/** A booked case: group ABC123 (Rivera, Spanish) and the business group. */
let bookedCase: string;
let rivera: string;
let okafor: string;
/** The business group's id (the second group of the booked case). */
let businessGroup: string;
/** A second case of the same airline, whose token must never read the first. */
let otherCase: string;
let otherToken: string;

const enc = encodeURIComponent;

function spanishDeclaration(externalEventId: string) {
  const base = declaration(externalEventId);
  const [riveras, business] = base.passengerGroups as unknown as [Record<string, any>, Record<string, any>];
  const [ana, luis] = riveras.passengers;
  return {
    ...base,
    passengerGroups: [
      {
        ...riveras,
        passengers: [{ ...ana, contact: { email: "ana@example.com", language: "es-MX" } }, luis],
      },
      business,
    ],
  };
}

async function openCase(externalEventId: string, body: unknown = declaration(externalEventId)) {
  const response = await t.call("POST", "/v1/cases", supervisor, body);
  expect(response.status).toBe(201);
  return (await json(response)).urn as string;
}

async function reservationsOf(caseUrn: string): Promise<Record<string, any>[]> {
  const response = await t.call("GET", `/v1/booking/cases/${enc(caseUrn)}/reservations`, supervisor);
  return (await json(response)).items;
}

function me(
  path: string,
  token: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return fetch(`${t.passengerBase}${path}`, {
    method: init.method ?? "GET",
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

beforeAll(async () => {
  const key = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  t = await startTestPlatform({
    env: { PASSENGER_SIGNING_KEY: JSON.stringify(key), RATE_LIMIT_SCALE: "100" },
  });
  const issuer = t.platform.config.passengerBaseUrl.replace(/\/+$/, "");
  sessions = new PassengerSessionTokens({
    issuer,
    audience: `${issuer}/v1`,
    key: await loadPassengerSigningKey(key),
    revocations: new CaseRevocations(t.platform.runtime.documents),
    clock: systemClock,
  });
  supervisor = await t.operatorToken("supervisor@zx.demo");
  bookedCase = await openCase("evt-pax-api-booked", spanishDeclaration("evt-pax-api-booked"));
  otherCase = await openCase("evt-pax-api-other");
  // Both groups of the booked case hold their room before any test reads them.
  for (let tries = 0; ; tries++) {
    const confirmed = (await reservationsOf(bookedCase)).filter((r) => r.status === "CONFIRMED");
    if (confirmed.length === 2) break;
    if (tries > 200) throw new Error("the booked case's groups were not booked within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  rivera = (await sessions.mint({ tenant: ZX, caseUrn: bookedCase, groupId: "ABC123" })).token;
  businessGroup = (await reservationsOf(bookedCase)).find((r) => r.groupId !== "ABC123")!.groupId;
  okafor = (await sessions.mint({ tenant: ZX, caseUrn: bookedCase, groupId: businessGroup })).token;
  otherToken = (await sessions.mint({ tenant: ZX, caseUrn: otherCase, groupId: "ABC123" })).token;
  // The compensation saga offers each booked group its stay; the tests start from those offers.
  for (const token of [rivera, okafor, otherToken]) {
    for (let tries = 0; ; tries++) {
      const offer = await json(await me("/v1/me/offer", token));
      if (offer.status === "OFFER_READY") break;
      if (tries > 200) throw new Error(`no offer within 20 s: ${JSON.stringify(offer)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("GET /v1/me/offer", () => {
  it("shows the group's offer: hotel, coordinates, stay, voucher QR, its rides and meal card link; privately cached", async () => {
    const response = await me("/v1/me/offer", rivera);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
    expect(response.headers.get("vary")).toMatch(/Authorization/);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const offer = await json(response);
    const reservation = (await reservationsOf(bookedCase)).find((r) => r.groupId === "ABC123")!;
    expect(offer).toMatchObject({
      caseUrn: bookedCase,
      groupId: "ABC123",
      subCaseUrn: subCaseUrnFor(bookedCase, "ABC123"),
      status: "OFFER_READY",
      answer: null,
      answerBy: expect.stringMatching(/^\d{4}-/),
      offer: {
        reservationUrn: reservation.urn,
        reservationStatus: "CONFIRMED",
        hotel: { hotelUrn: reservation.hotel.hotelUrn, name: reservation.hotel.name },
        checkIn: reservation.checkIn,
        checkOut: reservation.checkOut,
        voucher: {
          voucherUrn: reservation.voucher.urn,
          validity: "VALID",
          qrCode: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
          printableUrl: "/v1/me/voucher",
        },
        // The saga booked the group's rides and issued its meal card before it asked the passenger.
        transport: [
          expect.objectContaining({ direction: "AIRPORT_TO_HOTEL", pickupLocation: expect.any(String) }),
          expect.objectContaining({ direction: "HOTEL_TO_AIRPORT", pickupLocation: expect.any(String) }),
        ],
        walletCardUrl: "/v1/me/wallet",
      },
    });
    const { lat, lon } = offer.offer.hotel.coordinates;
    expect(Math.abs(lat)).toBeLessThanOrEqual(90);
    expect(Math.abs(lon)).toBeLessThanOrEqual(180);
    const svg = Buffer.from(offer.offer.voucher.qrCode.split(",")[1], "base64").toString();
    expect(svg).toMatch(/^<svg/);
    expect(JSON.stringify(offer)).not.toContain("Okafor");
  });
});

describe("POST /v1/me/offer/accept and /decline", () => {
  it("accepts once: RESOLVED, a repeat is answered alike, and a decline after it is a conflict", async () => {
    const accepted = await me("/v1/me/offer/accept", rivera, { method: "POST" });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("content-location")).toBe("/v1/me/offer");
    const offer = await json(accepted);
    expect(offer).toMatchObject({ status: "RESOLVED", answer: { kind: "ACCEPTED", reason: null } });
    // The read the passenger made before answering is not what the next read answers.
    expect(await json(await me("/v1/me/offer", rivera))).toEqual(offer);

    const again = await me("/v1/me/offer/accept", rivera, { method: "POST" });
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(offer);
    const declined = await me("/v1/me/offer/decline", rivera, {
      method: "POST",
      body: { reason: "too far" },
    });
    expect(declined.status).toBe(409);
    expect((await json(declined)).type).toMatch(/\/offer-already-accepted$/);
  });

  it("declines with a reason; accepting or declining after it is a conflict", async () => {
    const declined = await me("/v1/me/offer/decline", otherToken, {
      method: "POST",
      body: { reason: "I am staying with family" },
      headers: { "Idempotency-Key": "decline-1" },
    });
    expect(declined.status).toBe(200);
    expect(await json(declined)).toMatchObject({
      caseUrn: otherCase,
      status: "DECLINED",
      answer: { kind: "DECLINED", reason: "I am staying with family" },
    });
    const replayed = await me("/v1/me/offer/decline", otherToken, {
      method: "POST",
      body: { reason: "I am staying with family" },
      headers: { "Idempotency-Key": "decline-1" },
    });
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    for (const [path, body] of [
      ["/v1/me/offer/accept", undefined],
      ["/v1/me/offer/decline", { reason: "again" }],
    ] as const) {
      const conflict = await me(path, otherToken, { method: "POST", body });
      expect(conflict.status).toBe(409);
      // DECLINED, or already past it: the rollback ends in COMPENSATION_FAILED when the hotel
      // will not cancel, and there is no offer to answer then either.
      expect((await json(conflict)).type).toMatch(/\/conflict\/offer-(already-declined|not-ready)$/);
    }
    const noReason = await me("/v1/me/offer/decline", okafor, { method: "POST", body: {} });
    expect(noReason.status).toBe(400);
  });
});

describe("GET /v1/me/voucher", () => {
  it("prints the group's voucher in the lead passenger's language, and in English without one", async () => {
    const spanish = await me("/v1/me/voucher", rivera);
    expect(spanish.status).toBe(200);
    expect(spanish.headers.get("content-type")).toMatch(/^text\/html/);
    expect(spanish.headers.get("cache-control")).toBe("private, max-age=60");
    const page = await spanish.text();
    const reservation = (await reservationsOf(bookedCase)).find((r) => r.groupId === "ABC123")!;
    expect(page).toContain('<html lang="es">');
    expect(page).toContain("<h1>Bono de hotel</h1>");
    expect(page).toContain(reservation.voucher.urn);
    expect(page).not.toContain("Okafor");

    const english = await (await me("/v1/me/voucher", okafor)).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain("<h1>Hotel voucher</h1>");
  });
});

describe("POST /v1/me/check-in", () => {
  it("checks the group's reservation in once, audited, and refreshes the cached offer", async () => {
    const response = await me("/v1/me/check-in", okafor, { method: "POST" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-location")).toBe("/v1/me/offer");
    expect(response.headers.get("cache-control")).toBeNull();
    const offer = await json(response);
    expect(offer).toMatchObject({ caseUrn: bookedCase, offer: { reservationStatus: "CHECKED_IN" } });
    expect(await json(await me("/v1/me/offer", okafor))).toEqual(offer);
    const reservation = (await reservationsOf(bookedCase)).find((r) => r.groupId !== "ABC123")!;
    expect(reservation.status).toBe("CHECKED_IN");

    const again = await me("/v1/me/check-in", okafor, { method: "POST" });
    expect(again.status).toBe(200);
    const audit = await json(await t.call("GET", `/v1/audit/entity/${enc(reservation.urn)}`, supervisor));
    expect(audit.items.filter((e: { action: string }) => e.action === "checkInPassenger")).toHaveLength(2);
  });
});

describe("meal card and transport", () => {
  it("reads the meal card the saga issued and the rides it booked; on-demand transport refused by policy", async () => {
    const wallet = await me("/v1/me/wallet", rivera);
    expect(wallet.status).toBe(200);
    const { card } = await json(wallet);
    expect(card).toMatchObject({ status: "LOADED", transactions: [] });
    expect(card.balance).toBeGreaterThan(0);

    const reveal = await me("/v1/me/wallet/reveal", rivera);
    expect(reveal.status).toBe(200);
    expect((await json(reveal)).url).toMatch(/^https?:\/\//);

    const transport = await me("/v1/me/transport", rivera);
    expect(transport.status).toBe(200);
    expect(transport.headers.get("cache-control")).toBe("private, max-age=60");
    const rides = await json(transport);
    expect(rides).toMatchObject({ status: "BOOKED", onDemand: { allowed: false } });
    expect(rides.legs).toHaveLength(2);

    const asked = await me("/v1/me/transport/request", rivera, { method: "POST" });
    expect(asked.status).toBe(403);
    const problem = await json(asked);
    expect(problem.type).toMatch(/\/transport-not-allowed$/);
    expect(problem.detail).toMatch(/policy/);
  });
});

describe("POST /v1/me/problem", () => {
  it("opens a review item with the passenger's text as written, once per Idempotency-Key", async () => {
    const text = `The room smells of smoke <script>alert("x")</script> & the lift is broken`;
    const key = randomUUID();
    const first = await me("/v1/me/problem", rivera, {
      method: "POST",
      body: { text },
      headers: { "Idempotency-Key": key },
    });
    expect(first.status).toBe(201);
    const report = await json(first);
    expect(report.reviewItemUrn).toMatch(/^urn:review-item:/);

    const replay = await me("/v1/me/problem", rivera, {
      method: "POST",
      body: { text },
      headers: { "Idempotency-Key": key },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await json(replay)).reviewItemUrn).toBe(report.reviewItemUrn);
    const reused = await me("/v1/me/problem", rivera, {
      method: "POST",
      body: { text: "something else" },
      headers: { "Idempotency-Key": key },
    });
    expect(reused.status).toBe(422);

    const queue = await json(
      await t.call("GET", "/v1/booking/manual-review?state=OPEN&category=PASSENGER_REPORTED", supervisor),
    );
    const items = queue.items.filter((i: { caseUrn: string }) => i.caseUrn === bookedCase);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      urn: report.reviewItemUrn,
      category: "PASSENGER_REPORTED",
      raisedBy: "passenger",
      affectedGroups: ["ABC123"],
      reason: text,
    });
  });

  it("refuses an empty or over-long text (400), naming the limit", async () => {
    const empty = await me("/v1/me/problem", rivera, { method: "POST", body: { text: "  \u0007 " } });
    expect(empty.status).toBe(400);
    const long = await me("/v1/me/problem", rivera, { method: "POST", body: { text: "x".repeat(2001) } });
    expect(long.status).toBe(400);
    expect(JSON.stringify(await json(long))).toMatch(/2000/);
  });
});

describe("a session opens its own case and group only", () => {
  /** Every passenger route under /v1/me, from the passenger OpenAPI document. */
  async function meRoutes(): Promise<{ method: string; path: string }[]> {
    const document = await json(await fetch(`${t.passengerBase}/openapi/passenger/v1.json`));
    return Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith("/v1/me"))
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })),
      );
  }

  it("refuses case A's token pointed at case B (401) and another airline's session (403) on every /v1/me route", async () => {
    const routes = await meRoutes();
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "GET /v1/me/offer",
        "GET /v1/me/events",
        "POST /v1/me/problem",
        "POST /v1/me/check-in",
      ]),
    );
    const [header, payload, signature] = rivera.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const pointedAtB = `${header}.${Buffer.from(JSON.stringify({ ...claims, case_urn: otherCase })).toString("base64url")}.${signature}`;
    const vq = (await sessions.mint({ tenant: VQ, caseUrn: bookedCase, groupId: "ABC123" })).token;
    for (const { method, path } of routes) {
      const body = method === "POST" ? { text: "x", reason: "x" } : undefined;
      const tampered = await me(path, pointedAtB, { method, body });
      expect({ route: `${method} ${path}`, status: tampered.status }).toEqual({
        route: `${method} ${path}`,
        status: 401,
      });
      await tampered.body?.cancel();
      const otherAirline = await me(path, vq, { method, body });
      expect({ route: `${method} ${path}`, status: otherAirline.status }).toEqual({
        route: `${method} ${path}`,
        status: 403,
      });
      await otherAirline.body?.cancel();
    }
  });

  it("caches every passenger read privately for a minute, per token, and no write", async () => {
    const cached: string[] = [];
    for (const { method, path } of await meRoutes()) {
      if (method !== "GET" || path === "/v1/me/events") continue;
      const response = await me(path, okafor);
      await response.body?.cancel();
      if (response.status !== 200) continue;
      expect({ path, cacheControl: response.headers.get("cache-control") }).toEqual({
        path,
        cacheControl: "private, max-age=60",
      });
      expect(response.headers.get("vary")).toMatch(/Authorization/);
      cached.push(path);
    }
    // NOTIFY's own read gets the convention as every other passenger read does.
    expect(cached).toEqual(
      expect.arrayContaining(["/v1/me", "/v1/me/offer", "/v1/me/voucher", "/v1/me/notifications"]),
    );
    const write = await me("/v1/me/problem", otherToken, { method: "POST", body: { text: "no towels" } });
    expect(write.status).toBe(201);
    expect(write.headers.get("cache-control")).toBeNull();
  });

  it("reads case B with case B's token: its own case, nothing of case A", async () => {
    const offer = await json(await me("/v1/me/offer", otherToken));
    expect(offer.caseUrn).toBe(otherCase);
    const transport = await me("/v1/me/transport", otherToken);
    expect(transport.status).toBe(200);
  });

  it("is refused on another airline's host name, however it is spelled", async () => {
    const port = new URL(t.passengerBase).port;
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          `${t.passengerBase}/v1/me/offer`,
          { headers: { Host: host, Authorization: `Bearer ${rivera}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end();
      });
    expect(await status(`zx.localhost:${port}`)).toBe(200);
    expect(await status(`vq.localhost:${port}`)).toBe(403);
    expect(await status(`vq.localhost.:${port}`)).toBe(403);
  });
});

describe("GET /v1/me/events", () => {
  /** A saga step's progress for a group: an event the stream carries and nothing else acts on. */
  function stepEvent(groupId: string, id = `urn:event:${randomUUID()}`) {
    return {
      id,
      type: "graph.step.progress",
      tenant: ZX,
      caseUrn: bookedCase,
      occurredAt: new Date().toISOString(),
      correlationUrn: `urn:trace:${randomUUID().replaceAll("-", "")}`,
      data: {
        caseUrn: bookedCase,
        stepUrn: `urn:step:${randomUUID()}`,
        subCaseUrn: subCaseUrnFor(bookedCase, groupId),
        groupId,
        progress: 0.5,
      },
    } as const;
  }

  it("delivers the group's own events only and resumes after Last-Event-ID", async () => {
    const stream = await openEventStream(`${t.passengerBase}/v1/me/events`, rivera);
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(stream.headers["cache-control"]).not.toMatch(/max-age/);
    const bus = t.platform.runtime.bus;
    // The saga of the booked case may be speaking on the stream too: only the test's own events
    // are looked for, and the other group's must never be among what arrives.
    const ours = new Set<string>();
    const publish = async (event: ReturnType<typeof stepEvent>) => {
      ours.add(event.id);
      await publishEvent(bus, event);
    };
    const seen: string[] = [];
    const nextOfOurs = async (client: EventStreamClient) => {
      for (;;) {
        const event = await client.next();
        seen.push(event.id ?? event.event);
        if (event.id && ours.has(event.id)) return event;
      }
    };
    const mine = stepEvent("ABC123");
    const foreignStep = stepEvent(businessGroup);
    await publish(foreignStep);
    await publish(mine);
    const first = await nextOfOurs(stream);
    expect(first).toMatchObject({ id: mine.id, event: "graph.step.progress" });
    expect(first.data).toMatchObject({ subCaseUrn: mine.data.subCaseUrn, progress: 0.5 });
    stream.close();

    // Missed while away: two events of the group (and one of another group).
    const missed = [stepEvent("ABC123"), stepEvent("ABC123")];
    for (const event of missed) await publish(event);
    await publish(stepEvent(businessGroup));
    const resumed = await openEventStream(`${t.passengerBase}/v1/me/events`, rivera, {
      "Last-Event-ID": mine.id,
    });
    expect((await nextOfOurs(resumed)).id).toBe(missed[0]!.id);
    expect((await nextOfOurs(resumed)).id).toBe(missed[1]!.id);
    const live = stepEvent("ABC123");
    await publish(live);
    expect((await nextOfOurs(resumed)).id).toBe(live.id);
    resumed.close();
    expect(seen).not.toContain(foreignStep.id);

    // Another group's id is no place to resume from in this group: reload.
    const foreign = await openEventStream(`${t.passengerBase}/v1/me/events`, okafor, {
      "Last-Event-ID": mine.id,
    });
    expect(await foreign.next()).toMatchObject({ event: "reset" });
    foreign.close();
  });
});
