import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utcOffsetMinutesAt } from "../../src/app/stays/airport-time.js";
import { nextLocalHour, plannedDrops } from "../../src/domain/wallet/scheduled-drops.js";
import {
  type WalletCardState,
  type WalletTransaction,
  applyTransaction,
  availableBalance,
  cancelCard,
  holdKeyOf,
  issueCard,
  loadDrop,
  parseWalletCardUrn,
  reconcileCard,
  walletActorIdFor,
  walletCardUrnFor,
} from "../../src/domain/wallet/wallet-card.js";

const JFK = { code: "JFK", lon: -73.78 };
const newYork = (at: number) => utcOffsetMinutesAt(JFK, at);
const NOW = new Date("2026-11-21T23:00:00Z");

function card(amount = 4_000, scheduled = true): WalletCardState {
  const actorId = walletActorIdFor("urn:case:c1", "G1");
  return issueCard(
    {
      urn: walletCardUrnFor(actorId, 1),
      caseUrn: "urn:case:c1",
      groupId: "G1",
      issuerCardId: "card_1",
      vendor: "wallet-sim",
      currency: "USD",
      amount,
      drops: plannedDrops(amount, NOW.getTime(), scheduled, newYork),
    },
    NOW,
  );
}

function tx(
  type: WalletTransaction["type"],
  amount: number,
  eventId: string,
  authorizationId = "a1",
): WalletTransaction {
  return {
    eventId,
    type,
    amount,
    currency: "USD",
    merchant: "Diner",
    occurredAt: NOW.toISOString(),
    authorizationId,
    source: "webhook",
  };
}

describe("scheduled drops (spec 8.2)", () => {
  it("loads 25 % at issue, 35 % at local noon and 40 % at local 18:00, in that order", () => {
    // 23:00 UTC is 18:00 in New York (EST): the next noon is the next day's, then its 18:00.
    const drops = plannedDrops(4_000, NOW.getTime(), true, newYork);
    expect(drops).toEqual([
      { id: "issue", dueAt: "2026-11-21T23:00:00.000Z", amount: 1_000 },
      { id: "noon", dueAt: "2026-11-22T17:00:00.000Z", amount: 1_400 },
      { id: "evening", dueAt: "2026-11-22T23:00:00.000Z", amount: 1_600 },
    ]);
  });

  it("puts everything on the card at issue when the tier has no scheduled drops", () => {
    expect(plannedDrops(4_000, NOW.getTime(), false, newYork)).toEqual([
      { id: "issue", dueAt: NOW.toISOString(), amount: 4_000 },
    ]);
  });

  it("always adds up to the amount, whatever it is", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (amount) => {
        const drops = plannedDrops(amount, NOW.getTime(), true, newYork);
        expect(drops.reduce((sum, d) => sum + d.amount, 0)).toBe(amount);
      }),
    );
  });

  it("follows daylight saving: local noon in summer is 16:00 UTC in New York", () => {
    expect(new Date(nextLocalHour(Date.parse("2026-07-01T10:00:00Z"), 12, newYork)).toISOString()).toBe(
      "2026-07-01T16:00:00.000Z",
    );
  });
});

