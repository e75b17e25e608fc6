/**
 * Alerting (spec 3.5, 6.1, 7, 8.1): an SLA breach pages the tenant's on-call through its webhook
 * (signed) and e-mail, once per breach however often the event comes; a PNR-login hard limit
 * e-mails the partner contact once per lockout window; a paused wallet issuance alerts on-call.
 * The demo airline's on-call e-mail and the partners' contacts land in the embedded SMTP sink.
 */
import { openOneGroupCase, requestReviewItem } from "../support/review-case.js";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WalletIssuerSimulator } from "../../services/vendor-sim/wallet-issuer.js";
import { SmtpSink, type SunkMessage } from "../../services/notifications/smtp-sink.js";
import type { AuditEntry } from "../../src/app/audit-entry.js";
import { IssueWalletCard } from "../../src/app/wallet/issue-wallet-card.js";
import { WalletIssuancePause } from "../../src/app/wallet/wallet-issuance-pause.js";
import { WalletReconciliation } from "../../src/app/wallet/wallet-reconciliation.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import type { PassengerIdentity } from "../../src/passenger-identity/passenger-identity.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { recordEvents } from "../support/event-recorder.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { opensslSignature, startWebhookReceiver } from "../support/webhook-receiver.js";

const ZX = "urn:airline:ZX";
const MINUTE = 60_000;

