/**
 * Schemas every surface shares (spec 2 and 2.9), written once and reused by route declarations.
 * All are `as const` so handlers see literal types through `Infer`.
 */
import type { JsonSchema } from "../json-schema.js";

/** Any identifier on the wire: `urn:<kind>:<id>` (path components arrive URL-decoded). */
export const urnSchema = {
  type: "string",
  pattern: "^urn:[^:]+:[^:]",
  maxLength: 512,
  description: "URN, `urn:<kind>:<id>`; URL-encode it in path components (colons as %3A)",
} as const;

/**
 * A URN of one kind, in either form the spec shows: `urn:<kind>:<id>[:<key>:<value>...]` or the
 * operator-page form `urn:<namespace>:<kind>:<id>`.
 */
export function urnOf<const K extends string>(kind: K) {
  return {
    type: "string",
    pattern: `^urn:(?:[^:]+:)?${kind.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:[^:]`,
    maxLength: 512,
    description: `URN of a ${kind}, \`urn:${kind}:<id>\``,
  } as const;
}

/** ISO 8601 UTC timestamp. */
export const timestampSchema = { type: "string", format: "date-time" } as const;

/** A calendar date where it happens (check-in, contract validity): no time, no zone. */
export const localDateSchema = {
  type: "string",
  format: "date",
  description: "Local date, YYYY-MM-DD",
} as const;

export const airportCodeSchema = {
  type: "string",
  pattern: "^[A-Z]{3}$",
  description: "IATA airport code",
} as const;

/**
 * An amount in the currency's minor unit, so sums are exact. No lower bound: a saving against the
 * market can be negative; a route that must refuse negative amounts narrows it.
 */
export const moneySchema = {
  type: "object",
  required: ["amountMinor", "currency"],
  properties: {
    amountMinor: { type: "integer", description: "Amount in the currency's minor unit (cents)" },
    currency: { type: "string", pattern: "^[A-Z]{3}$", description: "ISO 4217 code" },
  },
} as const;

/** The `:caseUrn` path parameter, the same on every surface that addresses a case. */
export const caseUrnParams = { type: "object", properties: { caseUrn: urnOf("case") } } as const;

/** A reason an operator must give for state changes that are audited. */
export const reasonSchema = { type: "string", minLength: 1, maxLength: 2000 } as const;

/** The body of an audited action that needs nothing but its reason (reject, escalate, close...). */
export const reasonBody = {
  type: "object",
  required: ["reason"],
  properties: { reason: reasonSchema },
} as const;

/** One field-level validation failure, in the `errors` member of a 400 problem. */
export const fieldErrorSchema = {
  type: "object",
  required: ["in", "field", "message"],
  properties: {
    in: { type: "string", enum: ["path", "query", "body"] },
    field: { type: "string", description: "JSON pointer into the part named by `in`, e.g. /flight/number" },
    message: { type: "string" },
  },
} as const;

/** RFC 7807 Problem Details (spec 2.9); extension members vary per problem type. */
export const problemSchema = {
  type: "object",
  required: ["type", "title", "status", "detail", "instance"],
  properties: {
    type: { type: "string", format: "uri", description: "`{errors_url}/<category>/<code>`" },
    title: { type: "string" },
    status: { type: "integer", minimum: 400, maximum: 599 },
    detail: { type: "string" },
    instance: { type: "string", description: "W3C trace correlation URN, `urn:trace:<trace id>`" },
    errors: { type: "array", items: fieldErrorSchema, description: "Field-level failures (400 only)" },
    failedDomain: { type: "string", description: "Downstream domain behind an open circuit (503 only)" },
  },
  additionalProperties: true,
} as const;

/**
 * A sub-call of a composition route that failed or ran out of time, named in `partialFailures`;
 * its part of the answer is null.
 */
export const partialFailureSchema = {
  type: "object",
  required: ["domain", "reason"],
  properties: { domain: { type: "string" }, reason: { type: "string" } },
} as const;

/** The page envelope (spec 2.9) around items of `itemSchema`. */
export function pageSchema<const S extends JsonSchema>(itemSchema: S) {
  return {
    type: "object",
    required: ["items", "nextCursor", "hasMore"],
    properties: {
      items: { type: "array", items: itemSchema },
      nextCursor: {
        type: ["string", "null"],
        description: "Opaque; pass it back as `cursor` for the next page; null when `hasMore` is false",
      },
      hasMore: { type: "boolean" },
    },
  } as const;
}
