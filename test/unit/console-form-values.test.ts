import { describe, expect, it } from "vitest";
import {
  given,
  isoFromLocal,
  listOf,
  memberAt,
  numberOrAbsent,
  partsOf,
  typedValue,
  withMember,
} from "../../services/operator-console/src/actions/form-values.js";

describe("the console's form values", () => {
  it("sends a number only when one was typed, and only the members given", () => {
    expect(numberOrAbsent("")).toBeUndefined();
    expect(numberOrAbsent(" 4 ")).toBe(4);
    expect(given({ a: 1, b: undefined, c: null })).toEqual({ a: 1, c: null });
  });

  it("reads a relaxed constraint's value as JSON when it is JSON, else as text", () => {
    expect(typedValue("35")).toBe(35);
    expect(typedValue("null")).toBeNull();
    expect(typedValue('["AIRPORT_SHUTTLE"]')).toEqual(["AIRPORT_SHUTTLE"]);
    expect(typedValue("SHUTTLE")).toBe("SHUTTLE");
  });

  it("reads a split's parts one line each and lists by commas, ignoring blanks", () => {
    expect(partsOf("p1, p3\n\np2 p4\n")).toEqual([["p1", "p3"], ["p2", "p4"]]);
    expect(listOf(" WCHR, ,oxygen ")).toEqual(["WCHR", "oxygen"]);
  });

  it("turns a datetime-local value into a UTC timestamp", () => {
    const local = "2026-11-21T22:30";
    expect(isoFromLocal(local)).toBe(new Date(local).toISOString());
    expect(isoFromLocal(local)).toMatch(/Z$/);
  });
});

describe("a member by its path", () => {
  it("sets, removes and reads a nested member without touching the original", () => {
    const rules = { name: "x", constraints: { minStars: 3 } };
    expect(withMember(rules, ["constraints", "maxDistanceKm"], 12)).toEqual({
      name: "x",
      constraints: { minStars: 3, maxDistanceKm: 12 },
    });
    expect(withMember(rules, ["constraints", "minStars"], undefined)).toEqual({ name: "x", constraints: {} });
    expect(withMember(rules, ["transport", "mode"], undefined)).toEqual(rules);
    expect(withMember({}, ["buffers", "lateCheckoutMinutes"], 30)).toEqual({ buffers: { lateCheckoutMinutes: 30 } });
    expect(rules).toEqual({ name: "x", constraints: { minStars: 3 } });
    expect(memberAt(rules, ["constraints", "minStars"])).toBe(3);
    expect(memberAt(rules, ["transport", "mode"])).toBeUndefined();
  });
});
