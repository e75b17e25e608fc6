import { operators, supervisors } from "../../src/http/access.js";
import type { CaseDemandSummary } from "../../src/app/demand/demand-summary.js";
import type { DemandAdministration } from "../../src/app/demand/demand-administration.js";
import type { DemandIndex } from "../../src/app/demand/demand-index.js";
import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { defineRoute, type HandlerInput, withFieldManualForm } from "../../src/http/route.js";
import { caseUrnParams, pageSchema, reasonBody } from "../../src/http/schemas/common.js";
import { demandRequestBody, demandSchema, demandSummarySchema, demandUrnParams } from "./demand-schemas.js";

const tags = ["Demand"] as const;

type Request = Pick<HandlerInput<typeof operators>, "principal" | "correlationUrn">;
type RequestInput = Request & {
  params: { caseUrn: string };
  body: { type: "INITIAL" | "INCREMENTAL"; roomsRequested: number };
};
type DecisionInput = Request & { params: { demandUrn: string }; body: { reason: string } };

const requested = {
  201: {
    description: "The demand: APPROVED when the policy approves it automatically, else REQUESTED",
    schema: demandSchema,
  },
};
const decided = { 200: { description: "The demand after the decision", schema: demandSchema } };

/** The demand audit entry names the demand created and its case. */
const requestAudit = {
  action: "demand.request",
  subject: ({ params }: { params: { caseUrn: string } }, response: { body?: unknown }) => ({
    entityUrn: (response.body as { urn?: string } | undefined)?.urn ?? null,
    caseUrn: params.caseUrn,
  }),
};

/** The demand routes of spec 4.1 and their field-manual forms (4.2), which reuse the same handlers. */
export function demandRoutes(demand: DemandAdministration, summaries: CaseDemandSummary, index: DemandIndex) {
  const request = async ({ principal, correlationUrn, params, body }: RequestInput) => ({
    status: 201 as const,
    body: await demand.request({ principal, correlationUrn }, params.caseUrn, body),
  });
  const approve = async ({ principal, correlationUrn, params, body }: DecisionInput) => ({
    status: 200 as const,
    body: await demand.approve({ principal, correlationUrn }, params.demandUrn, body.reason),
  });
  const reject = async ({ principal, correlationUrn, params, body }: DecisionInput) => ({
    status: 200 as const,
    body: await demand.reject({ principal, correlationUrn }, params.demandUrn, body.reason),
  });
  const summary = async ({ principal, params }: Request & { params: { caseUrn: string } }) => ({
    status: 200 as const,
    body: await summaries.of(principal, params.caseUrn),
  });
  const decisionRoute = (
    path: `/v1/demand/:demandUrn/${"approve" | "reject"}`,
    operationId: string,
    handler: typeof approve,
  ) =>
    defineRoute({
      method: "POST",
      path,
      operationId,
      summary: `${path.endsWith("approve") ? "Approve" : "Reject"} REQUESTED demand, with a reason`,
      tags,
      access: supervisors,
      params: demandUrnParams,
      body: reasonBody,
      responses: decided,
      handler,
    });

  return [
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/demand/case/:caseUrn",
        operationId: "requestDemand",
        summary: "Request rooms for a case (INITIAL or INCREMENTAL)",
        description:
          "The airline's policy for the case's airport decides (spec 3.1): APPROVED at once when autoApproveDemand is true and roomsRequested <= maxAutomaticRoomsPerWave (and, for INCREMENTAL, incrementalRequiresApproval is not true); otherwise REQUESTED for a supervisor. One INITIAL demand per case; INCREMENTAL needs an approved INITIAL.",
        tags,
        access: operators,
        params: caseUrnParams,
        body: demandRequestBody,
        responses: requested,
        audit: requestAudit,
        handler: request,
      }),
      { path: "/demand/case/:caseUrn", operationId: "requestDemandFieldManual" },
    ),
    ...withFieldManualForm(decisionRoute("/v1/demand/:demandUrn/approve", "approveDemand", approve), {
      path: "/demand/:demandUrn/approve",
      operationId: "approveDemandFieldManual",
    }),
    ...withFieldManualForm(decisionRoute("/v1/demand/:demandUrn/reject", "rejectDemand", reject), {
      path: "/demand/:demandUrn/reject",
      operationId: "rejectDemandFieldManual",
    }),
    defineRoute({
      method: "GET",
      path: "/v1/demand/pending/approvals",
      operationId: "listPendingDemand",
      summary: "REQUESTED demand waiting for a supervisor, oldest first",
      tags,
      access: supervisors,
      query: pageQuery(),
      responses: { 200: { description: "A page of REQUESTED demand", schema: pageSchema(demandSchema) } },
      handler: ({ principal, query }) =>
        pageAnswer(query, (request) => index.pendingPage(principal.tenant, principal.airport, request)),
    }),
    ...withFieldManualForm(
      defineRoute({
        method: "GET",
        path: "/v1/demand/case/:caseUrn/summary",
        operationId: "getDemandSummary",
        summary: "Demand of a case against what was allocated and booked",
        tags,
        access: operators,
        params: caseUrnParams,
        responses: {
          200: { description: "Totals in rooms and shortfall reasons", schema: demandSummarySchema },
        },
        handler: summary,
      }),
      { path: "/demand/case/:caseUrn/summary", operationId: "getDemandSummaryFieldManual" },
    ),
  ];
}
