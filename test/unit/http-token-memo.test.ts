import { describe, expect, it } from "vitest";
import { TokenMemo } from "../../src/http/auth/token-memo.js";

/** A JWT-like token: a long shared head, a distinct signature at the end. */
const token = (signature: string) => `eyJhbGciOiJSUzI1NiJ9.${"x".repeat(900)}.${signature.padStart(43, "s")}`;

describe("TokenMemo", () => {
  it("answers for the token remembered, however the string was built", () => {
    const memo = new TokenMemo<number>();
    memo.set(token("A"), 1);
    expect(memo.get(["eyJhbGciOiJSUzI1NiJ9", "x".repeat(900), "A".padStart(43, "s")].join("."))).toBe(1);
    expect(memo.get(token("B"))).toBeUndefined();
  });

  it("never answers for another token that shares the remembered one's tail", () => {
    const memo = new TokenMemo<number>();
    const tail = "t".repeat(40);
    memo.set(`head-one.${tail}`, 1);
    expect(memo.get(`head-two.${tail}`)).toBeUndefined();
    memo.set(`head-two.${tail}`, 2);
    expect(memo.get(`head-two.${tail}`)).toBe(2);
    // The newcomer took the slot: the first is no longer known (it would be verified again).
    expect(memo.get(`head-one.${tail}`)).toBeUndefined();
  });

  it("remembers short tokens whole", () => {
    const memo = new TokenMemo<string>();
    memo.set("abc", "short");
    expect(memo.get("abc")).toBe("short");
    expect(memo.get("abd")).toBeUndefined();
  });

  it("forgets the oldest token once full, and only the given token on delete", () => {
    const memo = new TokenMemo<number>(2);
    memo.set(token("1"), 1);
    memo.set(token("2"), 2);
    memo.set(token("3"), 3);
    expect(memo.get(token("1"))).toBeUndefined();
    expect(memo.get(token("2"))).toBe(2);
    expect(memo.get(token("3"))).toBe(3);
    memo.delete(`other.${token("3").slice(-40)}`);
    expect(memo.get(token("3"))).toBe(3);
    memo.delete(token("3"));
    expect(memo.get(token("3"))).toBeUndefined();
  });
});
