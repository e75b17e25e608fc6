/**
 * The passenger hears of the offer without anyone acting: a pushed disruption is booked by the
 * demo policy, the sub-case saga's notify step calls the notifier, and each group's offer goes out
 * on its first reachable channel, in its language, with the magic link (as `npm start` runs it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZEPHYR_AIR } from "../../src/demo/demo-airlines.js";
import { SmtpSink } from "../../services/notifications/smtp-sink.js";
import { MessageProviderSimulators } from "../../services/vendor-sim/message-provider.js";
import { overnightPush } from "../support/overnight-flights.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "./cases-fixtures.js";

let t: TestPlatform;
let operator: string;

beforeAll(async () => {
  t = await startTestPlatform();
  operator = await t.operatorToken("operator@zx.demo");
});
afterAll(async () => {
  await t?.close();
});

describe("the saga's offer notification", { timeout: 60_000 }, () => {
  it("reaches each group of a pushed disruption: Rivera by e-mail in Spanish, Okafor by SMS in English", async () => {
    const airport = ZEPHYR_AIR.airports.find((a) => a.code === "JFK")!;
    const partner = await t.partnerToken("skyhub-zx");
    const pushed = await t.call(
      "POST",
      "/partner/v1/disruptions",
      partner,
      overnightPush({
        externalEventId: `NOTIFY-SAGA-${Date.now()}`,
        airport,
        flightNumber: 100,
        reason: "WEATHER",
        passengers: [
          {
            pnr: "NTF123",
            lastName: "Rivera",
            cabinClass: "ECONOMY",
            loyaltyTier: "STANDARD",
            contact: { email: "ana.saga@example.com", language: "es" },
          },
          {
            pnr: "NTF789",
            lastName: "Okafor",
            cabinClass: "BUSINESS",
            loyaltyTier: "GOLD",
            contact: { phone: "+15550109999" },
          },
        ],
      }),
    );
    expect(pushed.status).toBe(202);
    const caseUrn = (await json(pushed)).caseUrn as string;

    let items: Record<string, any>[] = [];
    await expect
      .poll(
        async () => {
          const log = await t.call("GET", `/v1/notifications/case/${encodeURIComponent(caseUrn)}`, operator);
          items = (await json(log)).items;
          return items.filter((n) => n.template === "offer" && ["SENT", "DELIVERED"].includes(n.status))
            .length;
        },
        { timeout: 45_000, interval: 100 },
      )
      .toBe(2);

    const byChannel = Object.fromEntries(items.map((n) => [n.channel, n]));
    expect(byChannel.email).toMatchObject({
      template: "offer",
      language: "es",
      recipient: "ana.saga@example.com",
      carriesMagicLink: true,
      requestedBy: "urn:system:compensation-saga",
    });
    expect(byChannel.sms).toMatchObject({ template: "offer", language: "en", recipient: "+15550109999" });
    expect(byChannel.email.attempts.map((a: any) => [a.channel, a.status, a.reason])).toEqual([
      ["sms", "SKIPPED", "no-phone-number"],
      ["messaging", "SKIPPED", "no-phone-number"],
      ["email", "SENT", null],
    ]);

    const mail = await t.platform.container
      .resolve(SmtpSink)
      .waitFor((m) => m.envelope.to.includes("ana.saga@example.com"));
    expect(mail.subject).toBe("Vuelo ZX100: su hotel para esta noche");
    expect(mail.text).toMatch(/\?token=/);
    const sms = t.platform.container
      .resolve(MessageProviderSimulators)
      .sms.sent()
      .find((m) => m.to === "+15550109999")!;
    expect(sms.text).toContain("Dear Okafor, flight ZX100 from JFK is cancelled");
  });
});