const clock = new ManualClock(Date.now());
let t: TestPlatform;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let sink: SmtpSink;
let supervisor: string;
const breaches: DomainEvent[] = [];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestPlatform({
    clock,
    env: { DEMO_ALERT_WEBHOOK_URL: receiver.url, DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" },
  });
  sink = t.platform.container.resolve(SmtpSink);
  supervisor = await t.operatorToken("supervisor@zx.demo");
  recordEvents(
    t.platform.runtime.bus,
    { name: "test.breaches", topic: topicFor({ tenant: ZX }), types: ["review-item.sla-breached"] },
    breaches,
  );
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** The airline's `alert.raised` entries whose `after` has every field of `after`. */
const alertAudit = async (after: Record<string, unknown>, entityUrn?: string): Promise<AuditEntry[]> =>
  (
    await t.platform.audit.query({
      tenant: ZX,
      action: "alert.raised",
      limit: 500,
      ...(entityUrn ? { entityUrn } : {}),
    })
  ).items.filter((e) =>
    Object.entries(after).every(([key, value]) => (e.after as Record<string, unknown>)[key] === value),
  );
const mailsTo = async (address: string, subject: string): Promise<SunkMessage[]> =>
  (await sink.messages()).filter((m) => m.envelope.to.includes(address) && m.subject.includes(subject));

const openCase = () => openOneGroupCase(t, supervisor, "alert");
const requestItem = (caseUrn: string) => requestReviewItem(t, caseUrn, "PAYMENT_FAILED", clock.now());

describe("SLA breach paging (spec 3.5)", () => {
  it("pages on-call once per breach through the signed webhook and e-mail, and audits it", async () => {
    const caseUrn = await openCase();
    const item = await requestItem(caseUrn);
    await clock.advance(59 * MINUTE);
    expect(receiver.ofType("alert.raised")).toHaveLength(0);

    await clock.advance(1 * MINUTE);
    await expect.poll(() => receiver.ofType("alert.raised").length).toBe(1);
    const page = receiver.ofType("alert.raised")[0]!;
    expect(page.body).toMatchObject({
      type: "alert.raised",
      kind: "review-item.sla-breached",
      tenant: ZX,
      case_urn: caseUrn,
      data: { reviewItemUrn: item, category: "PAYMENT_FAILED", previousPriority: "MEDIUM", priority: "HIGH" },
    });
    const alertUrn = (page.body as unknown as { alert_urn: string }).alert_urn;
    expect(alertUrn).toMatch(/^urn:alert:/);
    expect(page.headers["x-svc-event-urn"]).toBe(alertUrn);
    const timestamp = String(page.headers["x-svc-signature-timestamp"]);
    expect(page.headers["x-svc-signature"]).toBe(
      opensslSignature("demo-alerting-zx", timestamp, page.rawBody),
    );

    const mail = await sink.waitFor(
      (m) => m.envelope.to.includes("oncall@zx.demo") && m.notificationUrn === alertUrn,
    );
    expect(mail.subject).toBe("SLA breached: PAYMENT_FAILED review item at JFK, now HIGH");
    expect(mail.text).toContain(item);

    await expect.poll(async () => (await alertAudit({}, item)).length).toBe(1);
    expect((await alertAudit({}, item))[0]).toMatchObject({
      actorUrn: "urn:system:alerting",
      caseUrn,
      after: {
        alertUrn,
        kind: "review-item.sla-breached",
        recipient: "on-call",
        sentTo: [`webhook:${receiver.url}`, "email:oncall@zx.demo"],
      },
    });

    // The bus brings the breach again (at least once): nothing is sent or audited twice.
    const breach = breaches.find((e) => (e.data as { urn: string }).urn === item)!;
    await t.platform.runtime.bus.publish(topicFor({ tenant: ZX }), breach);
    const marker = await requestItem(caseUrn);
    await clock.advance(60 * MINUTE);
    // The next breaches (the item's second, at HIGH, and the marker's first) are pages of their own.
    await expect
      .poll(() => receiver.ofType("alert.raised").filter((r) => r.body.data.reviewItemUrn === marker).length)
      .toBe(1);
    expect(
      receiver.ofType("alert.raised").filter((r) => r.headers["x-svc-event-urn"] === alertUrn),
    ).toHaveLength(1);
    expect((await sink.messages()).filter((m) => m.notificationUrn === alertUrn)).toHaveLength(1);
    expect(await alertAudit({ alertUrn })).toHaveLength(1);
  });
});

describe("PNR-login hard limit (spec 8.1)", () => {
  it("alerts the partner contacts of the airline once per lockout window", async () => {
    const passengers = t.platform.container.resolve<PassengerIdentity>(TOKENS.passengers);
    const attempt = (n: number) =>
      passengers.login
        .login({ tenant: ZX, pnr: "LOCKME", lastName: "Nobody", captcha: "", ip: `203.0.113.${n % 5}` })
        .then(
          () => 200,
          (error: { status?: number }) => error.status,
        );
    for (let n = 0; n < 10; n++) expect(await attempt(n)).toBe(400);
    expect(await attempt(10)).toBe(429);
    const mail = await sink.waitFor(
      (m) =>
        m.envelope.to.includes("integrations@skyhub.demo") &&
        m.subject === "PNR login locked: booking L****E",
    );
    expect(mail.text).toContain("10 login attempts");
    expect(await attempt(11)).toBe(429);
    await expect.poll(async () => (await alertAudit({ kind: "passenger.login-locked" })).length).toBe(1);
    expect(await mailsTo("integrations@skyhub.demo", "PNR login locked")).toHaveLength(1);
    // Vesper Airways' partner hears nothing of Zephyr Air's passengers.
    expect(await mailsTo("ops@tripdesk.demo", "PNR login locked")).toHaveLength(0);
  });
});

describe("wallet issuance paused (spec 7)", () => {
  it("alerts on-call once when the issuer refuses the airline's credentials, however many issues it refused", async () => {
    t.platform.container.resolve(WalletIssuerSimulator).failNext("forbidden", 2);
    const issue = (groupId: string) =>
      t.platform.container.resolve(IssueWalletCard).issueWalletCard({
        tenant: ZX,
        caseUrn: "urn:case:7d0c2a8e-51d4-4c52-9c8a-3f6f1b0c9e12",
        groupId,
        airport: "JFK",
        amount: 4_000,
        currency: "USD",
        scheduledDrops: false,
        requestedBy: "urn:system:test",
        correlationUrn: "urn:trace:alerting-wallet",
      });
    // Two issues refused at once: issuance is paused once, and on-call hears of it once.
    expect(await Promise.all([issue("G-ALERT-1"), issue("G-ALERT-2")])).toEqual([
      { outcome: "paused", vendorErrorCode: "HTTP_403" },
      { outcome: "paused", vendorErrorCode: "HTTP_403" },
    ]);
    const mail = await sink.waitFor(
      (m) => m.envelope.to.includes("oncall@zx.demo") && m.subject.startsWith("Wallet card issuance paused"),
    );
    expect(mail.subject).toBe("Wallet card issuance paused: the issuer answered HTTP_403");
    const walletPages = () =>
      receiver
        .ofType("alert.raised")
        .filter((r) => (r.body as unknown as { kind: string }).kind === "wallet.issuance-paused");
    await expect.poll(() => walletPages().length).toBe(1);
    await expect.poll(async () => (await alertAudit({ kind: "wallet.issuance-paused" })).length).toBe(1);
    expect(await mailsTo("oncall@zx.demo", "Wallet card issuance paused")).toHaveLength(1);
    const pauses = await t.platform.audit.query({ tenant: ZX, action: "wallet.issuance-pause", limit: 10 });
    expect(pauses.items).toHaveLength(1);
    await t.platform.container.resolve(WalletIssuancePause).resume(ZX);
  });
});

describe("wallet reconciliation drift (spec 6.3)", () => {
  it("alerts on-call of a card the issuer cancelled behind the service's back", async () => {
    const outcome = await t.platform.container.resolve(IssueWalletCard).issueWalletCard({
      tenant: ZX,
      caseUrn: "urn:case:7d0c2a8e-51d4-4c52-9c8a-3f6f1b0c9e13",
      groupId: "G-DRIFT",
      airport: "JFK",
      amount: 4_000,
      currency: "USD",
      scheduledDrops: false,
      requestedBy: "urn:system:test",
      correlationUrn: "urn:trace:alerting-drift",
    });
    if (outcome.outcome !== "issued") throw new Error(`not issued: ${JSON.stringify(outcome)}`);
    t.platform.container.resolve(WalletIssuerSimulator).cancelQuietly(outcome.card.issuerCardId);
    await t.platform.container.resolve(WalletReconciliation).reconcile(ZX, "urn:trace:alerting-reconcile");
    const mail = await sink.waitFor(
      (m) => m.envelope.to.includes("oncall@zx.demo") && m.subject.includes(outcome.card.urn),
    );
    expect(mail.text).toContain("status was LOADED, the issuer says CANCELLED");
  });
});

describe("webhook subscription paused (spec 6.1)", () => {
  it("tells that registration's partner contact", async () => {
    await t.platform.runtime.bus.publish(topicFor({ tenant: ZX }), {
      id: `urn:event:${randomUUID()}`,
      type: "webhook.subscription-paused",
      tenant: ZX,
      occurredAt: new Date(clock.now()).toISOString(),
      correlationUrn: "urn:trace:alerting-webhook",
      data: {
        clientId: "skyhub-zx",
        partnerUrn: "urn:partner:skyhub",
        url: "https://hooks.skyhub.example/in",
        eventUrn: "urn:event:down",
      },
    });
    const mail = await sink.waitFor(
      (m) =>
        m.envelope.to.includes("integrations@skyhub.demo") &&
        m.subject.startsWith("Webhook subscription paused"),
    );
    expect(mail.text).toContain("POST /partner/v1/webhooks/test");
    await expect
      .poll(
        async () => (await alertAudit({ kind: "webhook.subscription-paused" }, "urn:partner:skyhub")).length,
      )
      .toBe(1);
  });
});
