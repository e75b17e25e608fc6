import type { AuditLog } from "../app/audit-log.js";
import type { AuditRecorder, AuditedRequest } from "./mount.js";

function urnKind(urn: string): string | undefined {
  return urn.startsWith("urn:") ? urn.split(":")[1] : undefined;
}

/** The entity a request acted on: a URN path parameter, else the URN the response names. */
function defaultSubject({ input, response }: AuditedRequest): {
  entityUrn: string | null;
  caseUrn: string | null;
} {
  let fromPath: string | undefined;
  const params = (input.params ?? {}) as Record<string, unknown>;
  for (const name in params) {
    const value = params[name];
    if (typeof value === "string" && value.startsWith("urn:")) {
      fromPath = value;
      break;
    }
  }
  const body = (response.body ?? {}) as { urn?: unknown; caseUrn?: unknown };
  const fromBody =
    typeof body.urn === "string" ? body.urn : typeof body.caseUrn === "string" ? body.caseUrn : undefined;
  const entityUrn = fromPath ?? fromBody ?? null;
  const caseUrn =
    entityUrn && urnKind(entityUrn) === "case"
      ? entityUrn
      : typeof body.caseUrn === "string"
        ? body.caseUrn
        : null;
  return { entityUrn, caseUrn };
}

/** Turns each audited request into an audit entry against the acting principal and its tenant. */
export function auditRecorder(log: AuditLog): AuditRecorder {
  return async (request) => {
    const { route, principal, input, response } = request;
    const subject = defaultSubject(request);
    const declared = route.audit?.subject?.(input, response);
    await log.append({
      tenant: principal.tenant,
      actorUrn: principal.actorUrn,
      action: route.audit?.action ?? route.operationId,
      // A route's own answer wins, even an explicit null.
      entityUrn: declared && "entityUrn" in declared ? (declared.entityUrn ?? null) : subject.entityUrn,
      caseUrn: declared && "caseUrn" in declared ? (declared.caseUrn ?? null) : subject.caseUrn,
      correlationUrn: input.correlationUrn,
      payload: { method: route.method, path: input.ctx.path, query: input.query, body: input.body },
      outcome: { status: response.status },
    });
  };
}
