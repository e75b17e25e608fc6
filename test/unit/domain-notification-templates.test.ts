import { describe, expect, it } from "vitest";
import { PASSENGER_LANGUAGES } from "../../src/domain/languages.js";
import { NOTIFICATION_TEMPLATES, channelsAfter, isStopReply } from "../../src/domain/notification.js";
import { renderNotification } from "../../src/domain/notification-templates.js";

const values = { name: "Rivera", flight: "ZX100", origin: "JFK", link: "https://zx.example/?token=abc" };

describe("notification templates", () => {
  it("has every template in every language, each naming the flight and carrying the link", () => {
    const seen = new Set<string>();
    for (const language of PASSENGER_LANGUAGES) {
      for (const template of NOTIFICATION_TEMPLATES) {
        const message = renderNotification(template, language, values);
        expect(message.language).toBe(language);
        expect(message.subject).toContain("ZX100");
        expect(message.text).toContain("Rivera");
        expect(message.text).toContain(values.link);
        expect(`${message.subject} ${message.text}`).not.toMatch(/\{\w+\}/);
        seen.add(message.text);
      }
    }
    // No language borrows another's text.
    expect(seen.size).toBe(PASSENGER_LANGUAGES.length * NOTIFICATION_TEMPLATES.length);
  });

  it("writes a regional tag in its language and an unknown language in English", () => {
    expect(renderNotification("voucher", "pt-BR", values).subject).toBe("Voo ZX100: o seu voucher de hotel");
    expect(renderNotification("voucher", "de", values).subject).toBe("Flug ZX100: Ihr Hotelgutschein");
    expect(renderNotification("offer-reminder", "fr", values).text).toContain("Bonjour Rivera");
    const unknown = renderNotification("offer", "ja", values);
    expect(unknown.language).toBe("en");
    expect(unknown.subject).toBe("Flight ZX100: your hotel for tonight");
    expect(renderNotification("offer", null, values).language).toBe("en");
  });
});

describe("channel order and STOP replies", () => {
  it("falls back from SMS to the messaging app to e-mail", () => {
    expect(channelsAfter(null)).toEqual(["sms", "messaging", "email"]);
    expect(channelsAfter("sms")).toEqual(["messaging", "email"]);
    expect(channelsAfter("messaging")).toEqual(["email"]);
    expect(channelsAfter("email")).toEqual([]);
  });

  it("reads STOP and its usual variants as an opt-out, and other replies as none", () => {
    for (const text of ["STOP", " stop ", "Stop.", "UNSUBSCRIBE", "arret"])
      expect(isStopReply(text)).toBe(true);
    for (const text of ["yes", "stop by the desk later", "OK"]) expect(isStopReply(text)).toBe(false);
  });
});
