import { AMENITIES } from "../../src/domain/policy/policy.js";
import {
  airportCodeSchema,
  localDateSchema,
  moneySchema,
  partialFailureSchema,
  reasonSchema,
  timestampSchema,
  urnOf,
  urnSchema,
} from "../../src/http/schemas/common.js";

/** Wire schemas of the allocation routes (spec 2.6, 4.1 allocate, 4.2 wave routes). */

export const waveUrnParams = { type: "object", properties: { waveUrn: urnOf("wave") } } as const;

const nullableMoney = { anyOf: [moneySchema, { type: "null" }] } as const;

const rankingInputSchema = {
  type: "object",
  required: [
    "classId",
    "groupIds",
    "hotelUrn",
    "provider",
    "providerOfferId",
    "raw",
    "weightedScore",
    "outcome",
    "reasons",
  ],
  properties: {
    classId: {
      type: ["string", "null"],
      description:
        "The class of groups (rankingClasses) the verdict is about: they need the same rooms for the same nights " +
        "and share every figure of the row; null when the verdict is on the offer itself, for every group. " +
        "Each hotel that took part has, per class, one selected row for the groups placed there and one " +
        "discarded row for the rest of the class",
    },
    groupIds: {
      type: ["array", "null"],
      items: { type: "string" },
      description:
        "On a selected row, the class's groups placed in the hotel, in the wave's order; null on every other " +
        "row (a class's discarded row is about every group of the class not placed in the hotel)",
    },
    hotelUrn: urnOf("hotel"),
    provider: { type: "string" },
    providerOfferId: { type: "string" },
    raw: {
      type: "object",
      description:
        "Raw scores: cost = nightly rate x rooms x nights (for each of the row's groups), distance, consolidation",
      properties: {
        cost: nullableMoney,
        nightlyRate: nullableMoney,
        distanceKm: { type: "number" },
        consolidation: { type: "number", description: "Rooms available / rooms the wave requests" },
      },
    },
    normalized: {
      type: ["object", "null"],
      properties: {
        cost: { type: "number" },
        distance: { type: "number" },
        consolidation: { type: "number" },
      },
    },
    weightedScore: {
      type: ["number", "null"],
      description: "Penalty per room-night in [0, 1] with the policy's weights; lower is better",
    },
    outcome: { type: "string", enum: ["selected", "discarded"] },
    reasons: {
      type: "array",
      items: { type: "string" },
      description:
        "assigned, better-score-elsewhere, hotel-full, not-enough-rooms, duplicate-of:<offer>, or a policy " +
        "gate: provider-not-allowed, no-exchange-rate:<currency>, no-rooms, unrated, below-min-stars, too-far, " +
        "over-max-rate, missing-amenity:<tag>, excluded-chain, payment-not-accepted",
    },
  },
} as const;

export const waveAllocationSchema = {
  type: "object",
  required: [
    "groupId",
    "hotelUrn",
    "vendor",
    "providerOfferId",
    "alternatives",
    "rooms",
    "nights",
    "checkIn",
    "checkOut",
    "nightlyRate",
    "cost",
    "savingsVsMarket",
  ],
  properties: {
    groupId: { type: "string" },
    hotelUrn: urnOf("hotel"),
    vendor: { type: "string", description: "Inventory vendor, or direct-contract" },
    providerOfferId: { type: "string", description: "The vendor's offer id, or the contract URN" },
    alternatives: {
      type: "array",
      description: "Other offers for the same hotel, cheapest first",
      items: {
        type: "object",
        required: ["vendor", "providerOfferId", "nightlyRate"],
        properties: {
          vendor: { type: "string" },
          providerOfferId: { type: "string" },
          nightlyRate: moneySchema,
        },
      },
    },
    rooms: { type: "integer" },
    nights: { type: "integer" },
    checkIn: localDateSchema,
    checkOut: localDateSchema,
    nightlyRate: { ...moneySchema, description: "In the policy's currency, as scoring compared the offers" },
    cost: { ...moneySchema, description: "nightlyRate x rooms x nights, in the policy's currency" },
    vendorNightlyRate: {
      ...moneySchema,
      description: "The same rate as the vendor prices it, in its own currency (what the reservation shows)",
    },
    vendorCost: {
      ...moneySchema,
      description: "vendorNightlyRate x rooms x nights, in the vendor's currency",
    },
    savingsVsMarket: nullableMoney,
    isDirectContract: { type: "boolean" },
    override: {
      type: "object",
      properties: {
        by: urnSchema,
        reason: { type: "string" },
        at: timestampSchema,
        gatesOverridden: { type: "array", items: { type: "string" } },
      },
    },
  },
} as const;

