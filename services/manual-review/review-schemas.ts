import { REVIEW_CATEGORIES } from "../../src/domain/case.js";
import { policyPatchSchema } from "../../src/domain/policy/policy-schema.js";
import { REVIEW_ITEM_STATES, REVIEW_PRIORITIES } from "../../src/domain/review-item.js";
import { pageQuery } from "../../src/http/pagination.js";
import {
  pageSchema,
  reasonSchema,
  timestampSchema,
  urnOf,
  urnSchema,
} from "../../src/http/schemas/common.js";

const nullableUrn = { type: ["string", "null"], maxLength: 512 } as const;
const nullableTimestamp = { type: ["string", "null"], format: "date-time" } as const;
const groupIds = { type: "array", items: { type: "string" } } as const;

export const reviewItemParams = {
  type: "object",
  properties: { itemUrn: urnOf("review-item") },
} as const;

export const queueQuery = pageQuery({
  category: { type: "string", enum: REVIEW_CATEGORIES },
  priority: { type: "string", enum: REVIEW_PRIORITIES },
  state: { type: "string", enum: REVIEW_ITEM_STATES },
});

/** A review item on the wire: the fields of spec 2.5, then the queue's own. */
export const reviewItemSchema = {
  type: "object",
  required: [
    "urn",
    "caseUrn",
    "airport",
    "category",
    "priority",
    "attemptedHotels",
    "affectedGroups",
    "recommendations",
    "state",
    "assignedTo",
    "reason",
    "createdAt",
    "updatedAt",
    "slaDueAt",
    "version",
  ],
  properties: {
    urn: urnSchema,
    caseUrn: urnSchema,
    airport: { type: "string" },
    category: { type: "string", enum: REVIEW_CATEGORIES },
    priority: { type: "string", enum: REVIEW_PRIORITIES },
    attemptedHotels: {
      type: "array",
      items: {
        type: "object",
        required: ["hotelUrn", "reason"],
        properties: {
          hotelUrn: urnSchema,
          reason: { type: "string", description: "e.g. hotel-full, payment-refused, rebook-failed" },
          providerError: { type: "string", description: "The vendor's own error code" },
        },
      },
    },
    affectedGroups: groupIds,
    recommendations: {
      type: "array",
      maxItems: 3,
      description: "The exception agent's proposals, most viable first (at most 3)",
      items: {
        type: "object",
        required: ["action", "reason", "source"],
        properties: {
          action: { type: "string", enum: ["rebook", "relaxPolicy"] },
          hotelUrn: { ...urnSchema, description: "For rebook" },
          fields: { type: "object", description: "For relaxPolicy: constraint fields and their new values" },
          reason: { type: "string" },
          source: { type: "string", const: "agent" },
        },
      },
    },
    state: {
      type: "string",
      enum: REVIEW_ITEM_STATES,
      description:
        "OPEN: nobody works it. ASSIGNED: one operator works it. ESCALATED: handed up (priority raised); " +
        "stays so when someone takes it. RESOLVED: closed",
    },
    assignedTo: { ...nullableUrn, description: "User URN of whoever works the item" },
    reason: {
      type: "string",
      description: "Why the item exists; for a passenger's report, the passenger's own text, as written",
    },
    raisedBy: { type: "string", enum: ["case", "booking", "passenger", "wallet"] },
    demandUrn: nullableUrn,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    slaDueAt: { ...nullableTimestamp, description: "When the SLA at the current priority runs out" },
    bookedGroups: { ...groupIds, description: "Affected groups booked since the item was raised" },
    rebooking: {
      type: ["object", "null"],
      description: "The last rebook or override and booking's answer per group",
      properties: {
        kind: { type: "string", enum: ["rebook", "override"] },
        hotelUrn: urnSchema,
        providerOfferId: { type: ["string", "null"] },
        requestedBy: urnSchema,
        reason: { type: "string" },
        requestedAt: timestampSchema,
        groups: {
          type: "array",
          items: {
            type: "object",
            properties: {
              groupId: { type: "string" },
              status: { type: "string", enum: ["REQUESTED", "BOOKED", "FAILED"] },
              reservationUrn: urnSchema,
              vendorErrorCode: { type: "string" },
            },
          },
        },
      },
    },
    relaxations: {
      type: "array",
      items: {
        type: "object",
        properties: {
          fields: { type: "object" },
          reason: { type: "string" },
          by: urnSchema,
          at: timestampSchema,
        },
      },
    },
    resolution: {
      type: ["object", "null"],
      properties: {
        resolution: { type: "string" },
        reason: { type: "string" },
        by: urnSchema,
        at: timestampSchema,
      },
    },
    version: { type: "integer" },
  },
} as const;

export const reviewPageSchema = pageSchema(reviewItemSchema);

export const assignBody = {
  type: "object",
  properties: {
    assignee: { ...urnOf("user"), description: "A user of the airline; the caller when absent" },
  },
} as const;

const resolutionSchema = {
  type: "string",
  pattern: "^[A-Z][A-Z0-9_]{0,63}$",
  description: "What settled the item, e.g. REBOOKED",
} as const;

export const resolveBody = {
  type: "object",
  required: ["resolution", "reason"],
  properties: { resolution: resolutionSchema, reason: reasonSchema },
} as const;

export const rebookBody = {
  type: "object",
  required: ["hotelUrn", "reason"],
  properties: { hotelUrn: urnOf("hotel"), reason: reasonSchema },
} as const;

export const overrideBody = {
  type: "object",
  required: ["hotelUrn", "providerOfferId", "reason"],
  properties: {
    hotelUrn: urnOf("hotel"),
    providerOfferId: { type: "string", minLength: 1, maxLength: 200 },
    reason: reasonSchema,
  },
} as const;

/** The policy's constraint fields as a policy patch writes them (null removes a constraint). */
export const relaxBody = {
  type: "object",
  required: ["fields", "reason"],
  properties: { fields: policyPatchSchema.properties.constraints, reason: reasonSchema },
} as const;
