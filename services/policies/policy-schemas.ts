import { policyCreateSchema, policyPatchSchema } from "../../src/domain/policy/policy-schema.js";
import { POLICY_STATUSES } from "../../src/domain/policy/policy.js";
import { TIERS } from "../../src/domain/policy/tiers.js";
import { reasonSchema, timestampSchema, urnOf } from "../../src/http/schemas/common.js";

/** Wire schemas of the policy routes; the rule fields come from the domain's create schema. */

/** A policy as the API returns it (spec 2.4): the rules with defaults filled in, plus its state. */
export const policySchema = {
  type: "object",
  required: [
    "urn",
    "name",
    "context",
    "tiers",
    "constraints",
    "buffers",
    "mode",
    "autoApproveDemand",
    "maxAutomaticRoomsPerWave",
    "incrementalRequiresApproval",
    "consolidationWeight",
    "allocationWeights",
    "transport",
    "version",
    "status",
    "createdAt",
    "updatedAt",
  ],
  properties: {
    ...policyCreateSchema.properties,
    context: {
      type: "object",
      required: ["airport", "airline"],
      properties: policyCreateSchema.properties.context.properties,
    },
    urn: urnOf("policy"),
    version: { type: "integer", minimum: 1, description: "Bumped by every patch" },
    status: {
      type: "string",
      enum: POLICY_STATUSES,
      description: "DRAFT has no effect; one ACTIVE per context",
    },
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  },
} as const;

export const policyWithVersionsSchema = {
  ...policySchema,
  required: [...policySchema.required, "versions"],
  properties: {
    ...policySchema.properties,
    versions: {
      type: "array",
      items: policySchema,
      description: "Every version of the policy, oldest first, as it was when written",
    },
  },
} as const;

/** POST /policies: the policy body of spec 2.4 and an optional reason for the audit trail. */
export const policyCreateBody = {
  ...policyCreateSchema,
  properties: { ...policyCreateSchema.properties, reason: reasonSchema },
} as const;

export const policyPatchBody = policyPatchSchema;

/**
 * Activation takes no body in the field manual; a reason for the audit trail and a version to
 * restore (rollback to earlier rules) are optional.
 */
export const policyActivateBody = {
  type: "object",
  properties: {
    reason: reasonSchema,
    version: {
      type: "integer",
      minimum: 1,
      description: "Restore this earlier version's rules as a new version, then activate",
    },
  },
} as const;

export const policyDeactivateBody = {
  type: "object",
  properties: { reason: reasonSchema },
} as const;

export const policySynthesisBody = {
  type: "object",
  required: ["description"],
  properties: {
    description: {
      type: "string",
      minLength: 1,
      maxLength: 4000,
      description: 'Plain-language rules, e.g. "4 stars within 10 km of JFK, max 150 a night, breakfast"',
    },
  },
} as const;

export const policyResolveQuery = {
  type: "object",
  required: ["airport"],
  properties: {
    airport: { type: "string", pattern: "^[A-Z]{3}$", description: "IATA airport code" },
    tier: { type: "string", enum: TIERS, description: "Without it only policies for every tier match" },
  },
} as const;

export const policyResolutionSchema = {
  type: "object",
  required: ["airport", "airline", "policy"],
  properties: {
    airport: { type: "string" },
    airline: { type: "string" },
    tier: { type: "string", enum: TIERS },
    policy: {
      anyOf: [policySchema, { type: "null" }],
      description: "The policy a case of this context would use; null sends such a case to manual review",
    },
  },
} as const;

export const policyUrnParams = {
  type: "object",
  properties: { policyUrn: urnOf("policy") },
} as const;
