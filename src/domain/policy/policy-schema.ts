import { TIERS } from "./tiers.js";
import {
  AMENITIES,
  DEFAULT_ALLOCATION_WEIGHTS,
  DEFAULT_MINUTES_PER_MEAL,
  PAYMENT_METHODS,
  POLICY_DEFAULTS,
  POLICY_MODES,
  TRANSPORT_MODES,
} from "./policy.js";

/**
 * JSON Schema (draft 2020-12, Ajv strict mode) of the policy create and patch bodies, written once
 * so the HTTP layer validates with it and publishes it in OpenAPI. Every object is closed
 * (`additionalProperties: false`) and every number has its range.
 *
 * Bounds the spec does not give: minutes are at most one day (1440), a wave auto-approves at most
 * 10 000 rooms, a shuttle seats 1 to 100. Defaults are documented with `default`, except for the two
 * consolidation weights: they mirror each other (see `reconcileConsolidation`), so a schema default
 * on one would contradict a value given for the other.
 */

const MINUTES_IN_A_DAY = 1440;

const name = { type: "string", minLength: 1, maxLength: 200 } as const;

const airport = {
  type: "string",
  pattern: "^(\\*|[A-Z]{3})$",
  description: "IATA airport code; `*` or absent matches every airport",
} as const;

const airline = {
  type: "string",
  pattern: "^(\\*|[A-Z0-9]{2,3})$",
  description: "Airline code; `*` or absent matches every airline",
} as const;

const tiers = {
  type: "array",
  items: { type: "string", enum: TIERS },
  uniqueItems: true,
  description: "Tiers the policy applies to; empty or absent means every tier",
} as const;

const minStars = {
  type: "integer",
  minimum: 1,
  maximum: 5,
  description: "Lowest star rating accepted; unrated properties are excluded",
} as const;

const maxDistanceKm = {
  type: "number",
  exclusiveMinimum: 0,
  maximum: 1000,
  description: "Straight-line distance from the airport coordinates",
} as const;

const maxNightlyRate = {
  type: "number",
  exclusiveMinimum: 0,
  description: "Highest nightly rate; the currency follows the policy context",
} as const;

const requiredAmenities = {
  type: "array",
  items: { type: "string", enum: AMENITIES },
  uniqueItems: true,
} as const;

const excludedChains = {
  type: "array",
  items: { type: "string", minLength: 1, maxLength: 100 },
  uniqueItems: true,
  description: "Provider-independent chain ids",
} as const;

const acceptedPayments = {
  type: "array",
  items: { type: "string", enum: PAYMENT_METHODS },
  minItems: 1,
  uniqueItems: true,
  description: "GUARANTEE (default) and/or CARD",
} as const;

const allowProviders = {
  type: "array",
  items: { type: "string", pattern: "^[a-z][a-z0-9-]{0,39}$" },
  minItems: 1,
  uniqueItems: true,
  description: "Inventory vendor ids the allocation may use; absent means all vendors of the tenant",
} as const;

const minutes = { type: "integer", minimum: 0, maximum: MINUTES_IN_A_DAY } as const;

const mode = {
  type: "string",
  enum: POLICY_MODES,
  description: "BATCH: waves run on a schedule; ON_DEMAND: a wave runs as soon as demand is approved",
} as const;

const flag = { type: "boolean" } as const;

const maxAutomaticRoomsPerWave = {
  type: "integer",
  minimum: 0,
  maximum: 10000,
  description: "Upper bound for auto-approval of demand; required when autoApproveDemand is true",
} as const;

const weight = { type: "number", minimum: 0, maximum: 1 } as const;

const transportMode = { type: "string", enum: TRANSPORT_MODES } as const;

const perTier = {
  type: "object",
  propertyNames: { enum: TIERS },
  additionalProperties: transportMode,
  description: "Transport mode per tier, e.g. {FIRST: PRIVATE_CAR}",
} as const;

const shuttleCapacity = { type: "integer", minimum: 1, maximum: 100 } as const;

