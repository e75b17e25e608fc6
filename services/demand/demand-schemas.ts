import { REVIEW_CATEGORIES } from "../../src/domain/case.js";
import { DEMAND_STATES, DEMAND_TYPES, UNHOUSED_CATEGORIES } from "../../src/domain/demand.js";
import { timestampSchema, urnOf, urnSchema } from "../../src/http/schemas/common.js";

/** Wire schemas of the demand routes (spec 2.3). */

const rooms = { type: "integer", minimum: 0 } as const;

export const demandSchema = {
  type: "object",
  required: [
    "urn",
    "caseUrn",
    "type",
    "roomsRequested",
    "state",
    "requestedBy",
    "requestedAt",
    "updatedAt",
    "decisions",
  ],
  properties: {
    urn: urnOf("demand"),
    caseUrn: urnOf("case"),
    type: { type: "string", enum: DEMAND_TYPES },
    roomsRequested: { type: "integer", minimum: 1 },
    state: { type: "string", enum: DEMAND_STATES },
    policyUrn: { ...urnOf("policy"), description: "The policy that resolved for the case at creation" },
    policyVersion: { type: "integer", minimum: 1 },
    requestedBy: urnSchema,
    requestedAt: timestampSchema,
    updatedAt: timestampSchema,
    decisions: {
      type: "array",
      description: "Who decided, when, why and under which policy version (spec 3.1)",
      items: {
        type: "object",
        required: ["action", "by", "at", "reason"],
        properties: {
          action: { type: "string", enum: ["auto-approve", "approve", "reject", "fulfil", "partial"] },
          by: { ...urnSchema, description: "User URN, or the policy URN for an automatic approval" },
          at: timestampSchema,
          reason: { type: "string" },
          policyVersion: { type: "integer", minimum: 1 },
        },
      },
    },
    reviewItemUrn: urnSchema,
  },
} as const;

/** Spec 2.3: INITIAL or INCREMENTAL; the upper bound matches the policy's automatic-approval bound. */
export const demandRequestBody = {
  type: "object",
  required: ["type", "roomsRequested"],
  properties: {
    type: {
      type: "string",
      enum: DEMAND_TYPES,
      description: "INCREMENTAL adds rooms on top of an approved INITIAL demand",
    },
    roomsRequested: { type: "integer", minimum: 1, maximum: 10000 },
  },
} as const;

export const demandSummarySchema = {
  type: "object",
  required: [
    "caseUrn",
    "totalRequested",
    "totalApproved",
    "totalAllocated",
    "totalBooked",
    "shortfall",
    "shortfallReasons",
  ],
  properties: {
    caseUrn: urnOf("case"),
    totalRequested: { ...rooms, description: "Rooms of every demand not rejected" },
    totalApproved: { ...rooms, description: "Rooms of APPROVED, FULFILLED and PARTIAL demand" },
    totalAllocated: { ...rooms, description: "Rooms assigned by allocation waves" },
    totalBooked: { ...rooms, description: "Rooms with a confirmed reservation" },
    shortfall: { ...rooms, description: "Approved rooms without a confirmed reservation" },
    shortfallReasons: {
      type: "array",
      items: {
        type: "object",
        required: ["category", "groups", "rooms"],
        properties: {
          category: { type: "string", enum: [...REVIEW_CATEGORIES, ...UNHOUSED_CATEGORIES] },
          groups: { type: "array", items: { type: "string" } },
          rooms,
        },
      },
    },
  },
} as const;

export const demandUrnParams = { type: "object", properties: { demandUrn: urnOf("demand") } } as const;
