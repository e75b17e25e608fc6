import { describe, expect, it } from "vitest";
import { WAVES_COLLECTION } from "../../src/app/allocation/wave-documents.js";
import { RESERVATIONS_COLLECTION } from "../../src/app/booking/reservation-index.js";
import { COLLECTIONS } from "../../src/app/cases/case-documents.js";
import { PartnerMetrics } from "../../src/app/metrics/partner-metrics.js";
import { WebhookDeliveryTimes } from "../../src/app/metrics/webhook-delivery-times.js";
import type { Directory } from "../../src/app/directory.js";
import { WEBHOOK_COLLECTIONS } from "../../src/app/webhooks/webhook-documents.js";
import { demoPartnerRegistrations } from "../../src/demo/demo-partners.js";
import type { PartnerPrincipal } from "../../src/app/principals.js";
import { share } from "../../src/domain/kpi-catalog.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";

const ZX = "urn:airline:ZX";
const partner = (tier: 1 | 2 | 3): PartnerPrincipal => ({
  surface: "partner",
  actorUrn: "urn:partner:aero-regulator",
  clientId: "regulator-zx",
  tenant: ZX,
  scopes: new Set(["metrics.read"]),
  tier,
  expiresAt: Date.now() + 3_600_000,
});
const window = { from: "2026-11-20T00:00:00.000Z", to: "2026-11-21T00:00:00.000Z" };

async function platformWith(
  webhooks: Pick<WebhookDeliveryTimes, "deliveries"> = { deliveries: async () => [] },
) {
  const documents = new MemoryDocumentStore();
  const cases = documents.collection<any>(COLLECTIONS.cases);
  for (const [urn, tenant, openedAt] of [
    ["urn:case:a", ZX, "2026-11-20T10:00:00.000Z"],
    ["urn:case:b", ZX, "2026-11-20T11:00:00.000Z"],
    ["urn:case:late", ZX, "2026-11-22T11:00:00.000Z"],
    ["urn:case:vq", "urn:airline:VQ", "2026-11-20T11:00:00.000Z"],
  ] as const) {
    await cases.put({ _id: urn, urn, tenant, openedAt });
  }
  const metrics = new PartnerMetrics(
    documents,
    webhooks,
    new ManualClock(Date.parse("2026-11-21T12:00:00Z")),
  );
  return { documents, metrics };
}

function reservation(id: string, caseUrn: string, groupId: string, fields: Record<string, unknown>) {
  return {
    _id: id,
    tenant: ZX,
    caseUrn,
    groupId,
    status: "CONFIRMED",
    source: "wave",
    cost: { amountMinor: 20_000, currency: "USD" },
    guests: [{ passengerId: `${groupId}-1`, name: "A" }],
    ...fields,
  };
}

describe("KPI shares", () => {
  it("answers no share of nothing", () => {
    expect(share(1, 3)).toBe(0.3333);
    expect(share(0, 0)).toBeUndefined();
  });
});

