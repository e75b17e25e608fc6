import type { AuditLog } from "../app/audit-log.js";
import { payloadHash } from "../domain/canonical-json.js";
import type { Route } from "./route.js";
import type { AuditRecorder, AuditedRequest } from "./request-pipeline.js";

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
  const readHashes = new ReadHashes();
  return async (request) => {
    const { route, principal, input, response } = request;
    const payload = { method: route.method, path: input.ctx.path, query: input.query, body: input.body };
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
      payload,
      ...(input.body === undefined ? { payloadHash: readHashes.of(route, input.ctx.url, payload) } : {}),
      outcome: { status: response.status },
    });
  };
}

/**
 * Payload hashes of requests without a body, by route and raw URL. Partners read the same few URLs
 * over and over, and a route validates (coerces, fills in) the same query string the same way every
 * time, so one URL on one route always has the same payload: its canonical JSON is not written out
 * again for every read.
 */
class ReadHashes {
  private readonly byRoute = new WeakMap<Route, Map<string, string>>();

  of(route: Route, url: string, payload: unknown): string {
    let hashes = this.byRoute.get(route);
    if (!hashes) {
      hashes = new Map();
      this.byRoute.set(route, hashes);
    }
    let hash = hashes.get(url);
    if (hash === undefined) {
      hash = payloadHash(payload);
      if (hashes.size >= URLS_KEPT_PER_ROUTE) hashes.clear();
      hashes.set(url, hash);
    }
    return hash;
  }
}

const URLS_KEPT_PER_ROUTE = 1_000;
