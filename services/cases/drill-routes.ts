import type { DrillRequest } from "../../src/app/cases/drills.js";
import type { ShadowCases } from "../../src/app/metrics/shadow-cases.js";
import { admins } from "../../src/http/access.js";
import { defineRoute } from "../../src/http/route.js";
import {
  airportCodeSchema,
  caseUrnParams,
  moneySchema,
  timestampSchema,
  urnOf,
  urnSchema,
} from "../../src/http/schemas/common.js";
import { caseSchema } from "./case-schemas.js";
import { auditCase } from "./operator-routes.js";
import type { CaseUseCases } from "./case-use-cases.js";

/** The largest synthetic disruption: a widebody's load. */
const MAX_SYNTHETIC_PASSENGERS = 500;

/** Spec 4.2 "Run a drill or shadow case: ADMIN": a past case's manifest, or a synthetic one. */
export const drillBody = {
  type: "object",
  description: "Exactly one of fromCaseUrn (replay a past case) or synthetic",
  oneOf: [
    {
      type: "object",
      required: ["fromCaseUrn"],
      additionalProperties: false,
      properties: { fromCaseUrn: urnOf("case") },
    },
    {
      type: "object",
      required: ["synthetic"],
      additionalProperties: false,
      properties: {
        synthetic: {
          type: "object",
          required: ["airport", "passengers"],
          additionalProperties: false,
          properties: {
            airport: airportCodeSchema,
            destination: airportCodeSchema,
            passengers: { type: "integer", minimum: 1, maximum: MAX_SYNTHETIC_PASSENGERS },
          },
        },
      },
    },
  ],
} as const;

const nullableMoney = { anyOf: [moneySchema, { type: "null" }] } as const;

/** The shadow report (src/app/metrics/shadow-cases.ts). */
export const shadowReportSchema = {
  type: "object",
  required: ["caseUrn", "computedAt", "automation", "operators", "difference"],
  properties: {
    caseUrn: urnOf("case"),
    tenant: urnSchema,
    computedAt: timestampSchema,
    computedBy: { type: "string" },
    automation: {
      type: "object",
      description: "What the allocation engine would allocate for the case as it stands (nothing booked)",
      properties: {
        outcome: { type: "string", enum: ["PLANNED", "NO_POLICY"] },
        reason: { type: ["string", "null"] },
        policyUrn: { type: ["string", "null"] },
        totalCost: nullableMoney,
        rooms: { type: "integer" },
        groupsHoused: { type: "integer" },
        groupsLeftOut: { type: "integer" },
        timeToFirstOfferSeconds: {
          type: ["number", "null"],
          description:
            "Estimated: the median seconds to first offer of the tenant's automated cases of the last 30 days (every room held by a wave; drills and this case left out); null with none",
        },
        timeToFirstOfferSampleSize: { type: "integer", description: "How many cases that median is over" },
        allocations: {
          type: "array",
          items: {
            type: "object",
            properties: {
              groupId: { type: "string" },
              hotelUrn: { type: "string" },
              rooms: { type: "integer" },
              nights: { type: "integer" },
              cost: moneySchema,
            },
          },
        },
      },
    },
    operators: {
      type: "object",
      description: "What was done: the reservations holding rooms, and the time to the first offer",
      properties: {
        reservations: { type: "integer" },
        byOperators: { type: "integer", description: "Reservations not made by a wave" },
        rooms: { type: "integer" },
        groupsHoused: { type: "integer" },
        totalCost: nullableMoney,
        timeToFirstOfferSeconds: { type: ["number", "null"] },
        reason: { type: ["string", "null"] },
      },
    },
    difference: {
      type: "object",
      description: "Automation minus what was done; null where they cannot be compared",
      properties: {
        totalCost: nullableMoney,
        rooms: { type: ["integer", "null"] },
        timeToFirstOfferSeconds: { type: ["number", "null"] },
      },
    },
  },
} as const;

/** Drills and shadow cases (spec 4.2): ADMIN only; the pipeline audits every write. */
export function drillRoutes(cases: CaseUseCases, shadows: ShadowCases) {
  return [
    defineRoute({
      method: "POST",
      path: "/v1/drills",
      operationId: "runDrill",
      summary: "Run a drill: replay a past disruption, or a synthetic one, against the simulators",
      description:
        "Opens a new case marked drill: true that automation works like any other. No passenger is notified " +
        "(the send log records each send as SUPPRESSED), no partner webhook is delivered, partner metrics " +
        "leave the case out, and every read of the case shows drill: true.",
      tags: ["Cases"],
      access: admins,
      body: drillBody,
      audit: {
        action: "drill.run",
        // The trail names the drill's case, which only the answer knows.
        subject: (_input, response) => {
          const urn = (response.body as { urn?: string } | undefined)?.urn ?? null;
          return { entityUrn: urn, caseUrn: urn };
        },
      },
      responses: { 201: { description: "The drill's case", schema: caseSchema } },
      handler: async ({ principal, body, correlationUrn }) => {
        const result = await cases.drills.run(principal, body as DrillRequest, correlationUrn);
        return {
          status: 201,
          body: await cases.reads.view(result.snapshot, { withContacts: true }),
          headers: { Location: `/v1/cases/${encodeURIComponent(result.snapshot.case.urn)}` },
        };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/cases/:caseUrn/shadow",
      operationId: "runShadowCase",
      summary: "Shadow a live case: what automation would have done against what was done",
      description:
        "Runs the allocation engine on the case as it stands, without booking, notifying or publishing " +
        "anything, and compares its plan (cost, rooms) with the case's reservations and its time to first " +
        "offer. The report is kept: GET answers the last one.",
      tags: ["Cases"],
      access: admins,
      params: caseUrnParams,
      audit: auditCase("shadow.run"),
      responses: {
        200: { description: "The shadow report", schema: shadowReportSchema },
        404: { description: "No such case" },
      },
      handler: async ({ principal, params }) => {
        const { _id, ...report } = await shadows.run(principal, params.caseUrn);
        return { status: 200, body: report };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/v1/cases/:caseUrn/shadow",
      operationId: "getShadowReport",
      summary: "The last shadow report of a case",
      tags: ["Cases"],
      access: admins,
      params: caseUrnParams,
      responses: {
        200: { description: "The shadow report", schema: shadowReportSchema },
        404: { description: "No such case, or no shadow report yet" },
      },
      handler: async ({ principal, params }) => {
        const { _id, ...report } = await shadows.last(principal, params.caseUrn);
        return { status: 200, body: report };
      },
    }),
  ];
}
