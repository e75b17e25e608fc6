import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { WebhookDispatcher } from "../../src/app/webhooks/webhook-dispatcher.js";
import { hmacSignature, verifyHmacSignature } from "../../src/domain/hmac-signature.js";
import {
  isDelivered,
  nextAttemptAt,
  WEBHOOK_MAX_ATTEMPTS,
} from "../../src/domain/webhooks/retry-schedule.js";
import { addressKind, parseWebhookUrl } from "../../src/domain/webhooks/webhook-address.js";
import { webhookData } from "../../src/domain/webhooks/webhook-payload.js";
import { chooseEventTypes, eventTypesAllowed } from "../../src/domain/webhooks/webhook-subscription.js";
import type { EventOf } from "../../src/domain/events/catalogue.js";
import { deferred } from "../support/deferred.js";

const MINUTE = 60_000;

describe("the retry schedule (spec 6.1)", () => {
  it("counts +1 min, +5 min, +30 min, +2 h, +6 h, +24 h from the first attempt, 7 attempts in all", () => {
    const first = Date.parse("2026-11-27T08:00:00Z");
    const due = [1, 2, 3, 4, 5, 6].map((attempt) => (nextAttemptAt(first, attempt)! - first) / MINUTE);
    expect(due).toEqual([1, 5, 30, 120, 360, 1440]);
    expect(nextAttemptAt(first, WEBHOOK_MAX_ATTEMPTS)).toBeUndefined();
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(7);
  });

  it("counts only a 2xx as delivered", () => {
    expect([200, 201, 204, 299].every((status) => isDelivered(status))).toBe(true);
    expect([undefined, 199, 301, 302, 400, 410, 500, 503].some((status) => isDelivered(status))).toBe(false);
  });
});