describe("the wallet card (spec 2.7, 3.6, 6.3)", () => {
  /** Applies events as the actor does: each with the hold of its authorization (`holds`, kept across calls). */
  function applyAll(start: WalletCardState, events: WalletTransaction[], holds = new Map<string, number>()) {
    let c = start;
    for (const event of events) {
      const key = holdKeyOf(event);
      const moved = applyTransaction(c, event, holds.get(key) ?? 0, NOW);
      holds.set(key, moved.holdAfter);
      c = moved.card;
    }
    return c;
  }

  it("names cards after their (case, group) and generation", () => {
    const urn = walletCardUrnFor(walletActorIdFor("urn:case:c1", "G1"), 2);
    expect(parseWalletCardUrn(urn)).toEqual({
      actorId: walletActorIdFor("urn:case:c1", "G1"),
      generation: 2,
    });
    expect(parseWalletCardUrn("urn:wallet-card:nope")).toBeUndefined();
  });

  it("holds on authorization, settles on capture, releases on reversal and hold release", () => {
    const holds = new Map<string, number>();
    let c = card();
    expect([c.currentBalance, availableBalance(c)]).toEqual([1_000, 1_000]);
    c = applyAll(c, [tx("AUTHORIZATION", 300, "e1")], holds);
    expect([c.currentBalance, availableBalance(c)]).toEqual([1_000, 700]);
    c = applyAll(c, [tx("CAPTURE", 280, "e2")], holds);
    expect([c.currentBalance, availableBalance(c)]).toEqual([720, 720]);
    c = applyAll(
      c,
      [
        tx("AUTHORIZATION", 100, "e3", "a2"),
        tx("REVERSAL", 100, "e4", "a2"),
        tx("AUTHORIZATION", 50, "e5", "a3"),
        tx("HOLD_RELEASED", 50, "e6", "a3"),
      ],
      holds,
    );
    expect([c.currentBalance, availableBalance(c)]).toEqual([720, 720]);
    expect(c.transactionCount).toBe(6);
  });

  it("keeps available = current - holds whatever the order of holds and their settlements", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 500 }), fc.boolean()), { maxLength: 30 }),
        (spends) => {
          const events = spends.flatMap(([amount, settle], i) => [
            tx("AUTHORIZATION", amount, `a${i}`, `auth${i}`),
            ...(settle ? [tx("CAPTURE", amount, `c${i}`, `auth${i}`)] : []),
          ]);
          const c = applyAll(card(), events);
          const settled = spends.filter(([, settle]) => settle).reduce((sum, [amount]) => sum + amount, 0);
          const held = spends.filter(([, settle]) => !settle).reduce((sum, [amount]) => sum + amount, 0);
          expect(c.currentBalance).toBe(1_000 - settled);
          expect(availableBalance(c)).toBe(1_000 - settled - held);
        },
      ),
    );
  });

  it("refuses another currency", () => {
    expect(() =>
      applyTransaction(card(), { ...tx("AUTHORIZATION", 1, "e9"), currency: "EUR" }, 0, NOW),
    ).toThrow(/USD/);
  });

  it("loads each drop once, and none after cancellation", () => {
    const loaded = loadDrop(card(), "noon", NOW).card;
    expect(loaded.currentBalance).toBe(2_400);
    expect(loadDrop(loaded, "noon", NOW).changed).toBe(false);
    const cancelled = cancelCard(loaded, { reason: "LOST", returnedToPool: 4_000 }, NOW).card;
    expect(loadDrop(cancelled, "evening", NOW).changed).toBe(false);
  });

  it("cancels for good", () => {
    const cancelled = cancelCard(card(), { reason: "FRAUD", returnedToPool: 4_000 }, NOW).card;
    expect(cancelled).toMatchObject({
      status: "CANCELLED",
      currentBalance: 0,
      heldBalance: 0,
      cancelReason: "FRAUD",
    });
    expect(cancelCard(cancelled, { reason: "LOST", returnedToPool: 0 }, NOW).changed).toBe(false);
  });

  it("records an event on a cancelled card without moving its balances or its hold", () => {
    const cancelled = cancelCard(card(), { reason: "LOST", returnedToPool: 1_000 }, NOW).card;
    const moved = applyTransaction(cancelled, tx("CAPTURE", 300, "e1", "a1"), 300, NOW);
    expect(moved.holdAfter).toBe(300);
    expect(moved.card).toMatchObject({ currentBalance: 0, heldBalance: 0, transactionCount: 1 });
    expect(moved.card.version).toBe(cancelled.version + 1);
  });

  it("reconciles from the issuer: backfill, balance drift with the issuer's holds, status drift", () => {
    const c = card();
    const { source: _webhook, ...missing } = tx("CAPTURE", 200, "e-missing");
    const issuer = {
      status: "LOADED" as const,
      currentBalance: 800,
      holds: { a9: 50 },
      transactions: [missing],
    };
    const result = reconcileCard(c, issuer, [missing], NOW);
    expect(result.corrections).toEqual([
      { kind: "missing-transaction", eventId: "e-missing", type: "CAPTURE", amount: 200 },
      { kind: "balance", field: "currentBalance", local: 1_000, issuer: 800 },
      { kind: "balance", field: "availableBalance", local: 1_000, issuer: 750 },
    ]);
    expect(result.backfill).toEqual([{ ...missing, source: "reconciliation" }]);
    expect(result.holds).toEqual({ a9: 50 });
    expect(result.card).toMatchObject({
      currentBalance: 800,
      heldBalance: 50,
      holdsEpoch: 1,
      transactionCount: 1,
    });
    expect(reconcileCard(result.card, issuer, [], NOW).changed).toBe(false);
    const gone = reconcileCard(
      c,
      { status: "CANCELLED", currentBalance: 0, holds: {}, transactions: [] },
      [],
      NOW,
    );
    expect(gone.corrections).toEqual([{ kind: "status", local: "LOADED", issuer: "CANCELLED" }]);
    expect(gone.card.status).toBe("CANCELLED");
  });
});
