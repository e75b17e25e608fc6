/** Dates and amounts in the passenger's language (Intl, no locale data shipped). */
export function dateTime(language: string, iso: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** A calendar date (`2026-11-27`) as written in the language, read as the date it names. */
export function localDate(language: string, date: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

/** An amount in minor units of `currency` (ISO 4217), with the currency's own number of decimals. */
export function money(language: string, minorUnits: number, currency: string): string {
  const formatter = new Intl.NumberFormat(language, { style: "currency", currency });
  const decimals = formatter.resolvedOptions().maximumFractionDigits ?? 2;
  return formatter.format(minorUnits / 10 ** decimals);
}
