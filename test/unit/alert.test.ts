import { describe, expect, it } from "vitest";
import { alertOf } from "../../src/domain/alert.js";
import type { Correction } from "../../src/domain/wallet/wallet-card.js";

const envelope = {
  id: "urn:event:0b6f1c1e-4d7a-4c57-9d0f-5d1f8a2b3c4d",
  tenant: "urn:airline:ZX",
  occurredAt: "2026-11-27T10:00:00.000Z",
  correlationUrn: "urn:trace:alert",
};

describe("alertOf", () => {
  it("pages on-call for an SLA breach, about the item, with one URN per raising event", () => {
    const event = {
      ...envelope,
      type: "review-item.sla-breached" as const,
      caseUrn: "urn:case:c1",
      data: {
        urn: "urn:review-item:r1",
        caseUrn: "urn:case:c1",
        state: "OPEN" as const,
        version: 3,
        category: "BOOKING_FAILED" as const,
        airport: "JFK",
        priority: "HIGH" as const,
        previousPriority: "HIGH" as const,
        assignedTo: null,
        breachedAt: "2026-11-27T10:00:00.000Z",
        slaDueAt: "2026-11-27T10:15:00.000Z",
      },
    };
    const alert = alertOf(event)!;
    expect(alert).toMatchObject({
      urn: "urn:alert:0b6f1c1e-4d7a-4c57-9d0f-5d1f8a2b3c4d",
      kind: "review-item.sla-breached",
      recipient: { kind: "on-call" },
      entityUrn: "urn:review-item:r1",
      caseUrn: "urn:case:c1",
      subject: "SLA breached: BOOKING_FAILED review item at JFK, now HIGH",
    });
    expect(alert.text).toContain("unassigned");
    expect(alert.text).toContain("pages again at 2026-11-27T10:15:00.000Z");
    expect(alertOf(event)).toEqual(alert);
  });

  it("tells the airline's partner contacts of a locked PNR, masked as the event gives it", () => {
    const alert = alertOf({
      ...envelope,
      type: "passenger.login-locked",
      data: { pnr: "A****1", ip: "203.0.113.9", attempts: 10, lockedUntil: "2026-11-28T09:00:00.000Z" },
    })!;
    expect(alert).toMatchObject({
      recipient: { kind: "partners" },
      subject: "PNR login locked: booking A****1",
    });
    expect(alert.text).toContain("until 2026-11-28T09:00:00.000Z");
  });

  it("tells only the paused registration's contact of its paused webhook", () => {
    const alert = alertOf({
      ...envelope,
      type: "webhook.subscription-paused",
      data: {
        clientId: "skyhub-zx",
        partnerUrn: "urn:partner:skyhub",
        url: "https://h.example/in",
        eventUrn: "urn:event:e",
      },
    });
    expect(alert).toMatchObject({
      recipient: { kind: "partner", clientId: "skyhub-zx" },
      entityUrn: "urn:partner:skyhub",
    });
  });

  it("pages on-call when wallet issuance is paused", () => {
    const alert = alertOf({
      ...envelope,
      type: "wallet.issuance-paused",
      data: {
        tenant: "urn:airline:ZX",
        vendor: "wallet-sim",
        vendorErrorCode: "HTTP_401",
        caseUrn: "urn:case:c1",
        groupId: "G1",
      },
    });
    expect(alert).toMatchObject({
      recipient: { kind: "on-call" },
      subject: "Wallet card issuance paused: the issuer answered HTTP_401",
    });
  });

  it("pages on-call for a wallet card's balance or status drift, not for a backfilled transaction alone", () => {
    const card = {
      cardUrn: "urn:wallet-card:w1.1",
      caseUrn: "urn:case:c1",
      groupId: "G1",
      status: "LOADED" as const,
      currency: "USD",
      initialBalance: 4000,
      currentBalance: 800,
      availableBalance: 800,
      version: 4,
    };
    const reconciled = (corrections: Correction[]) =>
      alertOf({ ...envelope, type: "wallet.card-reconciled", data: { ...card, corrections } });
    expect(
      reconciled([{ kind: "missing-transaction", eventId: "e1", type: "CAPTURE", amount: 200 }]),
    ).toBeUndefined();
    const alert = reconciled([
      { kind: "missing-transaction", eventId: "e1", type: "CAPTURE", amount: 200 },
      { kind: "balance", field: "currentBalance", local: 1000, issuer: 800 },
    ])!;
    expect(alert).toMatchObject({
      recipient: { kind: "on-call" },
      entityUrn: "urn:wallet-card:w1.1",
      data: { corrections: [{ kind: "balance", field: "currentBalance", local: 1000, issuer: 800 }] },
    });
    expect(alert.text).toContain("currentBalance was 1000, the issuer says 800");
  });
});
