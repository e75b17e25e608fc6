import type { DocumentCollection, DocumentStore, Filter, Page } from "../runtime/document-store.js";
import { indexedCollection } from "./indexed-collection.js";
import type { AuditQuery } from "./audit-trail.js";
import type { AuditEntry } from "./audit-entry.js";
import type { AuditTrail } from "./audit-trail.js";

export const AUDIT_COLLECTION = "audit";

/** The audit trail in the document store's `audit` collection (MongoDB when distributed). */
export class DocumentAuditTrail implements AuditTrail {
  private readonly entries: DocumentCollection<AuditEntry>;

  constructor(documents: DocumentStore) {
    this.entries = indexedCollection(documents, AUDIT_COLLECTION, [
      { keys: { tenant: 1, caseUrn: 1, at: 1 } },
      { keys: { tenant: 1, entityUrn: 1, at: 1 } },
      { keys: { tenant: 1, entityKind: 1, action: 1, at: 1 } },
    ]);
  }

  async append(entry: AuditEntry): Promise<void> {
    await this.entries.insert(entry);
  }

  async query(query: AuditQuery): Promise<Page<AuditEntry>> {
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
    return this.entries.findOne(filter);
  }
}
