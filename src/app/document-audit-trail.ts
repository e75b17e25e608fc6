import type { DocumentCollection, DocumentStore, Filter, Page } from "../runtime/document-store.js";
import type { AuditQuery } from "./audit-trail.js";
import type { AuditEntry } from "./audit-entry.js";
import type { AuditTrail } from "./audit-trail.js";

export const AUDIT_COLLECTION = "audit";

/** The audit trail in the document store's `audit` collection (MongoDB when distributed). */
export class DocumentAuditTrail implements AuditTrail {
  private readonly entries: DocumentCollection<AuditEntry>;
  private readonly indexed: Promise<void>;
  /** Set once the indexes exist, so appends stop waiting on a settled promise. */
  private ready = false;

  constructor(documents: DocumentStore) {
    this.entries = documents.collection<AuditEntry>(AUDIT_COLLECTION);
    this.indexed = Promise.all([
      this.entries.ensureIndex({ keys: { tenant: 1, caseUrn: 1, at: 1 } }),
      this.entries.ensureIndex({ keys: { tenant: 1, entityUrn: 1, at: 1 } }),
      this.entries.ensureIndex({ keys: { tenant: 1, entityKind: 1, action: 1, at: 1 } }),
    ]).then(() => {
      this.ready = true;
    });
  }

  async append(entry: AuditEntry): Promise<void> {
    if (!this.ready) await this.indexed;
    await this.entries.insert(entry);
  }

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

  async findOne(filter: Filter & { tenant: string }): Promise<AuditEntry | undefined> {
    await this.indexed;
    return this.entries.findOne(filter);
  }
}