const mealAmount = {
  type: "number",
  exclusiveMinimum: 0,
  maximum: 10000,
  description: "Per meal, in major units of the policy's currency",
} as const;

/** The airline's meal allowance (PolicyMealAllowance): the amount of the meal card. */
const mealAllowance = {
  type: "object",
  additionalProperties: false,
  required: ["amount"],
  description:
    "What the airline pays for meals while passengers wait: per meal and tier, one meal per started " +
    "minutesPerMeal of waiting. Owed where a passenger-rights regime owes meals, or from fromMinutes of waiting",
  properties: {
    amount: mealAmount,
    perTier: {
      type: "object",
      propertyNames: { enum: TIERS },
      additionalProperties: mealAmount,
      description: "Amount per meal for a tier, e.g. {BUSINESS: 30}",
    },
    fromMinutes: {
      ...minutes,
      description: "Waiting time from which the airline owes meals even where no regulation does",
    },
    minutesPerMeal: {
      type: "integer",
      minimum: 60,
      maximum: MINUTES_IN_A_DAY,
      description: `One meal per started period of this many minutes of waiting (${DEFAULT_MINUTES_PER_MEAL} when absent)`,
    },
    scheduledDropTiers: {
      type: "array",
      uniqueItems: true,
      items: { type: "string", enum: TIERS },
      description:
        "Tiers whose meal card loads in scheduled drops (25 % at issue, 35 % at 12:00, 40 % at 18:00 airport time); other tiers' cards are loaded in full at issue",
    },
  },
} as const;

const passengerMayRequest = {
  type: "boolean",
  description: "Passengers may ask for a ride themselves (POST /v1/me/transport/request); absent: no",
} as const;

const ridesWithOffer = {
  type: "boolean",
  description:
    "The compensation saga books each group's rides with its offer (default true); false leaves rides to operators' transfer requests and to passengers' requests",
} as const;

const provenance = {
  type: "object",
  additionalProperties: false,
  required: ["source", "confidence", "prompt"],
  properties: {
    source: { type: "string", const: "ai" },
    confidence: weight,
    prompt: { type: "string", minLength: 1, maxLength: 4000 },
  },
} as const;

const prediction = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  description:
    "How the flight predictor acts at this context (spec 6.1): disruption.detected is emitted when a flight's disruption probability is above threshold (0.7 when absent); draftCase true adds a draft case (a POST /v1/cases body) to it",
  properties: {
    threshold: { ...weight, description: "Probability from 0 to 1" },
    draftCase: { ...flag, description: "Absent means no" },
  },
} as const;

/** Body of POST /policies (spec 2.4). */
export const policyCreateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "context"],
  properties: {
    name,
    context: {
      type: "object",
      additionalProperties: false,
      properties: { airport, airline },
    },
    tiers,
    constraints: {
      type: "object",
      additionalProperties: false,
      properties: {
        minStars,
        maxDistanceKm,
        maxNightlyRate,
        requiredAmenities: { ...requiredAmenities, default: [] },
        excludedChains: { ...excludedChains, default: [] },
        acceptedPayments: { ...acceptedPayments, default: POLICY_DEFAULTS.acceptedPayments },
        allowProviders,
      },
    },
    buffers: {
      type: "object",
      additionalProperties: false,
      properties: {
        lateCheckoutMinutes: { ...minutes, default: POLICY_DEFAULTS.lateCheckoutMinutes },
        earlyCheckInMinutes: { ...minutes, default: POLICY_DEFAULTS.earlyCheckInMinutes },
      },
    },
    mode: { ...mode, default: POLICY_DEFAULTS.mode },
    autoApproveDemand: { ...flag, default: POLICY_DEFAULTS.autoApproveDemand },
    maxAutomaticRoomsPerWave,
    incrementalRequiresApproval: {
      ...flag,
      default: POLICY_DEFAULTS.incrementalRequiresApproval,
      description: "Forces manual approval of INCREMENTAL demand",
    },
    consolidationWeight: {
      ...weight,
      description: `Same knob as allocationWeights.consolidation (default ${DEFAULT_ALLOCATION_WEIGHTS.consolidation})`,
    },
    allocationWeights: {
      type: "object",
      additionalProperties: false,
      properties: {
        cost: { ...weight, default: DEFAULT_ALLOCATION_WEIGHTS.cost },
        distance: { ...weight, default: DEFAULT_ALLOCATION_WEIGHTS.distance },
        consolidation: {
          ...weight,
          description: `Same knob as consolidationWeight (default ${DEFAULT_ALLOCATION_WEIGHTS.consolidation})`,
        },
      },
    },
    transport: {
      type: "object",
      additionalProperties: false,
      properties: {
        mode: { ...transportMode, default: POLICY_DEFAULTS.transportMode },
        perTier,
        minutesBeforePickup: minutes,
        shuttleCapacity,
        passengerMayRequest,
        ridesWithOffer,
      },
    },
    mealAllowance,
    prediction,
    provenance,
  },
  // Auto-approval without a bound would approve nothing (spec 3.1 compares against the bound).
  if: {
    type: "object",
    required: ["autoApproveDemand"],
    properties: { autoApproveDemand: { const: true } },
  },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; an object, so never a thenable
  then: {
    type: "object",
    required: ["maxAutomaticRoomsPerWave"],
    properties: { maxAutomaticRoomsPerWave: true },
  },
} as const;

