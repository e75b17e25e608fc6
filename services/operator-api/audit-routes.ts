import type { AuditLog } from "../../src/app/audit-log.js";
import type { AuditEntry } from "../../src/app/audit-entry.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import { type PageParameters, pageAnswer, pageQuery } from "../../src/http/pagination.js";
import { defineRoute } from "../../src/http/route.js";
import { pageSchema, urnSchema } from "../../src/http/schemas/common.js";

/** FINANCE_AUDIT reads the trail, as does OPS_SUPERVISOR and everyone above (spec 4.1). */
const auditReaders = { kind: "operator", anyOf: ["FINANCE_AUDIT", "OPS_SUPERVISOR"] } as const;

const auditEntrySchema = {
  type: "object",
  required: [
    "urn",
    "tenant",
    "actorUrn",
    "action",
    "entityUrn",
    "caseUrn",
    "correlationUrn",
    "payloadHash",
    "at",
  ],
  properties: {
    urn: urnSchema,
    tenant: urnSchema,
    actorUrn: urnSchema,
    action: { type: "string" },
    entityUrn: { type: ["string", "null"] },
    caseUrn: { type: ["string", "null"] },
    correlationUrn: { type: "string" },
    payloadHash: { type: ["string", "null"] },
    reason: { type: "string" },
    before: {},
    after: {},
    outcome: { type: "object", properties: { status: { type: "integer" } } },
    at: { type: "string", format: "date-time" },
  },
} as const;

const auditPageSchema = pageSchema(auditEntrySchema);

function toWire({ _id, entityKind, ...entry }: AuditEntry) {
  return entry;
}

export function auditRoutes(log: AuditLog) {
  /** A page of the caller's tenant's trail, oldest first. */
  const page = (
    principal: OperatorPrincipal,
    filter: Record<string, string | undefined>,
    query: PageParameters,
  ) => pageAnswer(query, (request) => log.query({ tenant: principal.tenant, ...filter, ...request }), toWire);
  const trail = {
    tags: ["Audit"],
    access: auditReaders,
    query: pageQuery(),
    responses: { 200: { description: "A page of audit entries", schema: auditPageSchema } },
  } as const;
  return [
    defineRoute({
      method: "GET",
      path: "/v1/audit/case/:caseUrn",
      operationId: "listCaseAudit",
      summary: "Audit trail of a case, oldest first",
      ...trail,
      handler: ({ params, query, principal }) => page(principal, { caseUrn: params.caseUrn }, query),
    }),
    defineRoute({
      method: "GET",
      path: "/v1/audit/entity/:entityUrn",
      operationId: "listEntityAudit",
      summary: "Audit trail of one entity, oldest first",
      ...trail,
      handler: ({ params, query, principal }) => page(principal, { entityUrn: params.entityUrn }, query),
    }),
    defineRoute({
      method: "GET",
      path: "/audit",
      operationId: "queryAudit",
      summary: "Audit query by entity kind, entity URN and action (field-manual form)",
      ...trail,
      query: pageQuery({
        entity: { type: "string", minLength: 1, description: "Entity kind, e.g. case or policy" },
        entityUrn: { type: "string", minLength: 1 },
        action: { type: "string", minLength: 1, description: "e.g. reaccommodate" },
      }),
      handler: ({ query, principal }) =>
        page(
          principal,
          { entityKind: query.entity, entityUrn: query.entityUrn, action: query.action },
          query,
        ),
    }),
  ];
}
