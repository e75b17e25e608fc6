import { AGENT_ACTION_STATES } from "../../src/domain/agent/agent-action.js";
import { AGENT_TOOLS } from "../../src/domain/agent/agent-tools.js";
import { MAX_RECOMMENDATIONS } from "../../src/domain/agent/recommendations.js";
import { TRIAGE_CAUSES } from "../../src/domain/agent/triage.js";
import { reasonSchema, timestampSchema, urnOf, urnSchema } from "../../src/http/schemas/common.js";

export const agentActionParams = {
  type: "object",
  properties: { actionUrn: urnOf("agent-action") },
} as const;

/** What triage is about: one review item, or every unresolved item of a case. */
export const triageBody = {
  type: "object",
  properties: {
    reviewItemUrn: { ...urnOf("review-item"), description: "Triage this review item" },
    caseUrn: { ...urnOf("case"), description: "Triage every unresolved review item of this case" },
  },
} as const;

export const decisionBody = {
  type: "object",
  properties: { reason: reasonSchema },
} as const;

const evidenceSchema = {
  type: "object",
  required: ["source", "detail"],
  properties: {
    source: { type: "string", enum: ["review-item", "wave", "case"] },
    detail: { type: "string" },
  },
} as const;

const decisionSchema = {
  type: ["object", "null"],
  properties: {
    by: urnSchema,
    reason: { type: ["string", "null"] },
    at: timestampSchema,
  },
} as const;

export const agentActionSchema = {
  type: "object",
  required: [
    "urn",
    "caseUrn",
    "reviewItemUrn",
    "cause",
    "tool",
    "arguments",
    "reason",
    "evidence",
    "rank",
    "irreversible",
    "state",
    "proposedBy",
    "proposedAt",
    "approval",
    "rejection",
    "execution",
    "version",
  ],
  properties: {
    urn: urnSchema,
    caseUrn: urnSchema,
    reviewItemUrn: urnSchema,
    airport: { type: "string" },
    cause: { type: "string", enum: TRIAGE_CAUSES },
    tool: { type: "string", enum: AGENT_TOOLS, description: "One of the agent's allow-list" },
    arguments: {
      type: "object",
      description: "proposeRebook: hotelUrn; relax: fields (constraint to new value); split: into",
    },
    reason: { type: "string" },
    evidence: { type: "array", items: evidenceSchema },
    rank: { type: "integer", minimum: 1, maximum: MAX_RECOMMENDATIONS, description: "1 is the most viable" },
    explanation: { type: ["string", "null"], description: "The language model's, when one re-ranked" },
    irreversible: {
      type: "boolean",
      description: "Executes only once an operator approved it, as that operator (a booking confirmation)",
    },
    state: { type: "string", enum: AGENT_ACTION_STATES },
    proposedBy: urnSchema,
    proposedAt: timestampSchema,
    approval: decisionSchema,
    rejection: decisionSchema,
    execution: {
      type: ["object", "null"],
      properties: {
        by: urnSchema,
        as: { ...urnSchema, description: "The operator the execution ran as" },
        at: timestampSchema,
        error: {
          type: ["object", "null"],
          properties: { code: { type: "string" }, message: { type: "string" } },
        },
      },
    },
    executingSince: { type: ["string", "null"], format: "date-time" },
    version: { type: "integer" },
  },
} as const;

export const triageSchema = {
  type: "object",
  required: ["triages"],
  properties: {
    triages: {
      type: "array",
      items: {
        type: "object",
        required: ["reviewItemUrn", "caseUrn", "classification", "proposals"],
        properties: {
          reviewItemUrn: urnSchema,
          caseUrn: urnSchema,
          classification: {
            type: "object",
            required: ["cause", "explanation", "evidence"],
            properties: {
              cause: { type: "string", enum: TRIAGE_CAUSES },
              explanation: { type: "string" },
              evidence: { type: "array", items: evidenceSchema },
            },
          },
          proposals: { type: "array", maxItems: MAX_RECOMMENDATIONS, items: agentActionSchema },
        },
      },
    },
  },
} as const;
