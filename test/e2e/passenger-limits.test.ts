/**
 * The passenger surface's per-session limits (spec 8.1: 30 reads and 10 writes a minute per
 * session, 429 with Retry-After), the event stream's heartbeat, and the answers of a group that
 * holds no room yet, on a platform whose clock the test moves.
 */
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { PassengerSessionTokens } from "../../src/passenger-identity/session-tokens.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, ZX } from "./cases-fixtures.js";
import { openEventStream } from "./passenger-event-stream.js";

const clock = new ManualClock(Date.now());
let t: TestPlatform;
let sessions: PassengerSessionTokens;
let caseUrn: string;
let supervisor: string;

beforeAll(async () => {
  const key = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  t = await startTestPlatform({
    clock,
    env: { PASSENGER_SIGNING_KEY: JSON.stringify(key), DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" },
  });
  const issuer = t.platform.config.passengerBaseUrl.replace(/\/+$/, "");
  sessions = new PassengerSessionTokens({
    issuer,
    audience: `${issuer}/v1`,
    key: await loadPassengerSigningKey(key),
    revocations: new CaseRevocations(t.platform.runtime.documents),
    clock,
  });
  supervisor = await t.operatorToken("supervisor@zx.demo");
  const opened = await t.call("POST", "/v1/cases", supervisor, declaration("evt-pax-limits"));
  expect(opened.status).toBe(201);
  caseUrn = (await json(opened)).urn;
});

afterAll(async () => {
  await t?.close();
});

async function session(): Promise<string> {
  return (await sessions.mint({ tenant: ZX, caseUrn, groupId: "ABC123" })).token;
}

function me(path: string, token: string, method = "GET") {
  return fetch(`${t.passengerBase}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
}

describe("per-session limits (spec 8.1)", () => {
  it("allows 30 reads a minute per session, then 429 with Retry-After; another session is not affected", async () => {
    const token = await session();
    const remaining: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await me(i % 2 === 0 ? "/v1/me/transport" : "/v1/me/wallet", token);
      expect(response.status).toBe(200);
      remaining.push(Number(response.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining.at(0)).toBe(29);
    expect(remaining.at(-1)).toBe(0);
    const refused = await me("/v1/me/offer", token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await json(refused)).type).toMatch(/\/too-many-requests$/);

    expect((await me("/v1/me/offer", await session())).status).toBe(200);
    // A minute later the bucket is full again.
    await clock.advance(60_000);
    expect((await me("/v1/me/offer", token)).status).toBe(200);
  });

  it("allows 10 writes a minute per session, then 429; reads are counted apart", async () => {
    const token = await session();
    for (let i = 0; i < 10; i++) {
      // Refused by policy (403), yet each counts against the session's writes.
      expect((await me("/v1/me/transport/request", token, "POST")).status).toBe(403);
    }
    const refused = await me("/v1/me/transport/request", token, "POST");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await me("/v1/me/transport", token)).status).toBe(200);
    await clock.advance(6_000);
    // 10 a minute: one write's worth came back after six seconds.
    expect((await me("/v1/me/transport/request", token, "POST")).status).toBe(403);
    expect((await me("/v1/me/transport/request", token, "POST")).status).toBe(429);
  });
});

describe("a group without a room yet", () => {
  it("has no offer, no voucher and nothing to check into", async () => {
    const token = await session();
    const offer = await json(await me("/v1/me/offer", token));
    expect(offer).toMatchObject({ caseUrn, groupId: "ABC123", status: "OPEN", offer: null, answer: null });
    const voucher = await me("/v1/me/voucher", token);
    expect(voucher.status).toBe(404);
    expect((await json(voucher)).type).toMatch(/\/voucher-not-issued$/);
    const checkIn = await me("/v1/me/check-in", token, "POST");
    expect(checkIn.status).toBe(404);
  });
});

describe("a group not in the case", () => {
  it("is refused on every read and write as not found", async () => {
    const { token } = await sessions.mint({ tenant: ZX, caseUrn, groupId: "NO-SUCH-GROUP" });
    for (const [path, method] of [
      ["/v1/me/offer", "GET"],
      ["/v1/me/voucher", "GET"],
      ["/v1/me/transport", "GET"],
      ["/v1/me/events", "GET"],
      ["/v1/me/check-in", "POST"],
      ["/v1/me/offer/accept", "POST"],
    ] as const) {
      const response = await me(path, token, method);
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect((await json(response)).type).toMatch(/\/group-not-found$/);
    }
  });
});

describe("the event stream's heartbeat", () => {
  it("sends a heartbeat comment every 15 seconds of the server's clock", async () => {
    const stream = await openEventStream(`${t.passengerBase}/v1/me/events`, await session());
    expect(stream.status).toBe(200);
    expect(stream.comments).toEqual([]);
    await clock.advance(15_000);
    await expect.poll(() => stream.comments, { timeout: 2_000, interval: 20 }).toEqual(["heartbeat"]);
    await clock.advance(15_000);
    await expect
      .poll(() => stream.comments, { timeout: 2_000, interval: 20 })
      .toEqual(["heartbeat", "heartbeat"]);
    stream.close();
  });
});

describe("the event stream's end", () => {
  it("ends when the case closes, as the session does", async () => {
    const token = await session();
    const stream = await openEventStream(`${t.passengerBase}/v1/me/events`, token);
    const closed = await t.call("POST", `/v1/cases/${encodeURIComponent(caseUrn)}/close`, supervisor, {
      reason: "every passenger rebooked",
    });
    expect(closed.status).toBe(200);
    let event = await stream.next();
    while (event.event !== "subcase.case-closed") event = await stream.next();
    expect(event.data).toMatchObject({ groupId: "ABC123" });
    await expect(stream.next()).rejects.toThrow(/the stream ended/);
    expect((await me("/v1/me/events", token)).status).toBe(403);
  });
});
