/**
 * JSON Schema of the entitlements section (src/domain/entitlements, CaseEntitlementsView): what each
 * passenger of a disrupted flight is owed. The operator's case read and the passenger's offer both
 * carry it.
 */
import { CARE_ITEMS, REGIMES } from "../../domain/entitlements/regimes.js";
import { TIERS } from "../../domain/policy/tiers.js";
import { moneySchema } from "./common.js";

const careItemSchema = {
  type: "object",
  required: ["item", "owed", "fromMinutes", "reason", "source"],
  properties: {
    item: { type: "string", enum: CARE_ITEMS },
    owed: { type: "boolean" },
    fromMinutes: { type: "integer", description: "Minutes of waiting from which the item is owed" },
    count: { type: "integer", description: "How many, where the rule counts them (two communications)" },
    reason: { type: "string", description: "Why it is owed or not" },
    source: { type: "string", description: "The rule that owes it" },
  },
} as const;

const regimeSchema = {
  type: "object",
  required: ["regime", "name", "source", "scope", "distanceBand", "care"],
  properties: {
    regime: { type: "string", enum: [...REGIMES, "AIRLINE_POLICY"] },
    name: { type: "string" },
    source: { type: "string" },
    scope: { type: "string", description: "Why the regime covers the flight" },
    distanceBand: {
      type: ["object", "null"],
      description:
        "EU261/UK261 Art. 6(1): the band that sets the delay threshold; band null when the distance is unknown",
      properties: {
        band: { type: ["string", "null"], enum: ["SHORT", "MEDIUM", "LONG", null] },
        delayThresholdMinutes: { type: "integer" },
        source: { type: "string" },
      },
    },
    care: { type: "array", items: careItemSchema },
  },
} as const;

const tierAllowanceSchema = {
  type: "object",
  required: ["tier", "perMeal", "amount"],
  properties: {
    tier: { type: "string", enum: TIERS },
    perMeal: moneySchema,
    amount: {
      ...moneySchema,
      description: "perMeal times the meals the wait covers; zero when none is owed",
    },
  },
} as const;

export const entitlementsSchema = {
  type: "object",
  description:
    "What each passenger is owed: the care of every passenger-rights regime covering the flight (EU261, UK261, " +
    "ANAC Resolution 400, US DOT commitments) and the airline policy, with the meal allowance (the meal card's amount)",
  required: [
    "departure",
    "arrival",
    "distanceKm",
    "disruption",
    "cause",
    "waitingMinutes",
    "overnight",
    "regimes",
    "mealAllowance",
    "groups",
  ],
  properties: {
    departure: { type: "string" },
    arrival: { type: "string" },
    distanceKm: { type: ["number", "null"], description: "Great-circle distance; null when unknown" },
    disruption: { type: "string", enum: ["CANCELLATION", "DELAY"] },
    cause: {
      type: "object",
      required: ["reason", "controllable", "decidedBy"],
      properties: {
        reason: { type: ["string", "null"] },
        controllable: { type: "boolean" },
        decidedBy: {
          type: "string",
          enum: ["reason", "default"],
          description: "default: no known reason was recorded, so the disruption counts as controllable",
        },
      },
    },
    waitingMinutes: {
      type: ["integer", "null"],
      description: "From the scheduled departure to the new one; null while there is no new departure",
    },
    overnight: { type: "boolean", description: "Whether the wait makes a night's stay necessary" },
    regimes: { type: "array", items: regimeSchema },
    mealAllowance: {
      type: "object",
      required: ["owed", "meals", "minutesPerMeal", "currency", "perTier", "source"],
      properties: {
        owed: { type: "boolean" },
        meals: {
          type: "integer",
          description: "One per started minutesPerMeal of waiting; zero when none is owed",
        },
        minutesPerMeal: { type: "integer" },
        currency: { type: ["string", "null"] },
        perTier: {
          type: "array",
          items: tierAllowanceSchema,
          description: "The tiers of the passengers shown",
        },
        source: { type: "string" },
      },
    },
    groups: {
      type: "array",
      description: "Each group's meal allowance: the sum of its passengers', the amount of its meal card",
      items: {
        type: "object",
        required: ["groupId", "amount"],
        properties: {
          groupId: { type: "string" },
          amount: { anyOf: [moneySchema, { type: "null" }] },
        },
      },
    },
  },
} as const;
