import type { CaseServiceReads } from "../../src/app/case-services/case-services.js";
import { defineRoute } from "../../src/http/route.js";
import { caseUrnParams, urnOf } from "../../src/http/schemas/common.js";
import { partnerBookingSchema } from "../booking/booking-schemas.js";
import { auditCase } from "../cases/operator-routes.js";

const caseServicesSchema = {
  type: "object",
  required: ["caseUrn", "hotels", "transport", "walletCards"],
  properties: {
    caseUrn: urnOf("case"),
    hotels: {
      type: "array",
      items: partnerBookingSchema,
      description:
        "Every hotel reservation of the case, oldest first, with its voucher URN (as GET /partner/v1/bookings/{urn})",
    },
    transport: {
      type: "array",
      items: { type: "object" },
      description: "Ground transport segments of the case (spec 2.8); empty while none is recorded",
    },
    walletCards: {
      type: "array",
      items: { type: "object" },
      description: "Virtual prepaid cards of the case (spec 2.7); empty while none is recorded",
    },
  },
} as const;

/** `GET /partner/v1/cases/{case_urn}/services` (spec 4.3, scope cases.read). */
export function caseServicesRoute(services: CaseServiceReads) {
  return defineRoute({
    method: "GET",
    path: "/partner/v1/cases/:caseUrn/services",
    operationId: "partnerGetCaseServices",
    summary: "Hotel, transport and wallet services of a case",
    description:
      "What the platform arranged for the case's passengers, read from the records that hold it: each hotel " +
      "reservation (stay, status, guests by name, voucher URN; no cost or payment), the case's ground transport " +
      "segments and its wallet cards. A list stays empty until such a record exists; none is made up.",
    tags: ["Partner cases"],
    access: { kind: "partner", scope: "cases.read" },
    params: caseUrnParams,
    audit: auditCase(),
    responses: { 200: { description: "The services", schema: caseServicesSchema } },
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await services.ofCase(principal, params.caseUrn),
    }),
  });
}
