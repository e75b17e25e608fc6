import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { topicFor } from "../../src/domain/domain-event.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { recordEvents } from "../support/event-recorder.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";
import {
  opensslSignature,
  type ReceivedWebhook,
  signaturesOf,
  startWebhookReceiver,
} from "../support/webhook-receiver.js";
import { push, ZX } from "./cases-fixtures.js";

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

let t: TestPlatform;
let skyhub: Receiver;
let regulator: Receiver;
let tripdesk: Receiver;
let tokens: Record<string, string>;
let skyhubSecret: string;
let onTheBus: DomainEvent[];

/** Waits (polling, no fixed sleep) until `receiver` holds a delivery matching `match`. */
async function delivered(
  receiver: Receiver,
  match: (r: ReceivedWebhook) => boolean,
): Promise<ReceivedWebhook> {
  return vi.waitFor(
    () => {
      const found = receiver.received.find(match);
      if (!found) throw new Error("not delivered yet");
      return found;
    },
    { timeout: 5_000, interval: 20 },
  );
}

beforeAll(async () => {
  // No demand on intake: a pushed disruption raises case.opened and the sub-cases' opening only.
  t = await startTestPlatform({ env: { DEMAND_ON_INTAKE: "off" } });
  [skyhub, regulator, tripdesk] = await Promise.all([
    startWebhookReceiver(),
    startWebhookReceiver(),
    startWebhookReceiver(),
  ]);
  tokens = {
    skyhub: await t.partnerToken("skyhub-zx"),
    regulator: await t.partnerToken("regulator-zx"),
    tripdesk: await t.partnerToken("tripdesk-vq"),
    admin: await t.operatorToken("admin@zx.demo"),
    supervisor: await t.operatorToken("supervisor@zx.demo"),
  };
  onTheBus = recordEvents(t.platform.runtime.bus, {
    name: "test.webhooks.zx",
    topic: topicFor({ tenant: ZX }),
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([skyhub?.close(), regulator?.close(), tripdesk?.close()]);
});

describe("PUT /partner/v1/webhooks", () => {
  it("registers the endpoint with every type the scopes allow and answers the secret once (201)", async () => {
    const created = await json(
      await t.call("PUT", "/partner/v1/webhooks", tokens.skyhub, { url: skyhub.url }),
      201,
    );
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({ clientId: "skyhub-zx", status: "ACTIVE", url: skyhub.url });
    expect(created.eventTypes).toEqual(
      expect.arrayContaining(["case.opened", "subcase.offer-ready", "voucher.issued"]),
    );
    skyhubSecret = created.secret;

    const read = await json(await t.call("GET", "/partner/v1/webhooks", tokens.skyhub), 200);
    expect(read).not.toHaveProperty("secret");
    expect(JSON.stringify(read)).not.toContain(skyhubSecret);
    expect(read).toMatchObject({ status: "ACTIVE", deliveries: 0, failures: 0, recentAttempts: [] });

    // Replacing keeps the secret and answers 200 without it.
    const replaced = await json(
      await t.call("PUT", "/partner/v1/webhooks", tokens.skyhub, { url: skyhub.url }),
      200,
    );
    expect(replaced).not.toHaveProperty("secret");
  });

  it("refuses an event type the registration's scopes do not allow (403)", async () => {
    const response = await t.call("PUT", "/partner/v1/webhooks", tokens.regulator, {
      url: regulator.url,
      eventTypes: ["case.opened", "voucher.issued"],
    });
    const problem = await json(response, 403);
    expect(problem.code ?? problem.type).toContain("event-type-not-in-scope");
    await json(
      await t.call("PUT", "/partner/v1/webhooks", tokens.regulator, {
        url: regulator.url,
        eventTypes: ["case.opened"],
      }),
      201,
    );
    await json(await t.call("PUT", "/partner/v1/webhooks", tokens.tripdesk, { url: tripdesk.url }), 201);
  });

  it.each([
    ["plain http to a public host", "http://example.com/hooks"],
    ["a private address", "https://10.1.2.3/hooks"],
    ["a carrier-grade NAT address", "https://100.64.0.1/hooks"],
    ["the metadata address", "https://169.254.169.254/latest/meta-data"],
    ["a link-local address", "https://169.254.10.10/hooks"],
    ["a unique-local IPv6 address", "https://[fd00::1]/hooks"],
    ["an IPv4-mapped private address", "https://[::ffff:192.168.1.1]/hooks"],
    ["a metadata host name", "https://metadata.google.internal/computeMetadata"],
    ["a URL with credentials", "https://user:pass@example.com/hooks"],
  ])("refuses %s (422, SSRF)", async (_, url) => {
    const problem = await json(await t.call("PUT", "/partner/v1/webhooks", tokens.skyhub, { url }), 422);
    expect(JSON.stringify(problem)).toMatch(/webhook-url/);
  });

  it("is for partners with an event scope: an operator token is refused (403); the registration is audited against the partner", async () => {
    await json(await t.call("GET", "/partner/v1/webhooks", tokens.supervisor), 403);
    expect(
      await t.platform.audit.has({ tenant: ZX, action: "webhook.register", actorUrn: "urn:partner:skyhub" }),
    ).toBe(true);
  });
});

describe("deliveries", () => {
  let opened: ReceivedWebhook;

  it("POSTs a pushed disruption's case.opened with the 6.1 headers, signed as openssl computes it", async () => {
    const accepted = await json(
      await t.call("POST", "/partner/v1/disruptions", tokens.skyhub, push("evt-webhook-1")),
      202,
    );
    opened = await delivered(
      skyhub,
      (r) => r.body.type === "case.opened" && r.body.case_urn === accepted.caseUrn,
    );
    const { headers } = opened;
    expect(headers["user-agent"]).toMatch(/^[\w-]+\/\d+\.\d+/);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["x-svc-event-type"]).toBe("case.opened");
    expect(headers["x-svc-event-urn"]).toMatch(/^urn:event:/);
    expect(headers["x-svc-tenant"]).toBe(ZX);
    expect(headers["x-svc-correlation"]).toBe(accepted.correlationUrn);
    const timestamp = String(headers["x-svc-signature-timestamp"]);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect(signaturesOf(opened)).toEqual([opensslSignature(skyhubSecret, timestamp, opened.rawBody)]);
    expect(opened.body).toEqual({
      type: "case.opened",
      occurred_at: expect.any(String),
      tenant: ZX,
      case_urn: accepted.caseUrn,
      correlation_urn: accepted.correlationUrn,
      data: expect.objectContaining({ caseUrn: accepted.caseUrn, passengerCount: 3 }),
    });
    // No personal data: the manifest (names, contacts) stays out of the event.
    expect(opened.rawBody).not.toContain("Smith");
    expect(opened.rawBody).not.toContain("s@example.com");
  });

  it("reaches every subscribed registration of the tenant, within its scopes, and no other tenant's", async () => {
    const regulatorCopy = await delivered(regulator, (r) => r.body.type === "case.opened");
    expect(regulatorCopy.headers["x-svc-event-urn"]).toBe(opened.headers["x-svc-event-urn"]);
    // The sub-cases' opening is internal: nobody receives it; the regulator took case.opened only.
    expect(regulator.received.every((r) => r.body.type === "case.opened")).toBe(true);
    expect(skyhub.received.some((r) => r.body.type.startsWith("subcase.opened"))).toBe(false);
    expect(tripdesk.received.filter((r) => r.body.tenant === ZX)).toEqual([]);
  });

  it("signs with both secrets during a rotation's window, the new one first", async () => {
    const rotated = await json(
      await t.call("POST", "/partner/v1/webhooks/secret/rotate", tokens.skyhub),
      200,
    );
    expect(rotated.secret).not.toBe(skyhubSecret);
    expect(Date.parse(rotated.previousSecretAcceptedUntil) - Date.now()).toBeGreaterThan(
      13.9 * 24 * 3600_000,
    );
    const test = await json(await t.call("POST", "/partner/v1/webhooks/test", tokens.skyhub), 200);
    expect(test).toMatchObject({ delivered: true, status: 200, subscriptionStatus: "ACTIVE" });
    const received = await delivered(skyhub, (r) => r.headers["x-svc-event-urn"] === test.eventUrn);
    expect(received.body).toMatchObject({ type: "webhook.test", tenant: ZX });
    const timestamp = String(received.headers["x-svc-signature-timestamp"]);
    expect(signaturesOf(received)).toEqual([
      opensslSignature(rotated.secret, timestamp, received.rawBody),
      opensslSignature(skyhubSecret, timestamp, received.rawBody),
    ]);
    skyhubSecret = rotated.secret;
  });

  it("replays events to the registered URL with their URNs, publishing nothing again", async () => {
    const eventUrn = String(opened.headers["x-svc-event-urn"]);
    const before = onTheBus.length;
    const copies = () => skyhub.received.filter((r) => r.headers["x-svc-event-urn"] === eventUrn).length;
    const first = copies();
    const replay = await json(
      await t.call("GET", `/partner/v1/events/replay?since=${eventUrn}&until=${eventUrn}`, tokens.skyhub),
      200,
    );
    expect(replay).toMatchObject({ count: 1, eventUrns: [eventUrn] });
    await vi.waitFor(() => expect(copies()).toBe(first + 1), { timeout: 5_000, interval: 20 });
    expect(onTheBus.length).toBe(before);
  });

  it("refuses to replay another tenant's event (404)", async () => {
    const eventUrn = String(opened.headers["x-svc-event-urn"]);
    await json(
      await t.call("GET", `/partner/v1/events/replay?since=${eventUrn}&until=${eventUrn}`, tokens.tripdesk),
      404,
    );
  });

  it("shows the airline's webhooks and their health to its ADMIN only", async () => {
    const health = await json(await t.call("GET", "/v1/admin/webhooks", tokens.admin), 200);
    const mine = health.items.find((i: { clientId: string }) => i.clientId === "skyhub-zx");
    expect(mine).toMatchObject({ status: "ACTIVE", failures: 0 });
    expect(mine.deliveries).toBeGreaterThanOrEqual(3);
    expect(mine.p95LatencyMs).toEqual(expect.any(Number));
    expect(JSON.stringify(health)).not.toContain(skyhubSecret);
    expect(health.items.map((i: { clientId: string }) => i.clientId)).not.toContain("tripdesk-vq");
    await json(await t.call("GET", "/v1/admin/webhooks", tokens.supervisor), 403);
    const partnerRead = await json(await t.call("GET", "/partner/v1/webhooks", tokens.skyhub), 200);
    expect(partnerRead.recentAttempts.length).toBeGreaterThan(0);
  });
});

describe("the API documents", () => {
  it("list the partner webhook routes on the partner surface and the health read on the operator one", async () => {
    const partner = await json(await t.call("GET", "/openapi/partner/v1.json"), 200);
    const operator = await json(await t.call("GET", "/openapi/operator/v1.json"), 200);
    expect(Object.keys(partner.paths)).toEqual(
      expect.arrayContaining([
        "/partner/v1/webhooks",
        "/partner/v1/webhooks/test",
        "/partner/v1/webhooks/secret/rotate",
        "/partner/v1/events/replay",
      ]),
    );
    expect(Object.keys(partner.paths["/partner/v1/webhooks"])).toEqual(
      expect.arrayContaining(["put", "get"]),
    );
    expect(Object.keys(operator.paths)).toContain("/v1/admin/webhooks");
  });
});