const offerRecordSchema = {
  type: "object",
  properties: {
    provider: { type: "string" },
    providerOfferId: { type: "string" },
    providerHotelId: { type: "string" },
    nightlyRate: { ...moneySchema, description: "In the vendor's currency" },
    convertedNightlyRate: nullableMoney,
    marketNightlyRate: nullableMoney,
    roomsAvailable: { type: "integer" },
    payments: { type: "array", items: { type: "string" } },
    isDirectContract: { type: "boolean" },
  },
} as const;

export const waveSchema = {
  type: "object",
  required: [
    "urn",
    "tenant",
    "caseUrn",
    "airport",
    "sequence",
    "demandUrn",
    "policyUrn",
    "policyVersion",
    "status",
    "autoBook",
    "currency",
    "groups",
    "hotels",
    "rankingClasses",
    "rankingInputs",
    "allocations",
    "unallocated",
    "totalCost",
    "savingsVsMarket",
    "vendorsAnswered",
    "vendorsMissing",
    "createdAt",
  ],
  properties: {
    urn: urnOf("wave"),
    tenant: urnSchema,
    caseUrn: urnOf("case"),
    airport: airportCodeSchema,
    sequence: { type: "integer", minimum: 1, description: "The case's wave number" },
    demandUrn: { type: ["string", "null"] },
    policyUrn: urnOf("policy"),
    policyVersion: { type: "integer" },
    policyOverride: {
      type: "object",
      description:
        "Present when the case's policy override (manual review's relax) applied: the gates read the policy " +
        "with these constraint fields changed (null removes one)",
      properties: {
        fields: { type: "object" },
        by: urnSchema,
        reason: { type: "string" },
        at: timestampSchema,
      },
    },
    status: { type: "string", enum: ["COMPLETED"] },
    trigger: {
      type: "object",
      properties: {
        kind: { type: "string", enum: ["demand-approved", "batch", "manual", "rerun"] },
        by: urnSchema,
        rerunOf: urnOf("wave"),
        reviewItemUrn: {
          ...urnOf("review-item"),
          description: "The review item whose relaxation the rerun applies",
        },
      },
    },
    autoBook: { type: "boolean", description: "Booking books the allocations without being asked" },
    currency: { type: "string", description: "The policy's currency; every amount of the wave is in it" },
    groups: {
      type: "array",
      items: {
        type: "object",
        properties: {
          groupId: { type: "string" },
          rooms: { type: "integer" },
          nights: { type: "integer" },
          tier: { type: "string" },
          checkIn: localDateSchema,
          checkOut: localDateSchema,
        },
      },
    },
    skippedGroups: {
      type: "array",
      items: { type: "object", properties: { groupId: { type: "string" }, reason: { type: "string" } } },
    },
    hotels: {
      type: "array",
      description: "Every hotel the wave considered, de-duplicated, with every offer",
      items: {
        type: "object",
        properties: {
          hotelUrn: urnOf("hotel"),
          name: { type: "string" },
          address: { type: "string" },
          lat: { type: "number" },
          lon: { type: "number" },
          stars: { type: ["integer", "null"] },
          chainId: { type: ["string", "null"] },
          amenities: { type: "array", items: { type: "string", enum: AMENITIES } },
          distanceKm: { type: "number" },
          offers: { type: "array", items: offerRecordSchema },
        },
      },
    },
    rankingClasses: {
      type: "array",
      description:
        "The wave's classes of groups (same rooms, same nights), each naming its groups once: the class " +
        "verdicts of rankingInputs refer to them rather than repeat the groups for every hotel",
      items: {
        type: "object",
        required: ["classId", "rooms", "nights", "groupIds"],
        properties: {
          classId: { type: "string", description: "<rooms>x<nights>" },
          rooms: { type: "integer" },
          nights: { type: "integer" },
          groupIds: { type: "array", items: { type: "string" }, description: "In the wave's order" },
        },
      },
    },
    rankingInputs: {
      type: "array",
      items: rankingInputSchema,
      description:
        "Every candidate with raw scores, weighted score and why it was selected or discarded: offer-level rows " +
        "(classId null), then per class of groups (rankingClasses) one or two rows per hotel",
    },
    allocations: { type: "array", items: waveAllocationSchema },
    unallocated: {
      type: "array",
      items: {
        type: "object",
        properties: {
          groupId: { type: "string" },
          reason: {
            type: "string",
            enum: [
              "tier-not-covered",
              "no-policy-compliant-hotel",
              "no-hotel-with-enough-rooms",
              "capacity-exhausted",
            ],
          },
        },
      },
    },
    totalCost: moneySchema,
    savingsVsMarket: {
      ...moneySchema,
      description: "Direct contracts against the market rate of the same hotel",
    },
    vendorsAnswered: { type: "array", items: { type: "string" } },
    vendorsMissing: { type: "array", items: { type: "object" } },
    searchedAt: timestampSchema,
    overrides: {
      type: "array",
      items: {
        type: "object",
        properties: {
          groupId: { type: "string" },
          by: urnSchema,
          reason: { type: "string" },
          at: timestampSchema,
          before: { anyOf: [waveAllocationSchema, { type: "null" }] },
          after: waveAllocationSchema,
        },
      },
    },
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  },
} as const;

