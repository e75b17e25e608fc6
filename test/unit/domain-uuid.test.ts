import { describe, expect, it } from "vitest";
import { caseIdFor, caseUrnFor } from "../../src/domain/case.js";
import { reservationIdFor } from "../../src/domain/reservation.js";
import { subCaseUrnFor } from "../../src/domain/sub-case.js";
import { urn } from "../../src/domain/urn.js";
import { randomUuid, uuidFromParts } from "../../src/domain/uuid.js";

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

describe("uuidFromParts", () => {
  // Cases, sub-cases and reservations are stored under these ids: the same parts give the same id.
  it("keeps the ids derived from key parts", () => {
    expect(caseIdFor("urn:airline:ZX", "é-1")).toBe("64dbe901-8f31-0a89-8cf2-1537546a87b7");
    expect(caseUrnFor("urn:airline:ZX", "e1")).toBe("urn:case:289d1cc1-1fa8-30a9-29df-e56e2c1de2c8");
    expect(subCaseUrnFor("urn:case:x", "G1")).toBe("urn:sub-case:b9b05922-08f6-b3e3-91b5-620225d6bf99");
    expect(reservationIdFor("a", "b", "ü")).toBe("42bba0a1-be4e-3ff1-3712-ccc4f2ef2ad4");
    expect(reservationIdFor()).toBe("e3b0c442-98fc-1c14-9afb-f4c8996fb924");
  });

  it("tells apart different splits of the same text", () => {
    expect(uuidFromParts("", "ab", "c")).not.toBe(uuidFromParts("", "a", "bc"));
    expect(uuidFromParts("urn:x:", "a")).toBe(`urn:x:${uuidFromParts("", "a")}`);
  });
});
