import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PassengerNotifier } from "../../src/app/notifications/passenger-notifier.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { SmtpSink } from "../../services/notifications/smtp-sink.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, ZX } from "./cases-fixtures.js";

let t: TestPlatform;
let supervisor: string;
let notifier: PassengerNotifier;
let sink: SmtpSink;

beforeAll(async () => {
  t = await startTestPlatform({ env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
  supervisor = await t.operatorToken("supervisor@zx.demo");
  notifier = t.platform.container.resolve<PassengerNotifier>(TOKENS.passengerNotifier);
  sink = t.platform.container.resolve(SmtpSink);
});
afterAll(async () => {
  await t?.close();
});

/** A case whose first group (ABC123) is reached by e-mail only, in `language`. */
async function openCase(externalEventId: string, language?: string): Promise<string> {
  const body = declaration(externalEventId);
  const lead = body.passengerGroups[0]!.passengers[0]!;
  lead.contact = { email: `${externalEventId.toLowerCase()}@example.com`, ...(language ? { language } : {}) };
  const response = await t.call("POST", "/v1/cases", supervisor, body);
  expect(response.status).toBe(201);
  return (await json(response)).urn as string;
}

function offer(
  caseUrn: string,
  dedupeKey: string,
  template: "offer" | "voucher" | "offer-reminder" = "offer",
) {
  return {
    tenant: ZX,
    caseUrn,
    groupId: "ABC123",
    subCaseUrn: subCaseUrnFor(caseUrn, "ABC123"),
    template,
    correlationUrn: "urn:trace:notifications-email",
    dedupeKey,
    requestedBy: "urn:system:compensation-saga",
  };
}

function exchange(token: string) {
  return fetch(`${t.passengerBase}/v1/auth/magic-link/exchange`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Host: "zx.localhost" },
    body: JSON.stringify({ token }),
  });
}

describe("e-mail through the SMTP sink", () => {
  it("e-mails a group reached by e-mail only, and the sink receives the message over SMTP", async () => {
    const caseUrn = await openCase("NOTIFY-EMAIL-1");
    const receipt = await notifier.notify(offer(caseUrn, "saga-1"));
    expect(receipt).toMatchObject({ channel: "email", status: "SENT", replayed: false });
    expect(receipt.notificationUrn).toMatch(/^urn:notification:/);

    const mail = await sink.waitFor((m) => m.envelope.to.includes("notify-email-1@example.com"));
    expect(mail.subject).toBe("Flight ZX100: your hotel for tonight");
    expect(mail.text).toContain("Dear Rivera, flight ZX100 from JFK is cancelled");
  });

  it("writes in the passenger's language from the manifest, and in English for a language it does not write", async () => {
    const spanish = await openCase("NOTIFY-EMAIL-ES", "es-MX");
    const japanese = await openCase("NOTIFY-EMAIL-JA", "ja");
    await notifier.notify(offer(spanish, "saga-es"));
    await notifier.notify(offer(japanese, "saga-ja"));
    const es = await sink.waitFor((m) => m.envelope.to.includes("notify-email-es@example.com"));
    const ja = await sink.waitFor((m) => m.envelope.to.includes("notify-email-ja@example.com"));
    expect(es.subject).toBe("Vuelo ZX100: su hotel para esta noche");
    expect(es.text).toContain("está cancelado");
    expect(ja.subject).toBe("Flight ZX100: your hotel for tonight");
  });

  it("sends a repeated dedupe key once and answers with the first receipt", async () => {
    const caseUrn = await openCase("NOTIFY-EMAIL-DEDUPE");
    const [first, second] = await Promise.all([
      notifier.notify(offer(caseUrn, "saga-dedupe")),
      notifier.notify(offer(caseUrn, "saga-dedupe")),
    ]);
    const third = await notifier.notify(offer(caseUrn, "saga-dedupe"));
    expect(second.notificationUrn).toBe(first.notificationUrn);
    expect(third).toEqual({ ...first, replayed: true });
    expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
    await sink.waitFor((m) => m.envelope.to.includes("notify-email-dedupe@example.com"));
    const sent = (await sink.messages()).filter((m) =>
      m.envelope.to.includes("notify-email-dedupe@example.com"),
    );
    expect(sent).toHaveLength(1);
  });

  it("puts a magic link in the group's first notification only; the link opens a session once", async () => {
    const caseUrn = await openCase("NOTIFY-EMAIL-LINK");
    const to = "notify-email-link@example.com";
    await notifier.notify(offer(caseUrn, "saga-link"));
    await notifier.notify(offer(caseUrn, "reminder-link", "offer-reminder"));
    await sink.waitFor((m) => m.envelope.to.includes(to) && m.subject.includes("please answer"));
    const [first, reminder] = (await sink.messages()).filter((m) => m.envelope.to.includes(to));

    // Zephyr's own passenger host (spec 1): zx.localhost on the passenger port.
    const zephyrSite = new URL(t.platform.config.passengerBaseUrl);
    zephyrSite.hostname = "zx.localhost";
    const link = new URL(first!.text.match(/https?:\/\/\S+/)![0]);
    expect(link.origin).toBe(zephyrSite.origin);
    const token = link.searchParams.get("token")!;
    expect(token.split(".")).toHaveLength(3);
    expect(reminder!.text).not.toContain("token=");
    expect(reminder!.text).toContain(zephyrSite.origin);

    const opened = await exchange(token);
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ caseUrn });
    expect(opened.headers.get("set-cookie")).toMatch(/passenger_session=/);
    const again = await exchange(token);
    expect(again.status).toBe(401);
    expect(again.headers.get("content-type")).toMatch(/application\/problem\+json/);
  });

  it("refuses a group the case does not have, sending nothing", async () => {
    const caseUrn = await openCase("NOTIFY-EMAIL-NOGROUP");
    await expect(
      notifier.notify({ ...offer(caseUrn, "saga-nogroup"), groupId: "NOPE42" }),
    ).rejects.toMatchObject({
      kind: "not-found",
      code: "group-not-found",
    });
  });
});
