import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { PassengerSessionTokens } from "../../src/passenger-identity/session-tokens.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import { systemClock } from "../../src/runtime/clock.js";
import { caseSchema } from "../../services/cases/case-schemas.js";
import { passengerOfferSchema } from "../../services/passenger-api/passenger-schemas.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, push, ZX } from "./cases-fixtures.js";

/**
 * What each passenger is owed, as the operator's case read and the passenger's offer show it
 * (src/domain/entitlements): the regime of the departure airport, the cause, the wait, and the meal
 * allowance per tier (the service default, then the policy's).
 */

let t: TestPlatform;
let sessions: PassengerSessionTokens;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validCase = ajv.compile(caseSchema as object);
const validOffer = ajv.compile(passengerOfferSchema as object);

beforeAll(async () => {
  const platformKey = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  t = await startTestPlatform({
    env: {
      PASSENGER_SIGNING_KEY: JSON.stringify(platformKey),
      DEMAND_ON_INTAKE: "off",
      DEMO_POLICIES: "off",
    },
  });
  const issuer = t.platform.config.passengerBaseUrl.replace(/\/+$/, "");
  sessions = new PassengerSessionTokens({
    issuer,
    audience: `${issuer}/v1`,
    key: await loadPassengerSigningKey(platformKey),
    revocations: new CaseRevocations(t.platform.runtime.documents),
    clock: systemClock,
  });
});
afterAll(async () => {
  await t?.close();
});

const usd = (amountMinor: number) => ({ amountMinor, currency: "USD" });

/** ZX100 from `origin` to London, cancelled at 22:00 UTC; the next flight leaves 20 hours later. */
async function declare(externalEventId: string, origin: string, who = "supervisor@zx.demo", overrides = {}) {
  const base = declaration(externalEventId);
  const response = await t.call(
    "POST",
    "/v1/cases",
    await t.operatorToken(who),
    declaration(externalEventId, { flight: { ...base.flight, origin }, ...overrides }),
  );
  expect(response.status).toBe(201);
  return (await json(response)).urn as string;
}

async function caseRead(urn: string, who = "operator@zx.demo") {
  const response = await t.call("GET", `/v1/cases/${encodeURIComponent(urn)}`, await t.operatorToken(who));
  expect(response.status).toBe(200);
  const body = await json(response);
  expect(validCase(body), JSON.stringify(validCase.errors)).toBe(true);
  return body;
}

const owed = (regime: { care: { item: string; owed: boolean }[] }) =>
  Object.fromEntries(regime.care.map((c) => [c.item, c.owed]));

describe("GET /v1/cases/{urn}: entitlements", () => {
  it("a cancellation at a US airport with no stated cause: the US DOT commitments, with the service's default meal allowance", async () => {
    const urn = await declare("evt-owed-ord", "ORD");
    const { entitlements } = await caseRead(urn);
    expect(entitlements).toMatchObject({
      departure: "ORD",
      arrival: "LHR",
      disruption: "CANCELLATION",
      cause: { reason: null, controllable: true, decidedBy: "default" },
      waitingMinutes: 20 * 60,
      overnight: true,
    });
    expect(entitlements.distanceKm).toBeGreaterThan(6000);
    expect(entitlements.regimes.map((r: { regime: string }) => r.regime)).toEqual(["US_DOT"]);
    expect(owed(entitlements.regimes[0])).toEqual({ MEALS: true, HOTEL: true, TRANSPORT: true });
    expect(entitlements.regimes[0].care[0].source).toContain("US DOT");
    // One meal per started 6 hours of a 20-hour wait: 4 meals at USD 15.
    expect(entitlements.mealAllowance).toMatchObject({ owed: true, meals: 4, currency: "USD" });
    expect(entitlements.mealAllowance.perTier).toEqual([
      { tier: "ECONOMY", perMeal: usd(1500), amount: usd(6000) },
      { tier: "BUSINESS", perMeal: usd(1500), amount: usd(6000) },
    ]);
    // The two Riveras share their group's card; Okafor has his own.
    expect(entitlements.groups).toEqual([
      { groupId: "ABC123", amount: usd(12000) },
      { groupId: "XYZ789", amount: usd(6000) },
    ]);
  });

  it("a pushed disruption caused by weather owes nothing under the US DOT commitments", async () => {
    const token = await t.partnerToken("skyhub-zx");
    const response = await t.call("POST", "/partner/v1/disruptions", token, push("evt-owed-weather"));
    expect(response.status).toBe(202);
    const { entitlements } = await caseRead((await json(response)).caseUrn);
    expect(entitlements.cause).toEqual({ reason: "WEATHER", controllable: false, decidedBy: "reason" });
    expect(owed(entitlements.regimes[0])).toEqual({ MEALS: false, HOTEL: false, TRANSPORT: false });
    expect(entitlements.mealAllowance).toMatchObject({ owed: false, meals: 0 });
    expect(
      entitlements.groups.every((g: { amount: unknown }) =>
        JSON.stringify(g.amount).includes('"amountMinor":0'),
      ),
    ).toBe(true);
  });

  it("a cancellation at London: UK261 care, two communications, in pounds", async () => {
    const urn = await declare("evt-owed-lhr", "LHR", "supervisor@vq.demo", {
      flight: {
        number: "VQ10",
        origin: "LHR",
        destination: "MAD",
        scheduledDeparture: "2026-11-21T22:00:00Z",
        status: "CANCELLED",
      },
      nextFlight: { number: "VQ12", scheduledDeparture: "2026-11-22T18:00:00Z" },
    });
    const { entitlements } = await caseRead(urn, "operator@vq.demo");
    expect(entitlements.regimes.map((r: { regime: string }) => r.regime)).toEqual(["UK261"]);
    const uk = entitlements.regimes[0];
    expect(uk.distanceBand).toMatchObject({ band: "SHORT", delayThresholdMinutes: 120 });
    expect(owed(uk)).toEqual({ MEALS: true, COMMUNICATIONS: true, HOTEL: true, TRANSPORT: true });
    expect(uk.care.find((c: { item: string }) => c.item === "COMMUNICATIONS").count).toBe(2);
    expect(entitlements.groups[0]).toEqual({
      groupId: "ABC123",
      amount: { amountMinor: 9600, currency: "GBP" },
    });
  });

  it("the airline policy's meal allowance per tier replaces the default, as soon as it is active or patched", async () => {
    const caseUrn = await declare("evt-owed-jfk", "JFK");
    expect((await caseRead(caseUrn)).entitlements.groups).toEqual([
      { groupId: "ABC123", amount: usd(2 * 4 * 1500) },
      { groupId: "XYZ789", amount: usd(4 * 1500) },
    ]);
    const created = await json(
      await t.call("POST", "/v1/policies", await t.operatorToken("supervisor@zx.demo"), {
        name: "JFK meals",
        context: { airport: "JFK" },
        mealAllowance: { amount: 12, perTier: { BUSINESS: 25 } },
      }),
    );
    expect(created.mealAllowance).toEqual({ amount: 12, perTier: { BUSINESS: 25 } });
    const activated = await t.call(
      "POST",
      `/v1/policies/${encodeURIComponent(created.urn)}/activate`,
      await t.operatorToken("admin@zx.demo"),
    );
    expect(activated.status).toBe(200);
    const { entitlements } = await caseRead(caseUrn);
    expect(entitlements.mealAllowance.source).toContain(created.urn);
    expect(entitlements.groups).toEqual([
      { groupId: "ABC123", amount: usd(2 * 4 * 1200) },
      { groupId: "XYZ789", amount: usd(4 * 2500) },
    ]);

    // Meals every 8 hours instead of 6: three for the 20-hour wait.
    const patched = await t.call(
      "POST",
      `/v1/policies/${encodeURIComponent(created.urn)}/patch`,
      await t.operatorToken("supervisor@zx.demo"),
      {
        mealAllowance: { amount: 12, perTier: { BUSINESS: 25 }, minutesPerMeal: 480 },
        reason: "fewer meals",
      },
    );
    expect(patched.status).toBe(200);
    expect((await caseRead(caseUrn)).entitlements.groups).toEqual([
      { groupId: "ABC123", amount: usd(2 * 3 * 1200) },
      { groupId: "XYZ789", amount: usd(3 * 2500) },
    ]);
  });
});

