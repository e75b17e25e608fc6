import { describe, expect, it } from "vitest";
import { DomainError } from "../../src/domain/domain-error.js";
import { convert, fromMajor, minorUnitDigits, minus, money, plus, times } from "../../src/domain/money.js";

const rates = { base: "EUR", perBase: { USD: 1.08, GBP: 0.85, JPY: 160, XTS: 0.5, KWD: 0.33 } };

describe("money", () => {
  it.each([
    { currency: "EUR", digits: 2 },
    { currency: "JPY", digits: 0 },
    { currency: "KWD", digits: 3 },
    { currency: "CLF", digits: 4 },
  ])("$currency has $digits minor-unit digits", ({ currency, digits }) => {
    expect(minorUnitDigits(currency)).toBe(digits);
  });

  it.each([
    { amount: 149.99, currency: "EUR", minor: 14999 },
    { amount: 1500, currency: "JPY", minor: 1500 },
    { amount: 1.2345, currency: "KWD", minor: 1234 },
    { amount: 1.005, currency: "EUR", minor: 100 },
    { amount: 1.015, currency: "EUR", minor: 102 },
  ])("fromMajor($amount, $currency) is $minor minor units (half to even)", ({ amount, currency, minor }) => {
    expect(fromMajor(amount, currency)).toEqual({ amountMinor: minor, currency });
  });

  it.each([
    { from: money(10000, "EUR"), to: "USD", minor: 10800 },
    { from: money(10000, "USD"), to: "EUR", minor: 9259 },
    { from: money(10000, "USD"), to: "GBP", minor: 7870 },
    { from: money(10000, "EUR"), to: "JPY", minor: 16000 },
    { from: money(16000, "JPY"), to: "EUR", minor: 10000 },
    { from: money(10000, "EUR"), to: "KWD", minor: 33000 },
    { from: money(25, "EUR"), to: "XTS", minor: 12 },
    { from: money(35, "EUR"), to: "XTS", minor: 18 },
    { from: money(-35, "EUR"), to: "XTS", minor: -18 },
  ])("converts $from.amountMinor $from.currency to $minor $to", ({ from, to, minor }) => {
    expect(convert(from, to, rates)).toEqual({ amountMinor: minor, currency: to });
  });

  it("returns the same amount for the same currency, and undefined without a rate", () => {
    const amount = money(123, "CHF");
    expect(convert(amount, "CHF", rates)).toBe(amount);
    expect(convert(amount, "EUR", rates)).toBeUndefined();
    expect(convert(money(1, "EUR"), "CHF", rates)).toBeUndefined();
  });

  it("multiplies, adds and subtracts exactly in minor units", () => {
    expect(times(money(10999, "EUR"), 3)).toEqual(money(32997, "EUR"));
    expect(plus(money(1, "EUR"), money(2, "EUR"))).toEqual(money(3, "EUR"));
    expect(minus(money(1, "EUR"), money(2, "EUR"))).toEqual(money(-1, "EUR"));
  });

  it.each([
    { name: "a fractional amount", act: () => money(1.5, "EUR") },
    { name: "a lowercase code", act: () => money(1, "eur") },
    { name: "a fractional factor", act: () => times(money(1, "EUR"), 1.5) },
    { name: "mixed currencies", act: () => plus(money(1, "EUR"), money(1, "USD")) },
  ])("refuses $name", ({ act }) => {
    expect(act).toThrow(DomainError);
  });
});
