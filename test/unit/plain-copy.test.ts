import { describe, expect, it } from "vitest";
import { copyKeeping, copyOf } from "../../src/runtime/plain-copy.js";

describe("copyOf", () => {
  it("copies at every depth, so no change to the copy reaches the original", () => {
    const original = { a: 1, nested: { list: [{ x: 1 }], when: new Date(0) }, empty: null };
    const copy = copyOf(original);
    expect(copy).toEqual(original);
    copy.nested.list[0]!.x = 2;
    copy.nested.when.setTime(5);
    expect(original.nested.list[0]!.x).toBe(1);
    expect(original.nested.when.getTime()).toBe(0);
  });

  it("keeps an own __proto__ member a member, without touching the copy's prototype", () => {
    const original = JSON.parse('{"__proto__": {"polluted": true}, "b": 2}');
    const copy = copyOf(original);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "b"]);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ polluted: true });
  });

  it("copies own members only: what an enumerable member of Object.prototype lends stays lent", () => {
    const lent = { value: { shared: true }, enumerable: true, configurable: true, writable: true };
    Object.defineProperty(Object.prototype, "lentMember", lent);
    Object.defineProperty(Object.prototype, "lentFunction", { ...lent, value: () => 1 });
    let copy: { a: { b: number } };
    try {
      copy = copyOf({ a: { b: 1 } });
    } finally {
      delete (Object.prototype as Record<string, unknown>).lentMember;
      delete (Object.prototype as Record<string, unknown>).lentFunction;
    }
    expect(Object.keys(copy)).toEqual(["a"]);
    expect(Object.keys(copy.a)).toEqual(["b"]);
  });

  it("copies objects with many members as they are", () => {
    const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, { i }]));
    const copy = copyOf(wide);
    expect(copy).toEqual(wide);
    expect(copy.k59).not.toBe(wide.k59);
  });

  it("takes the objects it is told nobody else holds as they are, and copies the rest", () => {
    const owned = { list: [1, 2] };
    const shared = { n: 1 };
    const copy = copyKeeping({ owned, shared, both: [owned, shared] }, new Set([owned]));
    expect(copy.owned).toBe(owned);
    expect(copy.both[0]).toBe(owned);
    expect(copy.shared).not.toBe(shared);
    expect(copy.both[1]).toEqual(shared);
    expect(copy.both[1]).not.toBe(shared);
  });

  it("refuses functions as structuredClone does", () => {
    expect(() => copyOf({ f: () => 1 })).toThrow();
  });
});
