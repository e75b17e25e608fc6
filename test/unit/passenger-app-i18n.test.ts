import { describe, expect, it } from "vitest";
import { CATALOGUES, chooseLanguage, format } from "../../services/passenger-app/src/i18n/index.js";

/** The passenger app's catalogues (services/passenger-app/src/i18n). */
describe("passenger app messages", () => {
  const english = CATALOGUES.en;

  it("has en, es, fr, de and pt, every one with exactly the English keys, none empty", () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual(["de", "en", "es", "fr", "pt"]);
    for (const [language, messages] of Object.entries(CATALOGUES)) {
      expect(Object.keys(messages).sort(), language).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(messages))
        expect(text.trim(), `${language}.${key}`).not.toBe("");
    }
  });

  it("keeps each message's placeholders in every language", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [language, messages] of Object.entries(CATALOGUES)) {
      for (const [key, text] of Object.entries(english)) {
        expect(placeholders(messages[key as keyof typeof english]), `${language}.${key}`).toEqual(
          placeholders(text),
        );
      }
    }
  });

  it("chooses the passenger's language, else the browser's, else English", () => {
    expect(chooseLanguage(["es-MX", "fr-FR"])).toBe("es");
    expect(chooseLanguage([null, "pt-BR"])).toBe("pt");
    expect(chooseLanguage([undefined, "DE_at"])).toBe("de");
    expect(chooseLanguage(["ja", "zh-CN"])).toBe("en");
    expect(chooseLanguage([])).toBe("en");
  });

  it("fills placeholders and leaves unknown ones as written", () => {
    expect(format("Flight {number}, {origin} to {destination}", { number: "ZX100", origin: "JFK" })).toBe(
      "Flight ZX100, JFK to {destination}",
    );
  });
});