/** `{type: [T, "null"]}`: in a patch, null removes an optional field (JSON Merge Patch, RFC 7396). */
function removable<S extends { readonly type: "integer" | "number" | "array" | "boolean" }>(
  schema: S,
): Omit<S, "type"> & { readonly type: readonly [S["type"], "null"] } {
  return { ...schema, type: [schema.type, "null"] as const };
}

/**
 * Body of POST /policies/{urn}/patch. Objects merge into the policy one level deep; arrays and
 * `transport.perTier` replace the stored value; null removes an optional constraint. The context
 * cannot be patched: a policy of another context is a new policy. `reason` goes to the audit entry;
 * `expectedVersion` makes the patch conditional on the version the editor read (spec 7, 409).
 */
export const policyPatchSchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    reason: { type: "string", minLength: 1, maxLength: 2000 },
    expectedVersion: {
      type: "integer",
      minimum: 1,
      description:
        "The version the caller read; a policy changed since is refused with 409 version-mismatch and its currentVersion",
    },
    name,
    tiers,
    constraints: {
      type: "object",
      additionalProperties: false,
      minProperties: 1,
      properties: {
        minStars: removable(minStars),
        maxDistanceKm: removable(maxDistanceKm),
        maxNightlyRate: removable(maxNightlyRate),
        requiredAmenities,
        excludedChains,
        acceptedPayments,
        allowProviders: removable(allowProviders),
      },
    },
    buffers: {
      type: "object",
      additionalProperties: false,
      minProperties: 1,
      properties: { lateCheckoutMinutes: minutes, earlyCheckInMinutes: minutes },
    },
    mode,
    autoApproveDemand: flag,
    maxAutomaticRoomsPerWave,
    incrementalRequiresApproval: flag,
    consolidationWeight: weight,
    allocationWeights: {
      type: "object",
      additionalProperties: false,
      minProperties: 1,
      properties: { cost: weight, distance: weight, consolidation: weight },
    },
    transport: {
      type: "object",
      additionalProperties: false,
      minProperties: 1,
      properties: {
        mode: transportMode,
        perTier,
        minutesBeforePickup: removable(minutes),
        shuttleCapacity: removable(shuttleCapacity),
        passengerMayRequest: removable(passengerMayRequest),
        ridesWithOffer: removable(ridesWithOffer),
      },
    },
    mealAllowance: {
      ...mealAllowance,
      type: ["object", "null"],
      description: "Replaces the allowance; null removes it",
    },
    prediction: {
      ...prediction,
      type: ["object", "null"],
      description: "Replaces the prediction rules; null removes them",
    },
  },
} as const;
