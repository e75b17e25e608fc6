import type { FlightStateIntake } from "../../src/app/flight-states/flight-state-intake.js";
import { FLIGHT_STATUSES } from "../../src/domain/flight-state.js";
import { operators } from "../../src/http/access.js";
import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { defineRoute } from "../../src/http/route.js";
import { pageSchema } from "../../src/http/schemas/common.js";
import { caseDeclarationBody, flightSchema } from "../cases/case-schemas.js";

const detectedSchema = {
  type: "object",
  required: ["messageId", "flight", "probability", "threshold", "reasons", "observedAt", "receivedAt"],
  properties: {
    messageId: { type: "string", description: "The flight-state message that was assessed" },
    flight: {
      ...flightSchema,
      properties: { ...flightSchema.properties, status: { type: "string", enum: FLIGHT_STATUSES } },
    },
    probability: { type: "number", minimum: 0, maximum: 1 },
    threshold: {
      type: "number",
      minimum: 0,
      maximum: 1,
      description: "The policy's prediction.threshold (0.7 when none)",
    },
    reasons: {
      type: "array",
      description: "The inputs that raised the probability, strongest first",
      items: {
        type: "object",
        required: ["cause", "detail", "weight"],
        properties: {
          cause: { type: "string", enum: ["CANCELLED", "DIVERTED", "DELAY", "WEATHER", "ATC", "HISTORY"] },
          detail: { type: "string" },
          weight: { type: "number", description: "Log-odds the input added" },
        },
      },
    },
    eventUrn: { type: "string", description: "The disruption.detected event" },
    draftCase: {
      ...caseDeclarationBody,
      description: "When the policy sets prediction.draftCase: the POST /v1/cases body that opens the case",
    },
    observedAt: { type: "string", format: "date-time" },
    receivedAt: { type: "string", format: "date-time" },
  },
} as const;

/**
 * What the flight predictor flagged (spec 6.1 disruption.detected), for operators: the flights and
 * their draft cases, to open with POST /v1/cases.
 */
export function flightStateRoutes(intake: FlightStateIntake) {
  return [
    defineRoute({
      method: "GET",
      path: "/v1/disruptions/detected",
      operationId: "listDetectedDisruptions",
      summary: "Flights the predictor flagged (disruption.detected), newest first, with their draft cases",
      tags: ["Cases"],
      access: operators,
      query: pageQuery(),
      responses: { 200: { description: "A page of flagged flights", schema: pageSchema(detectedSchema) } },
      handler: ({ principal, query }) =>
        pageAnswer(
          query,
          (request) => intake.detectedPage(principal.tenant, principal.airport, request),
          ({ tenant, airport, detected, ...assessment }) => assessment,
        ),
    }),
  ];
}
