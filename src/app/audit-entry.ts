/**
 * The audit trail (spec 3.2, 3.3, 5.5, 8): one entry per authenticated write and per partner
 * read, appended and never changed. Entries are tenant-scoped; queries always filter by tenant.
 */
export interface AuditEntry {
  _id: string;
  urn: string;
  tenant: string;
  /** The user, service token, partner or passenger session that acted. */
  actorUrn: string;
  /** A verb in the spec's words, e.g. `case.open`, `policy.activate`, or the route's operationId. */
  action: string;
  /** The entity acted on; `entityKind` is its URN kind (case, policy, sub-case...). */
  entityUrn: string | null;
  entityKind: string | null;
  /** The case the entity belongs to, so a case's whole trail is one query. */
  caseUrn: string | null;
  correlationUrn: string;
  /** SHA-256 of the canonical request payload; the payload itself is not kept. */
  payloadHash: string | null;
  reason?: string;
  before?: unknown;
  after?: unknown;
  outcome?: { status: number };
  at: string;
}
