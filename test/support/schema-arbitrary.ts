/**
 * fast-check arbitraries drawn from the JSON Schemas of the OpenAPI documents, mixed with values a
 * careless or hostile client sends (wrong types, control characters, markup, huge strings), so a
 * fuzzed request is now valid, now almost valid, now plain hostile.
 */
import fc from "fast-check";

type Schema = Record<string, unknown>;

export const hostileStrings = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\uFFFF\uD800",
  "../../../etc/passwd",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  '{"$gt":""}',
  "%00%ff",
  "__proto__",
  "constructor",
  "urn:case:",
  "urn:case:zx:00000000-0000-0000-0000-000000000000",
  "NaN",
  "-1",
  "1e309",
  "𝕏".repeat(600),
  "a".repeat(20_000),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileStrings,
  fc.constantFrom(null, true, -1, 0, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, [], {}),
  fc.constant({ __proto__: { polluted: true } }),
  fc.array(hostileStrings, { maxLength: 3 }),
);

/** Values that satisfy (or nearly satisfy) `schema`, one time in five replaced by a hostile value. */
export function valueFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: conforming(schema ?? {}, depth), weight: 4 },
    { arbitrary: hostileValue, weight: 1 },
  );
}

function conforming(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (choices?.length) return fc.oneof(...choices.map((choice) => valueFor(choice, depth + 1)));
  const type = Array.isArray(schema.type)
    ? (schema.type as string[])[0]
    : (schema.type as string | undefined);
  switch (type) {
    case "string":
      return stringFor(schema);
    case "integer":
      return fc.integer({
        min: typeof schema.minimum === "number" ? schema.minimum : -1_000,
        max: typeof schema.maximum === "number" ? schema.maximum : 100_000,
      });
    case "number":
      return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      if (depth > 4) return fc.constant([]);
      return fc.array(valueFor(schema.items as Schema | undefined, depth + 1), { maxLength: 3 });
    case "object":
      return objectFor(schema, depth);
    default:
      return schema.properties ? objectFor(schema, depth) : hostileValue;
  }
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case "date-time":
      return fc
        .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString());
    case "date":
      return fc
        .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case "email":
      return fc.emailAddress();
    case "uri":
      return fc.webUrl();
  }
  return fc.string({
    minLength: typeof schema.minLength === "number" ? Math.min(schema.minLength, 40) : 0,
    maxLength: typeof schema.maxLength === "number" ? Math.min(schema.maxLength, 40) : 40,
  });
}

function objectFor(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant({});
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) shape[name] = valueFor(property, depth + 1);
  return fc.record(shape, {
    requiredKeys: [...required].filter((name) => name in shape),
  });
}
