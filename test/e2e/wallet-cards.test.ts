import { Writable } from "node:stream";
import { exportJWK, generateKeyPair } from "jose";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WalletIssuerSimulator } from "../../services/vendor-sim/wallet-issuer.js";
import { CancelWalletCard } from "../../src/app/wallet/cancel-wallet-card.js";
import { IssueWalletCard, type IssueWalletCardInput } from "../../src/app/wallet/issue-wallet-card.js";
import { WalletReads } from "../../src/app/wallet/wallet-reads.js";
import { WalletReconciliation } from "../../src/app/wallet/wallet-reconciliation.js";
import { DEMO_WALLET_FUNDING_POOL } from "../../src/demo/demo-wallet-accounts.js";
import { hmacSignature } from "../../src/domain/hmac-signature.js";
import type { WalletCardState } from "../../src/domain/wallet/wallet-card.js";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { PassengerSessionTokens } from "../../src/passenger-identity/session-tokens.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import { systemClock } from "../../src/runtime/clock.js";
import type { ScannableStateStore } from "../../src/runtime/state-store.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { nextFlight } from "../support/disruption.js";
import { businessGroup } from "../support/disruption.js";
import { declaration, json } from "./cases-fixtures.js";

const ZX = "urn:airline:ZX";
const CASE = "urn:case:7d0c2a8e-51d4-4c52-9c8a-3f6f1b0c9e11";
const SECRET = "demo-wallet-webhook-zx";

let t: TestPlatform;
let sim: WalletIssuerSimulator;
let issue: IssueWalletCard;
let sessions: PassengerSessionTokens;
const logLines: string[] = [];

function input(groupId: string, overrides: Partial<IssueWalletCardInput> = {}): IssueWalletCardInput {
  return {
    tenant: ZX,
    caseUrn: CASE,
    groupId,
    airport: "JFK",
    amount: 4_000,
    currency: "USD",
    scheduledDrops: true,
    requestedBy: "urn:system:test",
    correlationUrn: "urn:trace:0af7651916cd43dd8448eb211c80319c",
    ...overrides,
  };
}

async function issued(
  groupId: string,
  overrides: Partial<IssueWalletCardInput> = {},
): Promise<WalletCardState> {
  const outcome = await issue.issueWalletCard(input(groupId, overrides));
  if (outcome.outcome !== "issued") throw new Error(`not issued: ${JSON.stringify(outcome)}`);
  return outcome.card;
}

/** A webhook signed as the issuer signs them. */
function webhook(body: unknown, eventId: string, secret = SECRET) {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return fetch(`${t.base}/v1/wallet/webhooks/wallet-sim`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-vendor-signature": hmacSignature(secret, timestamp, raw),
      "x-vendor-signature-timestamp": timestamp,
      "x-vendor-event-id": eventId,
    },
    body: raw,
  });
}

function reads(): WalletReads {
  return t.platform.container.resolve(WalletReads);
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const key = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  t = await startTestPlatform({
    logger: pino({ level: "debug" }, sink),
    env: { PASSENGER_SIGNING_KEY: JSON.stringify(key) },
  });
  const issuer = t.platform.config.passengerBaseUrl.replace(/\/+$/, "");
  sessions = new PassengerSessionTokens({
    issuer,
    audience: `${issuer}/v1`,
    key: await loadPassengerSigningKey(key),
    revocations: new CaseRevocations(t.platform.runtime.documents),
    clock: systemClock,
  });
  sim = t.platform.container.resolve(WalletIssuerSimulator);
  issue = t.platform.container.resolve(IssueWalletCard);
  issue.retryPolicy = { maxAttempts: 5, baseDelayMs: 1, rateLimitedBaseDelayMs: 1, maxDelayMs: 2 };
});

afterAll(async () => {
  await t?.close();
});

