/**
 * The languages passenger-facing texts are written in (notifications, the printable voucher), and
 * the one rule that picks one for a passenger: the manifest's preferred language (a BCP 47 tag such
 * as `pt-BR`, spec 2.3), matched on its primary subtag, else English.
 */
export const PASSENGER_LANGUAGES = ["en", "es", "fr", "de", "pt"] as const;

export type PassengerLanguage = (typeof PASSENGER_LANGUAGES)[number];

/** What a passenger without a preferred language, or with one we do not write, reads. */
export const FALLBACK_LANGUAGE: PassengerLanguage = "en";

/** `pt-BR` → `pt`, `FR` → `fr`, `ja` → `en`, absent → `en`. */
export function passengerLanguage(preferred: string | null | undefined): PassengerLanguage {
  const primary = preferred?.trim().split(/[-_]/)[0]?.toLowerCase();
  return PASSENGER_LANGUAGES.find((language) => language === primary) ?? FALLBACK_LANGUAGE;
}
