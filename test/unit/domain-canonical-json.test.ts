import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, payloadHash } from "../../src/domain/canonical-json.js";

/**
 * The definition the serializer must agree with: JSON.stringify of a copy whose objects have their
 * keys inserted in sorted order. Stored audit hashes and idempotency fingerprints were made with it.
 */
function reference(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

const keys = fc.oneof(
  fc.string(),
  fc.constantFrom("0", "1", "2", "10", "007", "-1", "4294967294", "4294967295", "1e3", "__proto__", "a", "B"),
);

const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.constant(undefined),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.string(),
    fc.date({ noInvalidDate: true }),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(keys, tie("value"), { maxKeys: 6 }),
  ),
})).value;

describe("canonical JSON", () => {
  it("sorts object keys at every depth", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: "x" } })).toBe(
      '{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}',
    );
  });

  it("puts integer-like keys first in numeric order, as JSON.stringify of a sorted copy does", () => {
    expect(canonicalJson({ b: 1, 10: 2, 9: 3, a: 4 })).toBe('{"9":3,"10":2,"a":4,"b":1}');
  });

  it("leaves out what JSON leaves out and writes non-finite numbers as null", () => {
    expect(canonicalJson({ a: undefined, f: () => 1, n: Number.NaN, list: [undefined, Infinity] })).toBe(
      '{"list":[null,null],"n":null}',
    );
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("agrees with the reference definition on arbitrary JSON-shaped values", () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("hashes the canonical text with SHA-256", () => {
    const payload = { method: "GET", path: "/version", query: {} };
    const expected = createHash("sha256").update(reference(payload)).digest("hex");
    expect(payloadHash(payload)).toBe(`sha256:${expected}`);
    expect(payloadHash({ query: {}, path: "/version", method: "GET" })).toBe(payloadHash(payload));
  });
});
