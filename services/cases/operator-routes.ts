import { admins, operators } from "../../src/http/access.js";
import type { CaseDeclaration } from "../../src/app/cases/intake.js";
import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { serialisedOnce } from "../../src/http/serialised-body.js";
import {
  type AuditSubject,
  defineRoute,
  type HandlerInput,
  withFieldManualForm,
} from "../../src/http/route.js";
import { parseUrn } from "../../src/domain/urn.js";
import { caseUrnParams, reasonBody } from "../../src/http/schemas/common.js";
import { splitBody } from "../../src/http/schemas/passenger-groups.js";
import {
  caseDeclarationBody,
  caseSchema,
  dashboardSchema,
  manifestPageSchema,
  mergeBody,
  optionalReasonBody,
  reaccommodateBody,
  regroupBody,
  uploadOutcomeSchema,
  uploadSchema,
} from "./case-schemas.js";
import { caseListing } from "./case-listing.js";
import type { CaseUseCases } from "./case-use-cases.js";
import { readFilePart } from "./multipart-file.js";

const declarers = { kind: "operator", anyOf: ["OPS_SUPERVISOR", "INTEGRATION"] } as const;
const tags = ["Cases"] as const;

type Input = Pick<HandlerInput<typeof operators>, "principal" | "correlationUrn">;

/** `urn:zx:case:<id>` and `urn:case:<id>` name the same case: the trail uses the short form. */
export function canonicalCaseUrn(value: string): string {
  const parsed = parseUrn(value, "case");
  return parsed ? `urn:case:${parsed.id}` : value;
}

/** Names the case of the path in the audit entry, under `action`. */
export function auditCase(action?: string): AuditSubject {
  return {
    ...(action ? { action } : {}),
    subject: ({ params }) => {
      const urn = canonicalCaseUrn(String((params as { caseUrn: string }).caseUrn));
      return { entityUrn: urn, caseUrn: urn };
    },
  };
}

const caseResponses = { 200: { description: "The case", schema: caseSchema } } as const;

/**
 * The operator case routes of spec 4.1 and their field-manual forms of 4.2, which reuse the same
 * handlers. Roles the spec leaves open (split, merge, bulk upload, reaccommodate) follow
 * passenger-groups: AIRPORT_OPERATOR and above, scoped to the operator's airport.
 */