describe("PartnerMetrics", () => {
  it("counts a group moved by an operator as booked with one, and only the window's cases of the tenant", async () => {
    const { documents, metrics } = await platformWith();
    const reservations = documents.collection<any>(RESERVATIONS_COLLECTION);
    await reservations.put(reservation("r1", "urn:case:a", "G1", {}));
    await reservations.put(reservation("r2", "urn:case:a", "G2", { status: "CANCELLED" }));
    await reservations.put(reservation("r3", "urn:case:a", "G2", { source: "override" }));
    await reservations.put(reservation("r4", "urn:case:b", "G3", { source: "manual" }));
    await reservations.put(reservation("r5", "urn:case:late", "G4", {}));
    await reservations.put({ ...reservation("r6", "urn:case:vq", "G5", {}), tenant: "urn:airline:VQ" });
    const measured = await metrics.measure(
      partner(2),
      "groups-booked-without-operator",
      window.from,
      window.to,
    );
    expect(measured).toMatchObject({ value: 0.3333, sampleSize: 3, tenant: ZX, ...window });
  });

  it("gives money per currency, and a single value only when there is one currency", async () => {
    const { documents, metrics } = await platformWith();
    const reservations = documents.collection<any>(RESERVATIONS_COLLECTION);
    await reservations.put(
      reservation("r1", "urn:case:a", "G1", {
        guests: [
          { passengerId: "p1", name: "A" },
          { passengerId: "p2", name: "B" },
        ],
        cost: { amountMinor: 25_001, currency: "USD" },
      }),
    );
    expect(await metrics.measure(partner(2), "cost-per-passenger", window.from, window.to)).toMatchObject({
      value: 125.01,
      currency: "USD",
      sampleSize: 2,
      reason: null,
    });
    await reservations.put(
      reservation("r2", "urn:case:b", "G2", { cost: { amountMinor: 9_000, currency: "EUR" } }),
    );
    expect(await metrics.measure(partner(2), "cost-per-passenger", window.from, window.to)).toMatchObject({
      value: null,
      currency: null,
      sampleSize: 3,
      reason: "several currencies (USD, EUR): see breakdown",
      breakdown: { USD: { value: 125.01, sampleSize: 2 }, EUR: { value: 90, sampleSize: 1 } },
    });
  });

  it("sums the savings of each case's latest wave", async () => {
    const { documents, metrics } = await platformWith();
    const waves = documents.collection<any>(WAVES_COLLECTION);
    const wave = (id: string, caseUrn: string, sequence: number, amountMinor: number) => ({
      _id: id,
      tenant: ZX,
      caseUrn,
      sequence,
      savingsVsMarket: { amountMinor, currency: "USD" },
    });
    await waves.put(wave("w1", "urn:case:a", 1, 5_000));
    await waves.put(wave("w2", "urn:case:a", 2, 1_500));
    await waves.put(wave("w3", "urn:case:b", 1, 250));
    expect(
      await metrics.measure(partner(2), "savings-vs-market-direct-contracts", window.from, window.to),
    ).toMatchObject({ value: 17.5, currency: "USD", sampleSize: 2 });
  });

  it("reports webhook delivery p95 per tier, and the caller's tier as the value, as delivered", async () => {
    const deliveries = [
      ...Array.from({ length: 20 }, (_, i) => ({ tier: 1 as const, durationMs: (i + 1) * 100 })),
      { tier: 2 as const, durationMs: 12_000 },
    ];
    const { metrics } = await platformWith({ deliveries: async () => deliveries });
    expect(await metrics.measure(partner(1), "webhook-delivery-p95", window.from, window.to)).toMatchObject({
      value: 1.9,
      sampleSize: 20,
      reason: null,
      breakdown: {
        "tier-1": { value: 1.9, sampleSize: 20 },
        "tier-2": { value: 12, sampleSize: 1 },
        "tier-3": { value: null, sampleSize: 0 },
      },
    });
    expect(await metrics.measure(partner(3), "webhook-delivery-p95", window.from, window.to)).toMatchObject({
      value: null,
      reason: "no webhook delivery to a Tier-3 registration in the window",
    });
  });
});

describe("WebhookDeliveryTimes", () => {
  it("times each delivered event from its occurrence to the end of the attempt that delivered it, with the tier", async () => {
    const documents = new MemoryDocumentStore();
    const events = documents.collection<any>(WEBHOOK_COLLECTIONS.events);
    const attempts = documents.collection<any>(WEBHOOK_COLLECTIONS.attempts);
    const at = Date.parse("2026-11-20T10:00:00Z");
    await events.put({ _id: "urn:event:1", tenant: ZX, type: "case.opened", occurredAtMs: at });
    await events.put({
      _id: "urn:event:late",
      tenant: ZX,
      type: "case.opened",
      occurredAtMs: at + 2 * 86_400_000,
    });
    const attempt = (
      id: string,
      clientId: string,
      eventUrn: string,
      delivered: boolean,
      offsetMs: number,
    ) => ({
      _id: id,
      clientId,
      tenant: ZX,
      eventUrn,
      delivered,
      at: at + offsetMs,
      latencyMs: 250,
    });
    await attempts.put(attempt("a1", "skyhub-zx", "urn:event:1", false, 1_000));
    await attempts.put(attempt("a2", "skyhub-zx", "urn:event:1", true, 61_000));
    await attempts.put(attempt("a3", "regulator-zx", "urn:event:1", true, 2_000));
    await attempts.put(attempt("a4", "skyhub-zx", "urn:event:late", true, 2_000));
    await attempts.put(attempt("a5", "gone-registration", "urn:event:1", true, 2_000));
    const directory = {
      partnerRegistrations: async () => demoPartnerRegistrations(Date.now()),
    } as unknown as Directory;
    const times = await new WebhookDeliveryTimes(documents, directory).deliveries(ZX, window);
    expect(times.sort((a, b) => a.tier - b.tier)).toEqual([
      { tier: 1, durationMs: 61_250 },
      { tier: 2, durationMs: 2_250 },
    ]);
  });
});
