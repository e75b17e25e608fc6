import { pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { PARTNER_WRITE_BOUNDS } from "../../src/app/partner-write-bounds.js";
import { priorityOf } from "../../src/domain/case-priority.js";
import { tooManyRequests } from "../../src/http/rate-limit.js";
import { defineRoute } from "../../src/http/route.js";
import { serialisedOnce } from "../../src/http/serialised-body.js";
import { caseUrnParams, timestampSchema, urnOf } from "../../src/http/schemas/common.js";
import {
  casePageSchema,
  caseSchema,
  disruptionAcceptedSchema,
  disruptionPageSchema,
  disruptionPushBody,
  manifestAmendmentBody,
  passengerPageSchema,
  priorityRequestBody,
  priorityRequestAnswerSchema,
} from "./case-schemas.js";
import { caseListing } from "./case-listing.js";
import type { CaseUseCases } from "./case-use-cases.js";
import { auditCase } from "./operator-routes.js";

const tags = ["Partner cases"] as const;
const readers = { kind: "partner", scope: "cases.read" } as const;
const publishers = { kind: "partner", scope: "disruptions.events.publish" } as const;
const subscribers = { kind: "partner", scope: "disruptions.events.subscribe" } as const;
const prioritisers = { kind: "partner", scope: "cases.priority.request" } as const;

/** A partner's read of one case, audited against the case. */
const caseRead = { tags, access: readers, params: caseUrnParams, audit: auditCase() } as const;

/** Partners see case state and manifests, not passengers' contact details. */
const partnerView = { withContacts: false } as const;

/**
 * The partner case routes of spec 4.3. Reads and writes are audited against the partner by the
 * HTTP layer. The manifest amendment has no scope in the spec: it takes disruptions.events.publish,
 * the scope of the integration that pushed the disruption, since amending the manifest continues
 * that push (cases.read grants reading only).
 */
export function partnerCaseRoutes(cases: CaseUseCases) {
  return [
    defineRoute({
      method: "POST",
      path: "/partner/v1/disruptions",
      operationId: "pushDisruption",
      summary: "Push a disruption; a case is opened for it",
      description:
        "Idempotent per airline on externalEventId (the Idempotency-Key header may be omitted): a replay answers " +
        "202 with the same caseUrn and correlationUrn and opens nothing. airlineUrn must be the airline of the " +
        "registration (403 otherwise). Passengers are grouped by PNR; each gets the id `<PNR>-<n>`.",
      tags,
      access: publishers,
      body: disruptionPushBody,
      responses: { 202: { description: "Accepted", schema: disruptionAcceptedSchema } },
      handler: async ({ principal, body, correlationUrn }) => {
        const { snapshot } = await cases.intake.push(principal, body, correlationUrn);
        return {
          status: 202,
          body: {
            caseUrn: snapshot.case.urn,
            status: snapshot.case.status,
            subCaseCount: snapshot.case.passengerGroups.length,
            correlationUrn: snapshot.intake.correlationUrn,
          },
        };
      },
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/disruptions",
      operationId: "listDisruptions",
      summary: "Disruptions of the airline, in the order they arrived",
      tags,
      access: subscribers,
      query: pageQuery({ since: { ...timestampSchema, description: "Received at or after" } }),
      responses: { 200: { description: "A page of disruptions", schema: disruptionPageSchema } },
      handler: ({ principal, query }) =>
        pageAnswer(query, (request) => cases.reads.disruptions(principal, query.since, request)),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/cases",
      operationId: "partnerListCases",
      tags,
      access: readers,
      ...caseListing(cases),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/cases/:caseUrn",
      operationId: "partnerGetCase",
      summary: "Case state and manifest",
      ...caseRead,
      responses: { 200: { description: "The case", schema: caseSchema } },
      handler: async ({ principal, params }) => ({
        status: 200,
        // A case read again unchanged is the same view (CaseReads.view): its JSON is written once.
        body: serialisedOnce(await cases.reads.detail(principal, params.caseUrn, partnerView)),
      }),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/cases/:caseUrn/passengers",
      operationId: "partnerListCasePassengers",
      summary: "Passengers of a case, group by group",
      ...caseRead,
      query: pageQuery(),
      responses: { 200: { description: "A page of passengers", schema: passengerPageSchema } },
      handler: ({ principal, params, query }) =>
        pageAnswer(query, (request) =>
          cases.reads.passengers(principal, params.caseUrn, request, partnerView),
        ),
    }),
    defineRoute({
      method: "GET",
      path: "/partner/v1/passengers/:passengerUrn/cases",
      operationId: "partnerListPassengerCases",
      summary: "Cases of the airline that list a passenger",
      description: "The passenger URN is `urn:passenger:<passenger id>`, as case reads show it.",
      tags,
      access: readers,
      params: { type: "object", properties: { passengerUrn: urnOf("passenger") } },
      query: pageQuery(),
      responses: { 200: { description: "A page of cases", schema: casePageSchema } },
      handler: ({ principal, params, query }) =>
        pageAnswer(query, (request) => cases.reads.casesOfPassenger(principal, params.passengerUrn, request)),
    }),
    defineRoute({
      method: "PATCH",
      path: "/partner/v1/cases/:caseUrn/manifest",
      operationId: "partnerAmendManifest",
      summary: "Add passengers or correct the next flight",
      description:
        "Scope disruptions.events.publish (the spec names none): amending continues the push. Emits case.amended. " +
        "Passengers without an id get `<PNR>-<n>`, so send a retry with the same Idempotency-Key.",
      tags,
      access: publishers,
      params: caseUrnParams,
      body: manifestAmendmentBody,
      audit: auditCase("case.manifest-amend"),
      responses: { 200: { description: "The case after the amendment", schema: caseSchema } },
      handler: async ({ principal, params, body, correlationUrn }) => {
        const result = await cases.manifest.amend(principal, params.caseUrn, body, correlationUrn);
        return { status: 200, body: await cases.reads.view(result.snapshot, partnerView) };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/partner/v1/cases/:caseUrn/priority-request",
      operationId: "partnerRequestCasePriority",
      summary: "Ask for a case to be handled sooner: its priority goes up one level",
      description:
        "Scope cases.priority.request. A case opens NORMAL; each request raises it one level (HIGH, then URGENT), " +
        "and a request on an URGENT case changes nothing (`raised: false`). Operators see the priority on the case " +
        "list (`priority`, and `?priority=` to filter) and detail (`priority`, `priorityRequest` with the partner, " +
        "reason and time), and live as `case:updated` with cause `case.priority-raised`. Audited against the " +
        "partner with the reason. A closed case refuses it (409 case-closed). Beyond the tier's write rate, each " +
        `registration may send ${PARTNER_WRITE_BOUNDS["priority-request"].perHour} priority requests an hour ` +
        "(429 with Retry-After). With an `Idempotency-Key` a retried request changes nothing again.",
      tags,
      access: prioritisers,
      params: caseUrnParams,
      body: priorityRequestBody,
      audit: auditCase("case.priority-request"),
      responses: {
        200: { description: "The case's priority after the request", schema: priorityRequestAnswerSchema },
        404: { description: "No such case" },
        409: { description: "The case is closed" },
        429: { description: "The registration's priority-request bound is spent; see Retry-After" },
      },
      handler: async ({ principal, params, body, correlationUrn }) => {
        const outcome = await cases.priority.request(principal, params.caseUrn, body.reason, correlationUrn);
        if (outcome.limited) throw tooManyRequests(outcome.retryAfterSeconds);
        const { snapshot, change } = outcome.result;
        return {
          status: 200,
          body: {
            caseUrn: snapshot.case.urn,
            priority: priorityOf(snapshot.case),
            raised: change !== undefined,
            priorityRequest: snapshot.case.priorityRequest ?? null,
          },
        };
      },
    }),
  ];
}