export function operatorCaseRoutes(cases: CaseUseCases) {
  const view = (snapshot: Parameters<CaseUseCases["reads"]["view"]>[0]) =>
    cases.reads.view(snapshot, { withContacts: true });
  /** Every command on a case answers with the case as the command left it. */
  const changedCase = async (change: Promise<{ snapshot: Parameters<typeof view>[0] }>) => ({
    status: 200 as const,
    body: await view((await change).snapshot),
  });

  const declare = async (input: Input & { body: CaseDeclaration }) => {
    const result = await cases.intake.declare(input.principal, input.body, input.correlationUrn);
    return {
      status: result.created ? (201 as const) : (200 as const),
      body: await view(result.snapshot),
      headers: { Location: `/v1/cases/${encodeURIComponent(result.snapshot.case.urn)}` },
    };
  };

  const detail = async (input: Input & { params: { caseUrn: string } }) => ({
    status: 200 as const,
    // A case read again unchanged is the same view (CaseReads.view): its JSON is written once.
    body: serialisedOnce(
      await cases.reads.detail(input.principal, input.params.caseUrn, { withContacts: true }),
    ),
  });
  const close = (input: Input & { params: { caseUrn: string }; body: { reason: string } }) =>
    changedCase(
      cases.status.close(input.principal, input.params.caseUrn, input.body.reason, input.correlationUrn),
    );
  const reopen = (input: Input & { params: { caseUrn: string }; body: { reason?: string } }) =>
    changedCase(
      cases.status.reopen(input.principal, input.params.caseUrn, input.body.reason, input.correlationUrn),
    );

  return [
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/cases",
        operationId: "createCase",
        summary: "Declare a disruption (open a case)",
        tags,
        access: declarers,
        body: caseDeclarationBody,
        description:
          "Idempotent per airline on externalEventId: a replay, even many at once, answers 200 with the case " +
          "the first request opened, and opens nothing new. INTEGRATION service tokens may declare too.",
        responses: {
          201: { description: "The case was opened", schema: caseSchema },
          200: { description: "A replay: the case this disruption already opened", schema: caseSchema },
        },
        handler: declare,
      }),
      {
        path: "/cases",
        operationId: "createCaseFieldManual",
        summary: "Declare a disruption (field-manual form)",
      },
    ),
    defineRoute({
      method: "GET",
      path: "/v1/cases",
      operationId: "listCases",
      description:
        "Sorted by openedAt descending, then URN. An airport-scoped operator sees its airport only.",
      tags,
      access: operators,
      ...caseListing(cases),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/cases/dashboard",
      operationId: "getCaseDashboard",
      summary: "Case counts, open review items and room demand (composition route)",
      description:
        "Three sub-calls run at once, each with a 3 s timeout; a failed one is null in the answer and named in " +
        "partialFailures while the rest is returned.",
      tags,
      access: operators,
      query: { type: "object", properties: { airport: { type: "string", pattern: "^[A-Z]{3}$" } } },
      responses: { 200: { description: "The dashboard", schema: dashboardSchema } },
      handler: async ({ principal, query }) => ({
        status: 200,
        body: await cases.dashboard.read(principal, query.airport),
      }),
    }),
    ...withFieldManualForm(
      defineRoute({
        method: "GET",
        path: "/v1/cases/:caseUrn",
        operationId: "getCase",
        summary: "Case detail",
        tags,
        access: operators,
        params: caseUrnParams,
        responses: caseResponses,
        handler: detail,
      }),
      {
        path: "/cases/:caseUrn",
        operationId: "getCaseFieldManual",
        summary: "Case detail (field-manual form)",
      },
    ),
    defineRoute({
      method: "GET",
      path: "/v1/cases/:caseUrn/manifest",
      operationId: "getCaseManifest",
      summary: "The case's sub-cases, one per passenger group, in group order",
      tags,
      access: operators,
      params: caseUrnParams,
      query: pageQuery(),
      responses: { 200: { description: "A page of sub-cases", schema: manifestPageSchema } },
      handler: ({ principal, params, query }) =>
        pageAnswer(query, (request) => cases.reads.manifest(principal, params.caseUrn, request)),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/cases/:caseUrn/passenger-groups",
      operationId: "regroupPassengers",
      summary: "Group the case's passengers for allocation",
      description:
        "Replaces the grouping: `groups` lists every passenger of the case exactly once. Sub-cases follow the new " +
        "groups (case.amended); groups spanning tiers or missing required data raise review items.",
      tags,
      access: operators,
      params: caseUrnParams,
      body: regroupBody,
      audit: auditCase("case.regroup"),
      responses: caseResponses,
      handler: (input) =>
        changedCase(
          cases.manifest.regroup(
            input.principal,
            input.params.caseUrn,
            input.body.groups,
            input.body.reason,
            input.correlationUrn,
          ),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/cases/:caseUrn/groups/:groupId/split",
      operationId: "splitPassengerGroup",
      summary: "Split a passenger group",
      description:
        "The parts are named `<groupId>-1`, `<groupId>-2`, ...; every passenger of the group in exactly one part.",
      tags,
      access: operators,
      params: {
        type: "object",
        properties: {
          caseUrn: caseUrnParams.properties.caseUrn,
          groupId: { type: "string", minLength: 1, maxLength: 64 },
        },
      },
      body: splitBody,
      audit: auditCase("case.group-split"),
      responses: caseResponses,
      handler: (input) =>
        changedCase(
          cases.manifest.split(
            input.principal,
            input.params.caseUrn,
            input.params.groupId,
            input.body.into,
            input.body.reason,
            input.correlationUrn,
          ),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/cases/:caseUrn/groups\\:merge",
      operationId: "mergePassengerGroups",
      summary: "Merge passenger groups",
      description: "The merged group keeps the first named group's id (and its sub-case).",
      tags,
      access: operators,
      params: caseUrnParams,
      body: mergeBody,
      audit: auditCase("case.groups-merge"),
      responses: caseResponses,
      handler: (input) =>
        changedCase(
          cases.manifest.merge(
            input.principal,
            input.params.caseUrn,
            input.body.groupIds,
            input.body.reason,
            input.correlationUrn,
          ),
        ),
    }),
    defineRoute({
      method: "POST",
      path: "/cases/:caseUrn/passengers\\:bulk",
      operationId: "uploadPassengers",
      summary: "Add passengers from a spreadsheet (.xlsx or .csv)",
      description:
        "multipart/form-data with the file in the part `file`. Valid rows are kept (a row whose passengerId is " +
        "already on the case corrects that passenger); each invalid row is left out and reported in `errors`. " +
        "Rows group by PNR unless groupId is given.",
      tags,
      access: operators,
      params: caseUrnParams,
      upload: { contentType: "multipart/form-data", schema: uploadSchema },
      audit: auditCase("case.passengers-upload"),
      responses: { 200: { description: "What was kept and what was left out", schema: uploadOutcomeSchema } },
      handler: async ({ principal, params, ctx, correlationUrn }) => {
        const file = await readFilePart(ctx, "file");
        return {
          status: 200,
          body: await cases.manifest.upload(principal, params.caseUrn, file, correlationUrn),
        };
      },
    }),
    defineRoute({
      method: "PATCH",
      path: "/cases/:caseUrn/reaccommodate",
      operationId: "reaccommodateCase",
      summary: "Recompute the stay plan for a new next flight",
      description:
        "Extends or shortens reservations where possible, marks groups needing a new booking for rebooking, and " +
        "marks LOCAL_RESIDENT the groups left without an overnight gap. The plan is in `stayPlan`; the change " +
        "is audited with action `reaccommodate`.",
      tags,
      access: operators,
      params: caseUrnParams,
      body: reaccommodateBody,
      audit: auditCase("reaccommodate"),
      responses: caseResponses,
      handler: (input) =>
        changedCase(
          cases.reaccommodation.execute(
            input.principal,
            input.params.caseUrn,
            {
              nextFlight: input.body.nextFlight,
              utcOffsetMinutes: input.body.utcOffsetMinutes,
              ...(input.body.reason ? { reason: input.body.reason } : {}),
            },
            input.correlationUrn,
          ),
        ),
    }),
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/cases/:caseUrn/close",
        operationId: "closeCase",
        summary: "Close a case with a reason",
        tags,
        access: operators,
        params: caseUrnParams,
        body: reasonBody,
        audit: auditCase("case.close"),
        description:
          "After the close the case accepts no change (409 case-closed) and every passenger token of the case " +
          "is refused (403 case-closed).",
        responses: caseResponses,
        handler: close,
      }),
      {
        path: "/cases/:caseUrn/close",
        operationId: "closeCaseFieldManual",
        summary: "Close a case with a reason (field-manual form)",
      },
    ),
    ...withFieldManualForm(
      defineRoute({
        method: "POST",
        path: "/v1/cases/:caseUrn/reopen",
        operationId: "reopenCase",
        summary: "Reopen a closed case",
        tags,
        access: admins,
        params: caseUrnParams,
        body: optionalReasonBody,
        audit: auditCase("case.reopen"),
        description:
          "ADMIN only; the request is audited before the case moves. Passenger tokens issued before the close stay revoked.",
        responses: caseResponses,
        handler: reopen,
      }),
      {
        path: "/cases/:caseUrn/reopen",
        operationId: "reopenCaseFieldManual",
        summary: "Reopen a closed case (field-manual form)",
      },
    ),
  ];
}