describe("GET /v1/me/offer: entitlements", () => {
  it("shows the passenger's group what it is owed, with its meal allowance", async () => {
    const caseUrn = await declare("evt-owed-offer", "BOS");
    const { token } = await sessions.mint({ tenant: ZX, caseUrn, groupId: "XYZ789" });
    const response = await fetch(`${t.passengerBase}/v1/me/offer`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(validOffer(body), JSON.stringify(validOffer.errors)).toBe(true);
    expect(body.entitlements.regimes.map((r: { regime: string }) => r.regime)).toEqual(["US_DOT"]);
    expect(body.entitlements.mealAllowance.perTier).toEqual([
      { tier: "BUSINESS", perMeal: usd(1500), amount: usd(6000) },
    ]);
    expect(body.entitlements.groups).toEqual([{ groupId: "XYZ789", amount: usd(6000) }]);
    // Nothing of the other group.
    expect(JSON.stringify(body.entitlements)).not.toContain("ABC123");
  });

  it("follows the case: a next flight two hours later leaves no night and no meal owed", async () => {
    const caseUrn = await declare("evt-owed-moved", "BOS", "supervisor@zx.demo", {
      flight: {
        number: "ZX300",
        origin: "BOS",
        destination: "LHR",
        scheduledDeparture: "2026-11-21T10:00:00Z",
        status: "DELAYED",
      },
      nextFlight: { number: "ZX302", scheduledDeparture: "2026-11-22T10:00:00Z" },
    });
    const { token } = await sessions.mint({ tenant: ZX, caseUrn, groupId: "ABC123" });
    const offer = async () =>
      (
        await json(
          await fetch(`${t.passengerBase}/v1/me/offer`, { headers: { Authorization: `Bearer ${token}` } }),
        )
      ).entitlements;
    expect((await offer()).groups).toEqual([{ groupId: "ABC123", amount: usd(2 * 4 * 1500) }]);
    const moved = await t.call(
      "PATCH",
      `/cases/${encodeURIComponent(caseUrn)}/reaccommodate`,
      await t.operatorToken("supervisor@zx.demo"),
      {
        nextFlight: { number: "ZX304", scheduledDeparture: "2026-11-21T12:00:00Z" },
        reason: "an earlier seat",
      },
    );
    expect(moved.status).toBe(200);
    const after = await offer();
    expect(after).toMatchObject({ disruption: "DELAY", waitingMinutes: 120, overnight: false });
    expect(owed(after.regimes[0])).toEqual({ MEALS: false, HOTEL: false, TRANSPORT: false });
    expect(after.groups).toEqual([{ groupId: "ABC123", amount: usd(0) }]);
  });
});