describe("webhook addresses (SSRF)", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["203.0.113.10", "public"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.32.0.1", "public"],
    ["192.168.0.1", "private"],
    ["100.64.0.1", "private"],
    ["169.254.169.254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "private"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fd00::1", "private"],
    ["fd00:ec2::254", "metadata"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:127.0.0.1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["2001:4860:4860::8888", "public"],
    ["not-an-address", "private"],
  ])("takes %s for %s", (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it("takes https, and http only to loopback hosts when allowed", () => {
    const allowed = { allowLoopback: true };
    const refused = { allowLoopback: false };
    expect(parseWebhookUrl("https://hooks.example.com/in", refused).href).toBe(
      "https://hooks.example.com/in",
    );
    expect(parseWebhookUrl("http://127.0.0.1:9000/in", allowed).host).toBe("127.0.0.1:9000");
    expect(parseWebhookUrl("http://localhost:9000/in", allowed).host).toBe("localhost:9000");
    expect(() => parseWebhookUrl("http://127.0.0.1:9000/in", refused)).toThrow(/https only/);
    expect(() => parseWebhookUrl("https://localhost/in", refused)).toThrow(/loopback/);
    expect(() => parseWebhookUrl("http://hooks.example.com/in", allowed)).toThrow(/https only/);
    expect(() => parseWebhookUrl("ftp://hooks.example.com/in", allowed)).toThrow(/https only/);
    // Odd IPv4 spellings are normalised by the URL parser before the check.
    expect(() => parseWebhookUrl("https://0x7f.1/in", refused)).toThrow(/loopback/);
    expect(() => parseWebhookUrl("https://2852039166/in", refused)).toThrow(/metadata/);
    expect(() => parseWebhookUrl("not a url", allowed)).toThrow(/absolute URL/);
  });
});

describe("webhook signatures", () => {
  const body = '{"type":"case.opened"}';
  const now = Date.parse("2026-11-27T12:00:00Z");
  const timestamp = String(now / 1000);

  it("match what openssl computes: base64 HMAC-SHA256 over timestamp.body", () => {
    const openssl = execFileSync("openssl", ["dgst", "-sha256", "-hmac", "whsec_test", "-binary"], {
      input: `${timestamp}.${body}`,
    }).toString("base64");
    expect(hmacSignature("whsec_test", timestamp, body)).toBe(`sha256=${openssl}`);
  });

  it("verify when one of several signatures is the secret's (a rotation's window)", () => {
    const header = `${hmacSignature("new", timestamp, body)},${hmacSignature("old", timestamp, body)}`;
    expect(verifyHmacSignature("old", header, timestamp, body, now)).toBe(true);
    expect(verifyHmacSignature("new", header, timestamp, body, now)).toBe(true);
    expect(verifyHmacSignature("other", header, timestamp, body, now)).toBe(false);
  });

  it("refuse a timestamp more than 5 minutes off, either way", () => {
    for (const skew of [-301, 301]) {
      const stale = String(now / 1000 + skew);
      expect(verifyHmacSignature("s", hmacSignature("s", stale, body), stale, body, now)).toBe(false);
    }
    for (const skew of [-300, 300]) {
      const fresh = String(now / 1000 + skew);
      expect(verifyHmacSignature("s", hmacSignature("s", fresh, body), fresh, body, now)).toBe(true);
    }
  });
});

describe("event types by scope", () => {
  it("gives each scope its own event types", () => {
    expect(eventTypesAllowed(new Set(["disruptions.events.subscribe"]))).toEqual([
      "case.opened",
      "disruption.detected",
    ]);
    expect(eventTypesAllowed(new Set(["vouchers.read"]))).toEqual(["voucher.issued", "voucher.amended"]);
    expect(eventTypesAllowed(new Set(["wallet.events.subscribe"]))).toEqual([
      "wallet.card-issued",
      "wallet.card-tx",
      "wallet.card-cancelled",
    ]);
    expect(eventTypesAllowed(new Set(["cases.read"]))).toEqual([]);
  });

  it("refuses a type outside the scopes (403), an unknown one (400), and no event scope at all (403)", () => {
    const scopes = new Set(["disruptions.events.subscribe"]);
    expect(() => chooseEventTypes(["voucher.issued"], scopes)).toThrow(
      expect.objectContaining({ kind: "forbidden", code: "event-type-not-in-scope" }),
    );
    expect(() => chooseEventTypes(["case.closed"], scopes)).toThrow(
      expect.objectContaining({ kind: "invalid", code: "unknown-event-type" }),
    );
    expect(() => chooseEventTypes(undefined, new Set(["cases.read"]))).toThrow(
      expect.objectContaining({ kind: "forbidden" }),
    );
    expect(chooseEventTypes(["case.opened", "case.opened"], scopes)).toEqual(["case.opened"]);
  });
});

describe("what partners receive of each event", () => {
  const envelope = {
    id: "urn:event:1",
    tenant: "urn:airline:ZX",
    occurredAt: "2026-11-27T08:00:00Z",
    correlationUrn: "urn:trace:1",
  };

  it("leaves out who holds a sub-case's lock, who cancelled a card and what a voucher change cost", () => {
    const subCase = webhookData({
      ...envelope,
      type: "subcase.offer-ready",
      data: {
        subCaseUrn: "urn:sub-case:1",
        caseUrn: "urn:case:1",
        groupId: "G1",
        tenant: "urn:airline:ZX",
        airport: "JFK",
        status: "OFFER_READY",
        version: 3,
        revision: 3,
        lockedBy: "urn:user:operator",
        lockExpiresAt: null,
        retiredAt: null,
        caseClosedAt: null,
        offer: { reservationUrn: "urn:reservation:1", voucherUrn: "urn:voucher:1", answerBy: null },
        answer: null,
        sagaInstanceId: "saga-1",
        vendorErrorCode: null,
        updatedAt: "2026-11-27T08:00:00Z",
      },
    } as EventOf<"subcase.offer-ready">);
    expect(subCase).toEqual({
      subCaseUrn: "urn:sub-case:1",
      caseUrn: "urn:case:1",
      groupId: "G1",
      status: "OFFER_READY",
      version: 3,
      offer: { reservationUrn: "urn:reservation:1", voucherUrn: "urn:voucher:1", answerBy: null },
      answer: null,
      vendorErrorCode: null,
    });
    const amended = webhookData({
      ...envelope,
      type: "voucher.amended",
      data: {
        voucherUrn: "urn:voucher:1",
        reservationUrn: "urn:reservation:1",
        groupId: "G1",
        passengerUrns: [],
        version: 2,
        changes: [
          { field: "checkOut", before: "2026-11-28", after: "2026-11-29" },
          { field: "cost", before: 100, after: 180 },
        ],
      },
    } as EventOf<"voucher.amended">);
    expect(JSON.stringify(amended)).not.toContain("cost");
    const cancelled = webhookData({
      ...envelope,
      type: "wallet.card-cancelled",
      data: {
        cardUrn: "urn:wallet-card:1",
        reason: "case closed",
        by: "urn:user:admin",
        returnedToPool: 500,
      },
    } as unknown as EventOf<"wallet.card-cancelled">);
    expect(cancelled).toEqual({ cardUrn: "urn:wallet-card:1", reason: "case closed", returnedToPool: 500 });
  });
});

describe("the dispatcher", () => {
  it("runs Tier-1 attempts first when the queue is long, each tier in arrival order", async () => {
    const dispatcher = new WebhookDispatcher();
    const ran: string[] = [];
    const gates = Array.from({ length: 512 }, () => deferred());
    // Fill every slot, so what follows waits in the queue.
    for (const gate of gates) dispatcher.enqueue(3, () => gate.promise);
    for (const [tier, name] of [
      [3, "t3-a"],
      [2, "t2-a"],
      [1, "t1-a"],
      [3, "t3-b"],
      [1, "t1-b"],
    ] as const) {
      dispatcher.enqueue(tier, async () => {
        ran.push(name);
      });
    }
    expect(dispatcher.queued).toBe(5);
    for (const gate of gates) gate.resolve();
    await dispatcher.idle();
    expect(ran).toEqual(["t1-a", "t1-b", "t2-a", "t3-a", "t3-b"]);
  });

  it("drops waiting attempts on shutdown and waits for those under way", async () => {
    const dispatcher = new WebhookDispatcher();
    const gates = Array.from({ length: 512 }, () => deferred());
    let finished = 0;
    for (const gate of gates) dispatcher.enqueue(1, () => gate.promise.then(() => void finished++));
    let waitingRan = false;
    dispatcher.enqueue(1, async () => {
      waitingRan = true;
    });
    const drained = dispatcher.drain();
    for (const gate of gates) gate.resolve();
    await drained;
    expect(finished).toBe(512);
    expect(waitingRan).toBe(false);
  });
});
