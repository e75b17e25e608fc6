import type { AuditLog } from "../app/audit-log.js";
import type { AuditRecorder, AuditedRequest } from "./mount.js";

function urnKind(urn: string): string | undefined {
  return urn.startsWith("urn:") ? urn.split(":")[1] : undefined;
}

/** The entity a request acted on: a URN path parameter, else the URN the response names. */
function defaultSubject({ input, response }: AuditedRequest): { entityUrn: string | null; caseUrn: string | null } {
  const fromPath = Object.values((input.params ?? {}) as Record<string, unknown>).find(
    (v): v is string => typeof v === "string" && v.startsWith("urn:"),
  );
  const body = (response.body ?? {}) as { urn?: unknown; caseUrn?: unknown };
  const fromBody = typeof body.urn === "string" ? body.urn : typeof body.caseUrn === "string" ? body.caseUrn : undefined;
  const entityUrn = fromPath ?? fromBody ?? null;
  const caseUrn =
    entityUrn && urnKind(entityUrn) === "case" ? entityUrn : typeof body.caseUrn === "string" ? body.caseUrn : null;
  return { entityUrn, caseUrn };
}

/** Turns each audited request into an audit entry against the acting principal and its tenant. */
export function auditRecorder(log: AuditLog): AuditRecorder {
  return async (request) => {
    const { route, principal, input, response } = request;
    const declared = route.audit?.subject?.(input, response);
    const subject = { ...defaultSubject(request), ...declared };
    await log.append({
      tenant: principal.tenant,
      actorUrn: principal.actorUrn,
      action: route.audit?.action ?? route.operationId,
      entityUrn: subject.entityUrn ?? null,
      caseUrn: subject.caseUrn ?? null,
      correlationUrn: input.correlationUrn,
      payload: { method: route.method, path: input.ctx.path, query: input.query, body: input.body },
      outcome: { status: response.status },
    });
  };
}
