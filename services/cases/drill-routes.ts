import type { DrillRequest } from "../../src/app/cases/drills.js";
import { admins } from "../../src/http/access.js";
import { defineRoute } from "../../src/http/route.js";
import { airportCodeSchema, urnOf } from "../../src/http/schemas/common.js";
import { caseSchema } from "./case-schemas.js";
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

/** Drills (spec 4.2): ADMIN only; the pipeline audits the request. */
export function drillRoutes(cases: CaseUseCases) {
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
  ];
}
