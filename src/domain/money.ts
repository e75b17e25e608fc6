import { DomainError } from "./domain-error.js";

/**
 * An amount in the currency's minor unit (cents for EUR, yen for JPY, fils for KWD), always an
 * integer: sums and products of integers are exact, so totals never drift by a cent.
 */
export interface Money {
  readonly amountMinor: number;
  /** ISO 4217 alphabetic code. */
  readonly currency: string;
}

/**
 * Exchange rates quoted against one base currency, as central banks publish them:
 * one unit of `base` buys `perBase[X]` units of X. The base itself need not be listed.
 * The caller passes the table in; money never fetches rates.
 */
export interface ExchangeRates {
  readonly base: string;
  readonly perBase: Readonly<Record<string, number>>;
}

/** ISO 4217 currencies whose minor unit is not the hundredth; every other code has 2 digits. */
const MINOR_UNIT_DIGITS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

const CURRENCY_CODE = /^[A-Z]{3}$/;

export function money(amountMinor: number, currency: string): Money {
  if (!Number.isSafeInteger(amountMinor)) {
    throw new DomainError(
      "invalid",
      "invalid-money",
      `amountMinor must be a safe integer, got ${amountMinor}`,
    );
  }
  if (!CURRENCY_CODE.test(currency)) {
    throw new DomainError(
      "invalid",
      "invalid-currency",
      `currency must be an ISO 4217 code, got ${currency}`,
    );
  }
  return { amountMinor, currency };
}

export function minorUnitDigits(currency: string): number {
  return MINOR_UNIT_DIGITS[currency] ?? 2;
}

/** A major-unit amount as written in a policy (`maxNightlyRate: 149.99`), rounded half-even. */
export function fromMajor(amount: number, currency: string): Money {
  return money(roundHalfEven(amount * 10 ** minorUnitDigits(currency)), currency);
}

/**
 * Converts through the table's base, or returns undefined when the table lacks either currency.
 *
 * Rounding rule: the exact converted value is rounded once, to the target's minor unit, half to
 * even (banker's rounding), so that across many converted amounts the rounding errors cancel
 * instead of all pushing the same way. Callers convert a unit price first and then multiply
 * (rate x rooms x nights), which keeps totals equal to the sum of what each night is invoiced.
 */
export function convert(amount: Money, to: string, rates: ExchangeRates): Money | undefined {
  if (amount.currency === to) return amount;
  const fromRate = rateOf(amount.currency, rates);
  const toRate = rateOf(to, rates);
  if (fromRate === undefined || toRate === undefined) return undefined;
  const scale = 10 ** (minorUnitDigits(to) - minorUnitDigits(amount.currency));
  return money(roundHalfEven(((amount.amountMinor * toRate) / fromRate) * scale), to);
}

export function times(amount: Money, factor: number): Money {
  if (!Number.isSafeInteger(factor)) {
    throw new DomainError(
      "invalid",
      "invalid-money",
      `money is multiplied by whole counts only, got ${factor}`,
    );
  }
  return money(amount.amountMinor * factor, amount.currency);
}

export function plus(a: Money, b: Money): Money {
  return money(a.amountMinor + sameCurrency(a, b).amountMinor, a.currency);
}

export function minus(a: Money, b: Money): Money {
  return money(a.amountMinor - sameCurrency(a, b).amountMinor, a.currency);
}

function sameCurrency(a: Money, b: Money): Money {
  if (a.currency !== b.currency) {
    throw new DomainError("invalid", "currency-mismatch", `cannot combine ${a.currency} with ${b.currency}`);
  }
  return b;
}

function rateOf(currency: string, rates: ExchangeRates): number | undefined {
  if (currency === rates.base) return 1;
  const rate = rates.perBase[currency];
  return rate !== undefined && Number.isFinite(rate) && rate > 0 ? rate : undefined;
}

/**
 * Half-to-even rounding that tolerates binary floating point: 1.005 * 100 is 100.49999999999999
 * in doubles, and must still count as an exact half.
 */
function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  const tolerance = 1e-9 + Math.abs(value) * Number.EPSILON * 8;
  if (fraction < 0.5 - tolerance) return floor;
  if (fraction > 0.5 + tolerance) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}