describe("wallet cards", () => {
  it("issues a LOADED card with its first drop, once, whatever the retries", async () => {
    const card = await issued("G-ISSUE");
    expect(card).toMatchObject({
      status: "LOADED",
      currency: "USD",
      initialBalance: 4_000,
      currentBalance: 1_000,
      caseUrn: CASE,
      groupId: "G-ISSUE",
    });
    expect(card.drops.map((d) => [d.id, d.amount])).toEqual([
      ["issue", 1_000],
      ["noon", 1_400],
      ["evening", 1_600],
    ]);
    const again = await issue.issueWalletCard(input("G-ISSUE"));
    expect(again).toMatchObject({ outcome: "issued", replayed: true, card: { urn: card.urn } });
  });

  it("retries a 5xx and gets the issuer's one card for its reference", async () => {
    sim.failNext("server-error", 3);
    const card = await issued("G-RETRY");
    expect(card.status).toBe("LOADED");
    expect(sim.card(card.issuerCardId)).toBeDefined();
  });

  it("gives up after 5 attempts of 5xx, answering failed", async () => {
    sim.failNext("server-error", 5);
    await expect(issue.issueWalletCard(input("G-FAIL"))).resolves.toEqual({
      outcome: "failed",
      vendorErrorCode: "HTTP_503",
    });
    sim.failNext("server-error", 0);
  });

  it("applies signed webhooks atomically and answers with a signed body", async () => {
    const card = await issued("G-TX");
    const auth = await sim.authorize(card.issuerCardId, 300, "Airport Diner", { deliver: false });
    const body = {
      type: "AUTHORIZATION",
      card_id: card.issuerCardId,
      amount: { value: 300, currency: "USD" },
      merchant: { name: "Airport Diner" },
      occurred_at: new Date().toISOString(),
      authorization_id: auth,
    };
    const response = await webhook(body, "evt-tx-1");
    expect(response.status).toBe(200);
    const raw = await response.text();
    const timestamp = response.headers.get("x-vendor-signature-timestamp")!;
    expect(response.headers.get("x-vendor-signature")).toBe(hmacSignature(SECRET, timestamp, raw));
    expect(JSON.parse(raw)).toEqual({ cardUrn: card.urn, eventId: "evt-tx-1", duplicate: false });

    const duplicate = await webhook(body, "evt-tx-1");
    expect(await duplicate.json()).toMatchObject({ duplicate: true });

    const capture = await webhook(
      { ...body, type: "CAPTURE", amount: { value: 280, currency: "USD" }, merchant: null },
      "evt-tx-2",
    );
    expect(capture.status).toBe(200);
    const read = (await reads().cardOfGroup(CASE, "G-TX"))!;
    expect(read).toMatchObject({ currentBalance: 720, heldBalance: 0 });
    expect(read.transactions.map((x) => x.type)).toEqual(["AUTHORIZATION", "CAPTURE"]);
  });

  it("refuses a bad signature with 401 and an unknown card with 404", async () => {
    const body = {
      type: "AUTHORIZATION",
      card_id: "card_unknown",
      amount: { value: 1, currency: "USD" },
      occurred_at: new Date().toISOString(),
    };
    expect((await webhook(body, "evt-bad", "not-the-secret")).status).toBe(401);
    // Another airline's secret signs for that airline's cards only.
    expect((await webhook(body, "evt-vq", "demo-wallet-webhook-vq")).status).toBe(404);
    expect((await webhook(body, "evt-unknown")).status).toBe(404);
    const raw = JSON.stringify(body);
    const stale = String(Math.floor(Date.now() / 1000) - 600);
    const late = await fetch(`${t.base}/v1/wallet/webhooks/wallet-sim`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-vendor-signature": hmacSignature(SECRET, stale, raw),
        "x-vendor-signature-timestamp": stale,
        "x-vendor-event-id": "evt-stale",
      },
      body: raw,
    });
    expect(late.status).toBe(401);
    const now = String(Math.floor(Date.now() / 1000));
    const headers = {
      "content-type": "application/json",
      "x-vendor-signature": hmacSignature(SECRET, now, raw),
      "x-vendor-signature-timestamp": now,
    };
    const noEventId = await fetch(`${t.base}/v1/wallet/webhooks/wallet-sim`, {
      method: "POST",
      headers,
      body: raw,
    });
    expect(noEventId.status).toBe(400);
    const otherVendor = await fetch(`${t.base}/v1/wallet/webhooks/other-issuer`, {
      method: "POST",
      headers: { ...headers, "x-vendor-event-id": "evt-other" },
      body: raw,
    });
    expect(otherVendor.status).toBe(404);
  });

  it("takes the issuer's own webhooks end to end", async () => {
    const card = await issued("G-SIM");
    const auth = await sim.authorize(card.issuerCardId, 500, "Gate Cafe");
    await sim.reverse(card.issuerCardId, auth);
    const read = (await reads().cardOfGroup(CASE, "G-SIM"))!;
    expect(read.transactions.map((x) => x.type)).toEqual(["AUTHORIZATION", "REVERSAL"]);
    expect(read).toMatchObject({ currentBalance: 1_000, heldBalance: 0 });
  });

  it("cancels through the route: the issuer returns the unused balance, audited, irreversible", async () => {
    const card = await issued("G-CANCEL");
    const auth = await sim.authorize(card.issuerCardId, 400, "Gate Cafe");
    await sim.capture(card.issuerCardId, auth);
    const poolBefore = sim.fundingPool("demo-wallet-zx")!;
    const operator = await t.operatorToken("operator@zx.demo");
    const path = `/v1/wallet/cards/${encodeURIComponent(card.urn)}/cancel`;
    expect((await t.call("POST", path, operator, { reason: "BROKEN" })).status).toBe(400);
    const response = await t.call("POST", path, operator, { reason: "LOST" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: "CANCELLED",
      cancelReason: "LOST",
      returnedToPool: 3_600,
      currentBalance: 0,
      availableBalance: 0,
    });
    expect(sim.fundingPool("demo-wallet-zx")).toBe(poolBefore + 3_600);
    const again = await t.call("POST", path, operator, { reason: "FRAUD" });
    expect(await again.json()).toMatchObject({ status: "CANCELLED", cancelReason: "LOST" });
    const audit = await t.platform.audit.query({
      tenant: ZX,
      entityUrn: card.urn,
      action: "wallet.card-cancel",
      limit: 5,
    });
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({ reason: "LOST", actorUrn: expect.stringMatching(/^urn:user:/) });

    // A re-issue makes a new card.
    const next = await issued("G-CANCEL");
    expect(next.urn).not.toBe(card.urn);
    expect(next.status).toBe("LOADED");
  });

  it("refuses another airline's operator (403) and an unknown card (404)", async () => {
    const card = await issued("G-TENANT");
    const other = await t.operatorToken("operator@vq.demo");
    const path = `/v1/wallet/cards/${encodeURIComponent(card.urn)}/cancel`;
    expect((await t.call("POST", path, other, { reason: "LOST" })).status).toBe(403);
    const operator = await t.operatorToken("operator@zx.demo");
    const unknown = `/v1/wallet/cards/${encodeURIComponent(`${card.urn.slice(0, -1)}9`)}/cancel`;
    expect((await t.call("POST", unknown, operator, { reason: "LOST" })).status).toBe(404);
  });

  it("pauses the tenant's issuance on a 403, without retrying", async () => {
    sim.failNext("forbidden", 1);
    expect(await issue.issueWalletCard(input("G-PAUSE"))).toEqual({
      outcome: "paused",
      vendorErrorCode: "HTTP_403",
    });
    expect(await issue.issueWalletCard(input("G-PAUSE-2"))).toEqual({
      outcome: "paused",
      vendorErrorCode: "HTTP_403",
    });
    expect(logLines.some((l) => l.includes("issuance paused"))).toBe(true);

    // An administrator sees the pause and resumes issuance once the credentials are mended.
    const admin = await t.operatorToken("admin@zx.demo");
    expect(await json(await t.call("GET", "/v1/wallet/issuance", admin))).toEqual({
      status: "PAUSED",
      vendorErrorCode: "HTTP_403",
    });
    const supervisor = await t.operatorToken("supervisor@zx.demo");
    expect((await t.call("POST", "/v1/wallet/issuance/resume", supervisor)).status).toBe(403);
    const vqAdmin = await t.operatorToken("admin@vq.demo");
    expect(await json(await t.call("GET", "/v1/wallet/issuance", vqAdmin))).toMatchObject({
      status: "RUNNING",
    });
    const resumed = await t.call("POST", "/v1/wallet/issuance/resume", admin);
    expect(resumed.status).toBe(200);
    expect(await json(resumed)).toEqual({ status: "RUNNING", vendorErrorCode: null });
    expect(await issue.issueWalletCard(input("G-PAUSE-3"))).toMatchObject({ outcome: "issued" });
    const trail = await json(await t.call("GET", "/audit?action=resumeWalletIssuance", supervisor));
    expect(trail.items).toHaveLength(1);
    expect(trail.items[0]).toMatchObject({ action: "resumeWalletIssuance", tenant: ZX });
  });

  it("raises a review item when the funding pool is exhausted", async () => {
    sim.setFundingPool("demo-wallet-zx", 100);
    const outcome = await issue.issueWalletCard(input("G-POOL"));
    sim.setFundingPool("demo-wallet-zx", DEMO_WALLET_FUNDING_POOL);
    expect(outcome).toMatchObject({
      outcome: "funding-exhausted",
      reviewItemUrn: expect.stringMatching(/^urn:review-item:/),
    });
  });

  it("reconciles with the issuer: backfills, corrects balances and status, audited", async () => {
    const card = await issued("G-RECON");
    const lost = await sim.authorize(card.issuerCardId, 200, "Kiosk", { deliver: false });
    await sim.capture(card.issuerCardId, lost, { deliver: false });
    const quiet = await issued("G-RECON-2");
    sim.cancelQuietly(quiet.issuerCardId);
    const reconciled = await t.platform.container
      .resolve(WalletReconciliation)
      .reconcile(ZX, "urn:trace:1af7651916cd43dd8448eb211c80319c");
    const mine = reconciled.find((r) => r.cardUrn === card.urn)!;
    expect(mine.corrections.filter((c) => c.kind === "missing-transaction")).toHaveLength(2);
    expect(mine.corrections).toContainEqual({
      kind: "balance",
      field: "currentBalance",
      local: 1_000,
      issuer: 800,
    });
    expect(reconciled.find((r) => r.cardUrn === quiet.urn)!.corrections).toContainEqual({
      kind: "status",
      local: "LOADED",
      issuer: "CANCELLED",
    });
    const audit = await t.platform.audit.query({
      tenant: ZX,
      entityUrn: card.urn,
      action: "wallet.card-reconcile",
      limit: 5,
    });
    expect(audit.items).toHaveLength(1);
  });

  it("never stores or logs the card number, verification code or expiry", async () => {
    const card = await issued("G-SECRET");
    const secret = sim.card(card.issuerCardId)!;
    const state = t.platform.runtime.state as ScannableStateStore;
    const stored: unknown[] = [];
    for (const key of await state.keys("")) stored.push((await state.get(key))?.value);
    stored.push(await t.platform.runtime.documents.collection("wallet-cards").findAll({}));
    stored.push((await t.platform.audit.query({ tenant: ZX, limit: 500 })).items);
    const everything = JSON.stringify(stored) + logLines.join("");
    expect(everything).toContain(card.issuerCardId);
    expect(everything).not.toContain(secret.number);
    expect(everything).not.toContain(`"${secret.cvc}"`);
    expect(everything).not.toContain(secret.expiry);
  });
});

