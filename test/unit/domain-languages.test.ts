import { describe, expect, it } from "vitest";
import { FALLBACK_LANGUAGE, PASSENGER_LANGUAGES, passengerLanguage } from "../../src/domain/languages.js";

describe("passengerLanguage", () => {
  it("keeps a language we write in, whatever its case or region", () => {
    expect(passengerLanguage("es")).toBe("es");
    expect(passengerLanguage("pt-BR")).toBe("pt");
    expect(passengerLanguage("FR")).toBe("fr");
    expect(passengerLanguage("de_AT")).toBe("de");
  });

  it("falls back to English for a language we do not write, or none", () => {
    expect(FALLBACK_LANGUAGE).toBe("en");
    expect(passengerLanguage("ja")).toBe("en");
    expect(passengerLanguage("")).toBe("en");
    expect(passengerLanguage(undefined)).toBe("en");
    expect(passengerLanguage(null)).toBe("en");
  });

  it("writes at least English, Spanish, French, German and Portuguese", () => {
    expect([...PASSENGER_LANGUAGES].sort()).toEqual(["de", "en", "es", "fr", "pt"]);
  });
});
