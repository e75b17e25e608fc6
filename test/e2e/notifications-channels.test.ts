import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PassengerNotifier } from "../../src/app/notifications/passenger-notifier.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { eventTopic } from "../../src/domain/events/catalogue.js";
import { CALLBACK_HEADERS, callbackSignature } from "../../src/domain/notification-callbacks.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { SmtpSink } from "../../services/notifications/smtp-sink.js";
import {
  DEMO_MESSAGE_PROVIDERS,
  MessageProviderSimulators,
} from "../../services/vendor-sim/message-provider.js";
import { WebSocket } from "ws";
import { REALTIME_PATH } from "../../services/realtime/protocol.js";
import { recordEvents } from "../support/event-recorder.js";
import { ChannelClient } from "./realtime-fixture.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, ZX } from "./cases-fixtures.js";

let t: TestPlatform;
let supervisor: string;
let operator: string;
let notifier: PassengerNotifier;
let providers: MessageProviderSimulators;
let sink: SmtpSink;
let dispatched: DomainEvent[];

beforeAll(async () => {
  t = await startTestPlatform({ env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
  supervisor = await t.operatorToken("supervisor@zx.demo");
  operator = await t.operatorToken("operator@zx.demo");
  notifier = t.platform.container.resolve<PassengerNotifier>(TOKENS.passengerNotifier);
  providers = t.platform.container.resolve(MessageProviderSimulators);
  sink = t.platform.container.resolve(SmtpSink);
  dispatched = recordEvents(t.platform.runtime.bus, {
    name: "test.notifications.dispatched",
    topic: eventTopic("notification.dispatched", ZX),
    types: ["notification.dispatched"],
  });
});
afterAll(async () => {
  await t?.close();
});

let phones = 0;
/** A case whose group ABC123 has a phone (unique per case), an e-mail and `language`. */
async function openCase(name: string, language = "fr") {
  const phone = `+3315550${String(++phones).padStart(4, "0")}`;
  const email = `${name.toLowerCase()}@example.com`;
  const body = declaration(name);
  body.passengerGroups[0]!.passengers[0]!.contact = { email, phone, language };
  const response = await t.call("POST", "/v1/cases", supervisor, body);
  expect(response.status).toBe(201);
  return { caseUrn: (await json(response)).urn as string, phone, email };
}

function notify(
  caseUrn: string,
  dedupeKey: string,
  template: "offer" | "voucher" | "offer-reminder" = "offer",
) {
  return notifier.notify({
    tenant: ZX,
    caseUrn,
    groupId: "ABC123",
    subCaseUrn: subCaseUrnFor(caseUrn, "ABC123"),
    template,
    correlationUrn: "urn:trace:notifications-channels",
    dedupeKey,
    requestedBy: "urn:system:compensation-saga",
  });
}

async function sendLog(caseUrn: string, token = operator) {
  const response = await t.call("GET", `/v1/notifications/case/${encodeURIComponent(caseUrn)}`, token);
  expect(response.status).toBe(200);
  return (await json(response)).items as Record<string, any>[];
}

async function logEntry(caseUrn: string, notificationUrn: string) {
  return (await sendLog(caseUrn)).find((n) => n.notificationUrn === notificationUrn)!;
}

/** Waits (without a fixed sleep) until the log entry satisfies `check`. */
function eventually(caseUrn: string, notificationUrn: string, check: (entry: Record<string, any>) => void) {
  return vi.waitFor(async () => check(await logEntry(caseUrn, notificationUrn)), {
    timeout: 5_000,
    interval: 20,
  });
}

function signedCallback(provider: "sms" | "messaging", body: Record<string, unknown>, secret?: string) {
  const raw = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return fetch(`${t.base}/v1/notifications/callbacks/${provider}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      [CALLBACK_HEADERS.signature]: callbackSignature(
        secret ?? DEMO_MESSAGE_PROVIDERS[provider].callbackSecret,
        timestamp,
        raw,
      ),
      [CALLBACK_HEADERS.timestamp]: timestamp,
      [CALLBACK_HEADERS.eventId]: String(body.eventId),
    },
    body: raw,
  });
}

describe("SMS first, then the messaging app, then e-mail", () => {
  it("sends by SMS in the passenger's language, with the magic link, and applies the provider's delivered callback", async () => {
    const { caseUrn, phone } = await openCase("NOTIFY-SMS-1");
    const receipt = await notify(caseUrn, "saga-sms-1");
    expect(receipt).toMatchObject({ channel: "sms", status: "SENT", replayed: false });

    const sms = providers.sms.sent().find((m) => m.to === phone)!;
    expect(sms.reference).toBe(receipt.notificationUrn);
    expect(sms.text).toContain("Bonjour Rivera, le vol ZX100 au départ de JFK est annulé");
    expect(sms.text).toMatch(/\?token=[\w-]+\.[\w-]+\.[\w-]+/);

    await eventually(caseUrn, receipt.notificationUrn, (entry) => {
      expect(entry).toMatchObject({
        status: "DELIVERED",
        channel: "sms",
        recipient: phone,
        language: "fr",
        template: "offer",
        groupId: "ABC123",
        carriesMagicLink: true,
        requestedBy: "urn:system:compensation-saga",
      });
      expect(entry.attempts).toEqual([
        expect.objectContaining({ channel: "sms", status: "DELIVERED", providerMessageId: sms.messageId }),
      ]);
    });
    expect(dispatched.map((e) => e.data)).toContainEqual({
      caseUrn,
      channel: "sms",
      recipient: phone,
      groupId: "ABC123",
      subCaseUrn: subCaseUrnFor(caseUrn, "ABC123"),
      template: "offer",
      notificationUrn: receipt.notificationUrn,
    });
  });

  it("shows each send live on the operator WebSocket as notification:dispatched", async () => {
    const { caseUrn, phone } = await openCase("NOTIFY-LIVE");
    const client = new ChannelClient(new WebSocket(`${t.base.replace(/^http/, "ws")}${REALTIME_PATH}`));
    try {
      await client.opened;
      client.send({ type: "auth", token: operator });
      await client.next((m) => m.type === "ready");
      client.send({ type: "subscribe", caseUrn });
      await client.next((m) => m.type === "subscribed");
      const receipt = await notify(caseUrn, "live-1");
      expect(await client.next((m) => m.event === "notification:dispatched")).toMatchObject({
        data: {
          caseUrn,
          channel: "sms",
          recipient: phone,
          groupId: "ABC123",
          subCaseUrn: subCaseUrnFor(caseUrn, "ABC123"),
          template: "offer",
          notificationUrn: receipt.notificationUrn,
        },
      });
    } finally {
      client.socket.terminate();
    }
  });

  it("falls back to the messaging app when the SMS provider fails, and to e-mail when both do, recording each attempt", async () => {
    const { caseUrn, phone, email } = await openCase("NOTIFY-FALLBACK");
    providers.sms.failNext(1);
    const toMessaging = await notify(caseUrn, "fallback-1");
    expect(toMessaging).toMatchObject({ channel: "messaging", status: "SENT" });
    expect(providers.messaging.sent().some((m) => m.to === phone)).toBe(true);

    providers.sms.failNext(1);
    providers.messaging.failNext(1);
    const toEmail = await notify(caseUrn, "fallback-2", "voucher");
    expect(toEmail).toMatchObject({ channel: "email", status: "SENT" });
    const mail = await sink.waitFor((m) => m.envelope.to.includes(email));
    expect(mail.subject).toBe("Vol ZX100 : votre bon d'hôtel");

    const entry = await logEntry(caseUrn, toEmail.notificationUrn);
    expect(entry.attempts.map((a: any) => [a.channel, a.status])).toEqual([
      ["sms", "FAILED"],
      ["messaging", "FAILED"],
      ["email", "SENT"],
    ]);
    expect(entry.attempts[0].reason).toContain("503");
  });

  it("records FAILED when no channel takes the message", async () => {
    const { caseUrn } = await openCase("NOTIFY-ALL-FAIL");
    providers.sms.failNext(1);
    providers.messaging.failNext(1);
    const body = declaration("NOTIFY-ALL-FAIL-2");
    body.passengerGroups[0]!.passengers[0]!.contact = { phone: "+33155509999" };
    const opened = await t.call("POST", "/v1/cases", supervisor, body);
    const phoneOnly = (await json(opened)).urn as string;
    const receipt = await notify(phoneOnly, "all-fail");
    expect(receipt).toMatchObject({ channel: null, status: "FAILED" });
    const entry = await logEntry(phoneOnly, receipt.notificationUrn);
    expect(entry.status).toBe("FAILED");
    expect(entry.attempts.map((a: any) => [a.channel, a.status, a.reason])).toEqual([
      ["sms", "FAILED", expect.stringContaining("503")],
      ["messaging", "FAILED", expect.stringContaining("503")],
      ["email", "SKIPPED", "no-email-address"],
    ]);
    expect(caseUrn).not.toBe(phoneOnly);
  });

  it("sends a bounced SMS again on the next channel", async () => {
    const { caseUrn, phone } = await openCase("NOTIFY-BOUNCE");
    providers.sms.setRecipient(phone, "bounced");
    const receipt = await notify(caseUrn, "bounce-1");
    expect(receipt.channel).toBe("sms");
    await eventually(caseUrn, receipt.notificationUrn, (entry) => {
      expect(entry.attempts.map((a: any) => [a.channel, a.status])).toEqual([
        ["sms", "BOUNCED"],
        ["messaging", "DELIVERED"],
      ]);
      expect(entry).toMatchObject({ channel: "messaging", status: "DELIVERED" });
    });
    // The link of the bounced SMS never reached anyone: the messaging app's message carries a new one.
    expect(providers.messaging.sent().find((m) => m.to === phone)!.text).toMatch(/\?token=/);
  });
});

describe("opt-out", () => {
  it("honours a STOP reply: later sends pass over SMS", async () => {
    const { caseUrn, phone } = await openCase("NOTIFY-STOP");
    const first = await notify(caseUrn, "stop-1");
    await eventually(caseUrn, first.notificationUrn, (entry) => expect(entry.status).toBe("DELIVERED"));
    const sms = providers.sms.sent().find((m) => m.to === phone)!;
    expect(await providers.sms.reply(sms.messageId, "STOP")).toMatchObject({ status: 200 });

    const entry = await logEntry(caseUrn, first.notificationUrn);
    expect(entry.replies).toEqual([expect.objectContaining({ channel: "sms", text: "STOP" })]);
    expect(entry.attempts[0].status).toBe("OPTED_OUT");

    const next = await notify(caseUrn, "stop-2", "offer-reminder");
    expect(next.channel).toBe("messaging");
    expect((await logEntry(caseUrn, next.notificationUrn)).attempts[0]).toMatchObject({
      channel: "sms",
      status: "SKIPPED",
      reason: "opted-out",
    });
    expect(providers.sms.sent().filter((m) => m.to === phone)).toHaveLength(1);

    const audit = await json(
      await t.call("GET", `/v1/audit/case/${encodeURIComponent(caseUrn)}`, supervisor),
    );
    expect(audit.items).toContainEqual(
      expect.objectContaining({
        action: "contact-preference.opt-out",
        actorUrn: "urn:notification-provider:sms",
        entityUrn: first.notificationUrn,
      }),
    );
  });

  it("honours the provider's opted-out callback, and keeps a reply that is not STOP without opting out", async () => {
    const { caseUrn, phone, email } = await openCase("NOTIFY-OPTOUT");
    providers.sms.failNext(1);
    const first = await notify(caseUrn, "optout-1");
    expect(first.channel).toBe("messaging");
    await eventually(caseUrn, first.notificationUrn, (entry) => expect(entry.status).toBe("DELIVERED"));
    const message = providers.messaging.sent().find((m) => m.to === phone)!;
    await providers.messaging.reply(message.messageId, "Merci !");
    expect((await logEntry(caseUrn, first.notificationUrn)).replies).toEqual([
      expect.objectContaining({ channel: "messaging", text: "Merci !" }),
    ]);
    expect(await providers.messaging.optOut(message.messageId)).toMatchObject({ status: 200 });

    providers.sms.failNext(1);
    const next = await notify(caseUrn, "optout-2", "voucher");
    expect(next.channel).toBe("email");
    const attempts = (await logEntry(caseUrn, next.notificationUrn)).attempts;
    expect(attempts.map((a: any) => [a.channel, a.status, a.reason ?? null])).toEqual([
      ["sms", "FAILED", expect.stringContaining("503")],
      ["messaging", "SKIPPED", "opted-out"],
      ["email", "SENT", null],
    ]);
    await sink.waitFor((m) => m.envelope.to.includes(email));
  });
});

describe("signed delivery callbacks", () => {
  it("refuses a bad signature with 401, an unknown message with 404, and drops a duplicate event", async () => {
    const { caseUrn, phone } = await openCase("NOTIFY-CALLBACKS");
    providers.sms.setRecipient(phone, "silent");
    const receipt = await notify(caseUrn, "callbacks-1");
    const messageId = providers.sms.sent().find((m) => m.to === phone)!.messageId;
    const event = {
      eventId: "evt-reply-1",
      messageId,
      type: "replied",
      occurredAt: new Date().toISOString(),
      text: "Thanks",
    };

    const forged = await signedCallback("sms", event, "not-the-secret");
    expect(forged.status).toBe(401);
    expect(forged.headers.get("content-type")).toMatch(/application\/problem\+json/);
    const otherProvider = await signedCallback("sms", event, DEMO_MESSAGE_PROVIDERS.messaging.callbackSecret);
    expect(otherProvider.status).toBe(401);

    const unknown = await signedCallback("sms", { ...event, eventId: "evt-unknown", messageId: "sms-nope" });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).type).toMatch(/\/not-found\/unknown-message$/);
    // The message was the SMS provider's, not the messaging app's.
    const wrongChannel = await signedCallback("messaging", { ...event, eventId: "evt-wrong" });
    expect(wrongChannel.status).toBe(404);

    const first = await signedCallback("sms", event);
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({ notificationUrn: receipt.notificationUrn, duplicate: false });
    const again = await signedCallback("sms", event);
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual({ notificationUrn: receipt.notificationUrn, duplicate: true });
    expect((await logEntry(caseUrn, receipt.notificationUrn)).replies).toHaveLength(1);

    const delivered = await signedCallback("sms", {
      ...event,
      eventId: "evt-delivered-1",
      type: "delivered",
    });
    expect(delivered.status).toBe(200);
    expect(await logEntry(caseUrn, receipt.notificationUrn)).toMatchObject({ status: "DELIVERED" });
  });

  it("refuses a stale timestamp as a bad signature", async () => {
    const raw = JSON.stringify({
      eventId: "evt-stale",
      messageId: "x",
      type: "delivered",
      occurredAt: new Date().toISOString(),
    });
    const stale = String(Math.floor(Date.now() / 1000) - 600);
    const response = await fetch(`${t.base}/v1/notifications/callbacks/sms`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        [CALLBACK_HEADERS.signature]: callbackSignature(
          DEMO_MESSAGE_PROVIDERS.sms.callbackSecret,
          stale,
          raw,
        ),
        [CALLBACK_HEADERS.timestamp]: stale,
        [CALLBACK_HEADERS.eventId]: "evt-stale",
      },
      body: raw,
    });
    expect(response.status).toBe(401);
  });
});

describe("the send log and manual sends", () => {
  it("lists the case's notifications newest first, for operators of the case's tenant only", async () => {
    const { caseUrn } = await openCase("NOTIFY-LOG");
    const first = await notify(caseUrn, "log-1");
    const second = await notify(caseUrn, "log-2", "offer-reminder");
    const items = await sendLog(caseUrn);
    expect(items.map((n) => n.notificationUrn)).toEqual([second.notificationUrn, first.notificationUrn]);
    expect(items[0]).not.toHaveProperty("dedupeKey");
    expect(items[0]).not.toHaveProperty("tenant");

    const paged = await t.call(
      "GET",
      `/v1/notifications/case/${encodeURIComponent(caseUrn)}?limit=1`,
      operator,
    );
    expect(await json(paged)).toMatchObject({
      hasMore: true,
      items: [{ notificationUrn: second.notificationUrn }],
    });

    const vq = await t.operatorToken("operator@vq.demo");
    const other = await t.call("GET", `/v1/notifications/case/${encodeURIComponent(caseUrn)}`, vq);
    expect([403, 404]).toContain(other.status);
    expect(other.headers.get("content-type")).toMatch(/application\/problem\+json/);
    const anonymous = await t.call("GET", `/v1/notifications/case/${encodeURIComponent(caseUrn)}`);
    expect(anonymous.status).toBe(401);
    const missing = await t.call(
      "GET",
      `/v1/notifications/case/${encodeURIComponent("urn:case:nope")}`,
      operator,
    );
    expect(missing.status).toBe(404);
  });

  it("resends a template to named groups, once per Idempotency-Key, audited", async () => {
    const { caseUrn, phone } = await openCase("NOTIFY-RESEND");
    const path = `/v1/notifications/${encodeURIComponent(caseUrn)}/send`;
    const body = {
      groupIds: ["ABC123", "XYZ789"],
      template: "voucher",
      reason: "passenger lost the voucher",
    };
    const sent = await t.call("POST", path, operator, body, { "Idempotency-Key": "resend-1" });
    expect(sent.status).toBe(200);
    const answer = await json(sent);
    expect(answer.caseUrn).toBe(caseUrn);
    expect(answer.items).toEqual([
      expect.objectContaining({ groupId: "ABC123", channel: "sms", status: "SENT", replayed: false }),
      expect.objectContaining({ groupId: "XYZ789", channel: "sms", status: "SENT", replayed: false }),
    ]);
    const replay = await t.call("POST", path, operator, body, { "Idempotency-Key": "resend-1" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(providers.sms.sent().filter((m) => m.to === phone)).toHaveLength(1);

    const entry = await logEntry(caseUrn, answer.items[0].notificationUrn);
    expect(entry).toMatchObject({ template: "voucher", requestedBy: expect.stringMatching(/^urn:/) });
    expect(entry.requestedBy).not.toMatch(/^urn:system:/);

    const audit = await t.call("GET", `/v1/audit/case/${encodeURIComponent(caseUrn)}`, supervisor);
    expect((await json(audit)).items.map((e: any) => e.action)).toContain("notification.send");

    const unknownGroup = await t.call("POST", path, operator, {
      groupIds: ["ABC123", "NOPE99"],
      template: "voucher",
    });
    expect(unknownGroup.status).toBe(404);
    expect(await json(unknownGroup)).toMatchObject({ groupIds: ["NOPE99"] });
    const freeText = await t.call("POST", path, operator, {
      groupIds: ["ABC123"],
      template: "offer",
      text: "hi",
    });
    expect(freeText.status).toBe(400);
  });
});

describe("the passenger's own log", () => {
  it("opens a session from the first notification's magic link and lists the group's notifications only", async () => {
    const { caseUrn, phone } = await openCase("NOTIFY-ME");
    const first = await notify(caseUrn, "me-1");
    await notifier.notify({
      tenant: ZX,
      caseUrn,
      groupId: "XYZ789",
      subCaseUrn: subCaseUrnFor(caseUrn, "XYZ789"),
      template: "offer",
      correlationUrn: "urn:trace:notifications-channels",
      dedupeKey: "me-other-group",
      requestedBy: "urn:system:compensation-saga",
    });
    const link = new URL(
      providers.sms
        .sent()
        .find((m) => m.to === phone)!
        .text.match(/https?:\/\/\S+/)![0],
    );
    const exchanged = await fetch(`${t.passengerBase}/v1/auth/magic-link/exchange`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: link.searchParams.get("token") }),
    });
    expect(exchanged.status).toBe(200);
    const cookie = exchanged.headers.get("set-cookie")!.split(";")[0]!;

    const mine = await fetch(`${t.passengerBase}/v1/me/notifications`, { headers: { Cookie: cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe("private, max-age=60");
    const page = await json(mine);
    expect(page.items).toEqual([
      expect.objectContaining({ notificationUrn: first.notificationUrn, groupId: "ABC123", channel: "sms" }),
    ]);
    expect(page.items[0]).not.toHaveProperty("requestedBy");
    expect(page.items[0]).not.toHaveProperty("attempts");

    const anonymous = await fetch(`${t.passengerBase}/v1/me/notifications`);
    expect(anonymous.status).toBe(401);
  });
});

describe("the API documents", () => {
  it("lists each route in its surface's document, and the documents are valid", async () => {
    const operatorDoc = await json(await t.call("GET", "/openapi/operator/v1.json"));
    expect(Object.keys(operatorDoc.paths)).toEqual(
      expect.arrayContaining([
        "/v1/notifications/case/{caseUrn}",
        "/v1/notifications/{caseUrn}/send",
        "/v1/notifications/callbacks/{provider}",
      ]),
    );
    expect(Object.keys(operatorDoc.paths)).not.toContain("/v1/me/notifications");
    const passengerDoc = await json(await fetch(`${t.passengerBase}/openapi/passenger/v1.json`));
    expect(Object.keys(passengerDoc.paths)).toContain("/v1/me/notifications");
    const partnerDoc = await json(await t.call("GET", "/openapi/partner/v1.json"));
    expect(Object.keys(partnerDoc.paths)).toContain("/partner/v1/passengers/{passengerUrn}/notify");
    for (const document of [operatorDoc, passengerDoc, partnerDoc]) {
      const result = await new Validator().validate(document);
      expect(result.errors).toBeUndefined();
    }
  });
});

describe("a partner's templated notification", () => {
  const path = (passengerUrn: string) => `/partner/v1/passengers/${encodeURIComponent(passengerUrn)}/notify`;

  it("reaches the passenger's group in the named case, or the passenger's latest case, audited", async () => {
    const partner = await t.partnerToken("skyhub-zx");
    const { caseUrn, phone } = await openCase("NOTIFY-PARTNER");
    const named = await t.call("POST", path("urn:passenger:p1"), partner, { template: "voucher", caseUrn });
    expect(named.status).toBe(200);
    const answer = await json(named);
    expect(answer).toMatchObject({
      passengerUrn: "urn:passenger:p1",
      caseUrn,
      groupId: "ABC123",
      channel: "sms",
      status: "SENT",
      replayed: false,
    });
    expect(providers.sms.sent().find((m) => m.to === phone)!.text).toContain("votre bon d'hôtel");
    expect(await logEntry(caseUrn, answer.notificationUrn)).toMatchObject({
      template: "voucher",
      requestedBy: expect.stringMatching(/^urn:partner:/),
    });
    const audit = await json(
      await t.call("GET", `/v1/audit/case/${encodeURIComponent(caseUrn)}`, supervisor),
    );
    expect(audit.items).toContainEqual(
      expect.objectContaining({ action: "passenger.notify", entityUrn: "urn:passenger:p1" }),
    );

    const latest = await openCase("NOTIFY-PARTNER-LATEST");
    const unnamed = await t.call("POST", path("urn:passenger:p3"), partner, { template: "offer-reminder" });
    expect(unnamed.status).toBe(200);
    expect(await json(unnamed)).toMatchObject({ caseUrn: latest.caseUrn, groupId: "XYZ789" });
  });

  it("refuses free text, an unknown passenger, and a registration without the passenger.notify scope", async () => {
    const partner = await t.partnerToken("skyhub-zx");
    const { caseUrn } = await openCase("NOTIFY-PARTNER-REFUSED");
    const freeText = await t.call("POST", path("urn:passenger:p1"), partner, {
      template: "voucher",
      text: "hello",
    });
    expect(freeText.status).toBe(400);
    const unknown = await t.call("POST", path("urn:passenger:nobody"), partner, {
      template: "voucher",
      caseUrn,
    });
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).type).toMatch(/\/not-found\/passenger-not-found$/);
    const regulator = await t.partnerToken("regulator-zx");
    const unscoped = await t.call("POST", path("urn:passenger:p1"), regulator, {
      template: "voucher",
      caseUrn,
    });
    expect(unscoped.status).toBe(403);
  });

  it("bounds each registration's notifications: 429 with Retry-After once the hour's are spent", async () => {
    const partner = await t.partnerToken("skyhub-zx");
    let refused: Response | undefined;
    for (let i = 0; i < 70 && !refused; i++) {
      const response = await t.call("POST", path("urn:passenger:nobody"), partner, { template: "voucher" });
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(404);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