describe("the cancel use case for the saga", () => {
  it("is idempotent", async () => {
    const card = await issued("G-SAGA");
    const cancel = t.platform.container.resolve(CancelWalletCard);
    const first = await cancel.cancelWalletCard({
      cardUrn: card.urn,
      reason: "SAGA_COMPENSATION",
      by: "urn:system:test",
      correlationUrn: "urn:trace:2af7651916cd43dd8448eb211c80319c",
    });
    const second = await cancel.cancelWalletCard({
      cardUrn: card.urn,
      reason: "SAGA_COMPENSATION",
      by: "urn:system:test",
      correlationUrn: "urn:trace:2af7651916cd43dd8448eb211c80319c",
    });
    expect(first).toMatchObject({ replayed: false, returnedToPool: 4_000 });
    expect(second).toMatchObject({ replayed: true, returnedToPool: 4_000 });
  });
});

describe("reading a case's cards", () => {
  let caseUrn: string;
  let rivera: string;
  let card: WalletCardState;

  const me = (path: string) =>
    fetch(`${t.passengerBase}${path}`, { headers: { Authorization: `Bearer ${rivera}` } });

  beforeAll(async () => {
    const supervisor = await t.operatorToken("supervisor@zx.demo");
    // The next flight leaves 90 minutes after the cancelled one: no meal is owed, so no saga issues
    // the group's card; the tests issue it themselves.
    const opened = await t.call(
      "POST",
      "/v1/cases",
      supervisor,
      declaration("evt-wallet-reads", {
        nextFlight: { ...nextFlight(), scheduledDeparture: "2026-11-21T23:30:00Z" },
      }),
    );
    expect(opened.status).toBe(201);
    caseUrn = (await json(opened)).urn;
    rivera = (await sessions.mint({ tenant: ZX, caseUrn, groupId: "ABC123" })).token;
    // The group's sub-case exists once the case's opening has been followed.
    for (let tries = 0; (await me("/v1/me/wallet")).status !== 200; tries++) {
      if (tries > 100) throw new Error("the passenger's group never appeared");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it("answers no card and nothing to reveal before one is issued", async () => {
    expect(await json(await me("/v1/me/wallet"))).toEqual({ card: null });
    const reveal = await me("/v1/me/wallet/reveal");
    expect(reveal.status).toBe(404);
    expect((await json(reveal)).type).toMatch(/\/wallet-card-not-issued$/);
  });

  it("shows the passenger the balance, available and transactions", async () => {
    card = await issued("ABC123", { caseUrn });
    const auth = await sim.authorize(card.issuerCardId, 250, "Terminal 4 Deli");
    const response = await me("/v1/me/wallet");
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
    expect(await json(response)).toEqual({
      card: {
        cardUrn: card.urn,
        status: "LOADED",
        currency: "USD",
        balance: 1_000,
        available: 750,
        transactions: [
          {
            type: "AUTHORIZATION",
            amount: { value: 250, currency: "USD" },
            merchant: "Terminal 4 Deli",
            occurredAt: expect.any(String),
          },
        ],
      },
    });
    await sim.capture(card.issuerCardId, auth);
  });

  it("reveals the number on the issuer's short-lived page only", async () => {
    const response = await me("/v1/me/wallet/reveal");
    expect(response.status).toBe(200);
    const raw = await response.text();
    const secret = sim.card(card.issuerCardId)!;
    expect(raw).not.toContain(secret.number);
    const { url, expiresAt } = JSON.parse(raw) as { url: string; expiresAt: string };
    expect(url.startsWith(`${t.platform.config.publicBaseUrl}/vendor-sim/wallet-sim/reveal/`)).toBe(true);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const page = await fetch(url.replace(t.platform.config.publicBaseUrl, t.base));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(secret.number);
  });

  it("lists the case's cards with balances and history for operators of its airline and airport", async () => {
    const operator = await t.operatorToken("operator.jfk@zx.demo");
    const path = `/v1/wallet/cases/${encodeURIComponent(caseUrn)}/cards`;
    const response = await t.call("GET", path, operator);
    expect(response.status).toBe(200);
    const { items } = await json(response);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      cardUrn: card.urn,
      groupId: "ABC123",
      status: "LOADED",
      initialBalance: 4_000,
      currentBalance: 750,
      availableBalance: 750,
    });
    expect(items[0].transactions.map((x: { type: string }) => x.type)).toEqual(["AUTHORIZATION", "CAPTURE"]);
    expect((await t.call("GET", path, await t.operatorToken("operator@vq.demo"))).status).toBe(403);
    const unknown = `/v1/wallet/cases/${encodeURIComponent("urn:case:00000000-0000-4000-8000-000000000000")}/cards`;
    expect((await t.call("GET", unknown, operator)).status).toBe(404);
  });

  it("puts an exhausted funding pool in the review queue, where the operator drops the wallet leg or escalates", async () => {
    sim.setFundingPool("demo-wallet-zx", 10);
    const outcome = await issue.issueWalletCard(input(businessGroup().id, { caseUrn }));
    sim.setFundingPool("demo-wallet-zx", DEMO_WALLET_FUNDING_POOL);
    expect(outcome.outcome).toBe("funding-exhausted");
    const { reviewItemUrn } = outcome as { reviewItemUrn: string };
    const supervisor = await t.operatorToken("supervisor@zx.demo");
    const item = await json(
      await t.call("GET", `/v1/booking/manual-review/${encodeURIComponent(reviewItemUrn)}`, supervisor),
    );
    expect(item).toMatchObject({
      caseUrn,
      category: "WALLET_FUNDING_EXHAUSTED",
      priority: "HIGH",
      affectedGroups: [businessGroup().id],
      raisedBy: "wallet",
      state: "OPEN",
    });
    const resolved = await t.call(
      "POST",
      `/v1/booking/manual-review/${encodeURIComponent(reviewItemUrn)}/resolve`,
      supervisor,
      { resolution: "WALLET_LEG_DROPPED", reason: "Pool refund takes a day; the group eats on vouchers" },
    );
    expect(resolved.status).toBe(200);
    expect(await json(resolved)).toMatchObject({ state: "RESOLVED" });
  });
});
