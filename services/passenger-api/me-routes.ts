import { passengerProfile } from "../../src/app/passengers/passenger-profile.js";
import { defineRoute } from "../../src/http/route.js";
import { airportCodeSchema, timestampSchema, urnOf } from "../../src/http/schemas/common.js";
import type { CaseUseCases } from "../cases/case-use-cases.js";

const nullableString = { type: ["string", "null"] } as const;

export const passengerProfileSchema = {
  type: "object",
  required: ["caseUrn", "caseStatus", "flight", "group", "passengers", "tier", "language"],
  additionalProperties: false,
  properties: {
    caseUrn: urnOf("case"),
    caseStatus: { type: "string" },
    flight: {
      type: "object",
      required: ["number", "origin", "destination", "scheduledDeparture"],
      additionalProperties: false,
      properties: {
        number: { type: "string" },
        origin: airportCodeSchema,
        destination: airportCodeSchema,
        scheduledDeparture: timestampSchema,
      },
    },
    group: {
      type: "object",
      required: ["id", "pnr", "subCaseUrn"],
      additionalProperties: false,
      properties: { id: { type: "string" }, pnr: nullableString, subCaseUrn: urnOf("sub-case") },
    },
    passengers: {
      type: "array",
      description: "The passengers of the session's group only",
      items: {
        type: "object",
        required: ["id", "firstName", "lastName", "tier"],
        additionalProperties: false,
        properties: {
          id: { type: "string" },
          firstName: nullableString,
          lastName: { type: "string" },
          tier: nullableString,
        },
      },
    },
    tier: { ...nullableString, description: "The group's tier (its lead passenger's)" },
    language: {
      ...nullableString,
      description: "The lead passenger's preferred language, when the airline sent one",
    },
  },
} as const;

/** The passenger's own view of the case (spec 6.3), opened by the session token alone. */
export function passengerMeRoutes(cases: CaseUseCases) {
  return [
    defineRoute({
      method: "GET",
      path: "/v1/me",
      operationId: "getPassengerProfile",
      summary: "The passenger's profile within the case: group, tier, language",
      description:
        "The case and group come from the session token, never from the request: a token for one case " +
        "cannot read another. 404 `group-not-found` when the group was merged or split away since the " +
        "session began (log in again).",
      tags: ["Passenger"],
      access: { kind: "passenger" },
      responses: {
        200: { description: "The session's group within its case", schema: passengerProfileSchema },
      },
      handler: async ({ principal }) => {
        const snapshot = await cases.changes.snapshot(principal.caseUrn, principal);
        return { status: 200, body: passengerProfile(snapshot, principal) };
      },
    }),
  ];
}
