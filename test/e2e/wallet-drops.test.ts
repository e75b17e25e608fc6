/**
 * The time-driven parts of wallet cards on the embedded platform, with a clock that moves only when
 * told: scheduled drops on the card actor's reminders (spec 8.2: 25 % at issue, 35 % at noon, 40 %
 * at 18:00 local) loaded by the issuer, none after a cancellation, and the daily reconciliation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  WalletReconciliationActor,
  walletReconciliationActorId,
} from "../../actors/WalletReconciliationActor.js";
import { WalletIssuerSimulator } from "../../services/vendor-sim/wallet-issuer.js";
import { CancelWalletCard } from "../../src/app/wallet/cancel-wallet-card.js";
import { IssueWalletCard } from "../../src/app/wallet/issue-wallet-card.js";
import { WalletReads } from "../../src/app/wallet/wallet-reads.js";
import type { WalletCardState } from "../../src/domain/wallet/wallet-card.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";

const ZX = "urn:airline:ZX";
const CASE = "urn:case:5b1e6f0a-2c1d-4d8e-9f3a-7a6b5c4d3e21";
const HOUR = 3_600_000;

let t: TestPlatform;
let clock: ManualClock;
let sim: WalletIssuerSimulator;

async function issue(groupId: string): Promise<WalletCardState> {
  const outcome = await t.platform.container.resolve(IssueWalletCard).issueWalletCard({
    tenant: ZX,
    caseUrn: CASE,
    groupId,
    airport: "JFK",
    amount: 4_000,
    currency: "USD",
    scheduledDrops: true,
    requestedBy: "urn:system:test",
    correlationUrn: "urn:trace:3af7651916cd43dd8448eb211c80319c",
  });
  if (outcome.outcome !== "issued") throw new Error(JSON.stringify(outcome));
  return outcome.card;
}

const current = async (groupId: string) =>
  (await t.platform.container.resolve(WalletReads).cardOfGroup(CASE, groupId))!;

beforeAll(async () => {
  // 23:00 UTC on 21 November is 18:00 in New York: the next drops are at 17:00 and 23:00 UTC next day.
  clock = new ManualClock("2026-11-21T23:00:00Z");
  t = await startTestPlatform({ clock, env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
  sim = t.platform.container.resolve(WalletIssuerSimulator);
});

afterAll(async () => {
  await t?.close();
});

describe("scheduled drops", () => {
  it("loads 35 % at local noon and 40 % at local 18:00, at the issuer and on the card", async () => {
    const card = await issue("G-DROPS");
    const cancelled = await issue("G-CANCELLED");
    await t.platform.container.resolve(CancelWalletCard).cancelWalletCard({
      cardUrn: cancelled.urn,
      reason: "END_OF_CONTINGENCY",
      by: "urn:system:test",
      correlationUrn: "urn:trace:4af7651916cd43dd8448eb211c80319c",
    });
    expect(card.currentBalance).toBe(1_000);

    await clock.advance(18 * HOUR - 1);
    expect((await current("G-DROPS")).currentBalance).toBe(1_000);
    await clock.advance(1);
    expect((await current("G-DROPS")).currentBalance).toBe(2_400);
    expect(sim.card(card.issuerCardId)!.loaded).toBe(2_400);

    await clock.advance(6 * HOUR);
    const loaded = await current("G-DROPS");
    expect(loaded.currentBalance).toBe(4_000);
    expect(loaded.drops.every((d) => d.loadedAt)).toBe(true);
    expect(sim.card(card.issuerCardId)!.loaded).toBe(4_000);

    expect((await current("G-CANCELLED")).drops.filter((d) => d.loadedAt)).toHaveLength(1);
    expect(sim.card(cancelled.issuerCardId)!.loaded).toBe(1_000);
  });
});

describe("the daily reconciliation", () => {
  it("runs every 24 hours per tenant on the reconciliation actor's reminder", async () => {
    const card = await issue("G-DAILY");
    await sim.authorize(card.issuerCardId, 100, "Kiosk", { deliver: false });
    await clock.advance(24 * HOUR);
    const state = await t.platform.runtime.actors.invoke(
      WalletReconciliationActor,
      walletReconciliationActorId(ZX),
      "get",
    );
    expect(state?.lastReconciledAt).not.toBeNull();
    const reconciled = await current("G-DAILY");
    expect(reconciled.transactions).toEqual([
      expect.objectContaining({ type: "AUTHORIZATION", source: "reconciliation" }),
    ]);
    expect(reconciled.heldBalance).toBe(100);
  });
});

describe("hold expiry", () => {
  it("frees a hold the merchant never settled after 7 days: the issuer's HOLD_RELEASED reaches the card", async () => {
    const card = await issue("G-EXPIRY");
    await sim.authorize(card.issuerCardId, 300, "Hotel Bar");
    expect((await current("G-EXPIRY")).heldBalance).toBe(300);
    await clock.advance(7 * 24 * HOUR);
    const after = await current("G-EXPIRY");
    expect(after.heldBalance).toBe(0);
    expect(after.transactions.map((t) => t.type)).toEqual(["AUTHORIZATION", "HOLD_RELEASED"]);
  });
});
