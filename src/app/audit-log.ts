import { randomUUID } from "node:crypto";
import { payloadHash } from "../domain/canonical-json.js";
import type { Clock } from "../runtime/clock.js";
import type { DocumentCollection, DocumentStore, Filter, Page } from "../runtime/document-store.js";

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

export type NewAuditEntry = Omit<AuditEntry, "_id" | "urn" | "at" | "entityKind" | "payloadHash"> & {
  payload?: unknown;
};

export const AUDIT_COLLECTION = "audit";

function kindOf(urn: string | null): string | null {
  if (!urn) return null;
  const parts = urn.split(":");
  return parts[1] ?? null;
}

export interface AuditQuery {
  tenant: string;
  caseUrn?: string;
  entityUrn?: string;
  entityKind?: string;
  action?: string;
  limit: number;
  cursor?: string;
}

export class AuditLog {
  private readonly entries: DocumentCollection<AuditEntry>;
  private readonly indexed: Promise<void>;
  private sequence = 0;

  constructor(
    documents: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.entries = documents.collection<AuditEntry>(AUDIT_COLLECTION);
    this.indexed = Promise.all([
      this.entries.ensureIndex({ keys: { tenant: 1, caseUrn: 1, at: 1 } }),
      this.entries.ensureIndex({ keys: { tenant: 1, entityUrn: 1, at: 1 } }),
      this.entries.ensureIndex({ keys: { tenant: 1, entityKind: 1, action: 1, at: 1 } }),
    ]).then(() => undefined);
  }

  async append(entry: NewAuditEntry): Promise<AuditEntry> {
    await this.indexed;
    // Time first, then a per-process sequence: entries of the same millisecond keep their order.
    const now = this.clock.now();
    const id = `${now.toString().padStart(15, "0")}-${(this.sequence++).toString().padStart(10, "0")}-${randomUUID()}`;
    const { payload, ...rest } = entry;
    // Object.assign rather than `{ ...rest, _id, ... }`: V8 builds a spread followed by more
    // members property by property, several microseconds on a path every partner read takes.
    const stored: AuditEntry = Object.assign(rest, {
      _id: id,
      urn: `urn:audit-entry:${id.slice(-36)}`,
      entityKind: kindOf(entry.entityUrn),
      payloadHash: payload === undefined ? null : payloadHash(payload),
      at: new Date(now).toISOString(),
    });
    await this.entries.insert(stored);
    return stored;
  }

  /** Oldest first, so a trail reads as it happened. */
  async query(query: AuditQuery): Promise<Page<AuditEntry>> {
    await this.indexed;
    const filter: Filter = { tenant: query.tenant };
    if (query.caseUrn) filter.$or = [{ caseUrn: query.caseUrn }, { entityUrn: query.caseUrn }];
    if (query.entityUrn) filter.entityUrn = query.entityUrn;
    if (query.entityKind) filter.entityKind = query.entityKind;
    if (query.action) filter.action = query.action;
    return this.entries.find(filter, {
      sort: { at: 1 },
      limit: query.limit,
      ...(query.cursor ? { cursor: query.cursor } : {}),
    });
  }
}
