import { DomainError } from "../domain-error.js";

/**
 * The currency a policy's amounts are written in (spec 2.4: "currency derived from policy
 * context"): the currency of the country its airport is in. Costs, ceilings and savings of a wave
 * are stated in it; vendor rates are converted.
 */
const CURRENCY_OF_COUNTRY: Readonly<Record<string, string>> = {
  US: "USD",
  CA: "CAD",
  MX: "MXN",
  BR: "BRL",
  AR: "ARS",
  CL: "CLP",
  CO: "COP",
  PE: "PEN",
  GB: "GBP",
  CH: "CHF",
  NO: "NOK",
  SE: "SEK",
  DK: "DKK",
  PL: "PLN",
  CZ: "CZK",
  HU: "HUF",
  TR: "TRY",
  AE: "AED",
  QA: "QAR",
  SA: "SAR",
  IN: "INR",
  SG: "SGD",
  HK: "HKD",
  JP: "JPY",
  KR: "KRW",
  CN: "CNY",
  AU: "AUD",
  NZ: "NZD",
  ZA: "ZAR",
  ...Object.fromEntries(
    [
      "AT",
      "BE",
      "CY",
      "DE",
      "EE",
      "ES",
      "FI",
      "FR",
      "GR",
      "HR",
      "IE",
      "IT",
      "LT",
      "LU",
      "LV",
      "MT",
      "NL",
      "PT",
      "SI",
      "SK",
    ].map((country) => [country, "EUR"]),
  ),
};

export function policyCurrencyOf(country: string): string {
  const currency = CURRENCY_OF_COUNTRY[country.toUpperCase()];
  if (!currency) {
    throw new DomainError(
      "unprocessable",
      "unknown-policy-currency",
      `No currency is known for country ${country}, so the policy's rates cannot be read`,
      { country },
    );
  }
  return currency;
}