/** What an allocation trigger did. */
export const allocationResultSchema = {
  type: "object",
  required: ["outcome", "caseUrn", "waveUrn"],
  properties: {
    outcome: {
      type: "string",
      enum: ["WAVE_COMPLETED", "MANUAL_REVIEW", "ALREADY_HANDLED"],
      description:
        "MANUAL_REVIEW: no policy matched the case, which went to manual review with a POLICY_VIOLATION item",
    },
    caseUrn: urnOf("case"),
    waveUrn: { type: ["string", "null"] },
    reason: { type: "string" },
    wave: waveSchema,
  },
} as const;

export const caseAllocationSchema = {
  type: "object",
  required: ["caseUrn", "allocation", "partialFailures"],
  properties: {
    caseUrn: urnOf("case"),
    allocation: {
      anyOf: [allocationResultSchema, { type: "null" }],
      description: "Null when the allocation sub-call failed or is still running (see partialFailures)",
    },
    partialFailures: {
      type: "array",
      items: {
        ...partialFailureSchema,
        properties: {
          ...partialFailureSchema.properties,
          domain: {
            type: "string",
            description: "allocation, or inventory:<vendor> for a vendor that did not answer",
          },
        },
      },
    },
  },
} as const;

export const allocateBody = {
  type: "object",
  properties: {
    caseUrn: { ...urnOf("case"), description: "Allocate for the case's latest approved demand" },
    demandUrn: { ...urnOf("demand"), description: "Allocate for this approved demand" },
  },
  minProperties: 1,
  maxProperties: 1,
  description: "Exactly one of caseUrn and demandUrn",
} as const;

export const overrideBody = {
  type: "object",
  required: ["groupId", "hotelUrn", "reason"],
  properties: {
    groupId: { type: "string", minLength: 1, maxLength: 64 },
    hotelUrn: { ...urnOf("hotel"), description: "A hotel the wave considered (see `hotels`)" },
    reason: reasonSchema,
  },
} as const;

export const rerunBody = {
  type: "object",
  properties: { reason: reasonSchema },
} as const;
