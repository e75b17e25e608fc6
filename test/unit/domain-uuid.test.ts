import { describe, expect, it } from "vitest";
import { urn } from "../../src/domain/urn.js";
import { randomUuid } from "../../src/domain/uuid.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("randomUuid", () => {
  it("gives RFC 9562 version 4 UUIDs, none repeated, across many refills of its random pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      const uuid = randomUuid();
      expect(uuid).toMatch(V4);
      seen.add(uuid);
    }
    expect(seen.size).toBe(5_000);
  });

  it("uses every hex digit in the random positions (the bytes are not truncated or biased to a few)", () => {
    const digits = new Set<string>();
    for (let i = 0; i < 200; i++) for (const c of randomUuid().replaceAll("-", "")) digits.add(c);
    expect([...digits].sort().join("")).toBe("0123456789abcdef");
  });

  it("puts the prefix before the UUID, however long the prefix", () => {
    expect(randomUuid("urn:event:")).toMatch(new RegExp(`^urn:event:${V4.source.slice(1)}`));
    const long = `${"x".repeat(500)}-`;
    const id = randomUuid(long);
    expect(id.startsWith(long)).toBe(true);
    expect(id.slice(long.length)).toMatch(V4);
    // A short prefix after a long one is not followed by what the long one left behind.
    expect(randomUuid("a:")).toMatch(new RegExp(`^a:${V4.source.slice(1)}`));
  });

  it("backs urn(): a fresh id when none is given, the given id otherwise", () => {
    expect(urn("case")).toMatch(new RegExp(`^urn:case:${V4.source.slice(1)}`));
    expect(urn("case", "abc")).toBe("urn:case:abc");
  });
});
