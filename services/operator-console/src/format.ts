/** How the console writes times, money and labels (pure, shared by every screen). */

export interface Money {
  amountMinor: number;
  currency: string;
}

/** `2026-11-21T22:00:00Z` -> `21 Nov 2026, 22:00 UTC` (operators across airports read UTC). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" })}, ${date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" })} UTC`;
}

/** Minor units in the currency's own decimals: `{10941, USD}` -> `USD 109.41`. */
export function formatMoney(money: Money | null | undefined): string {
  if (!money) return "—";
  const digits = currencyDigits(money.currency);
  return `${money.currency} ${(money.amountMinor / 10 ** digits).toFixed(digits)}`;
}

function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/** `OFFER_READY` -> `Offer ready`. */
export function label(value: string | null | undefined): string {
  if (!value) return "—";
  const words = value.replace(/[_-]+/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The short form of a URN for tables: its last part (`urn:case:2a76…` -> `2a760cdf`). */
export function shortUrn(urn: string | null | undefined): string {
  if (!urn) return "—";
  const id = urn.split(":")[2] ?? urn;
  return id.length > 8 ? id.slice(0, 8) : id;
}
