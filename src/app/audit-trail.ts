import type { Filter, Page } from "../runtime/document-store.js";
import type { AuditEntry } from "./audit-entry.js";

/**
 * Where the audit log keeps its entries: append-only, read by the log's queries. Chosen in the
 * composition root: in memory on the embedded default, in the document store otherwise.
 */
export interface AuditTrail {
  /** Keeps `entry`, which the trail owns from then on. */
  append(entry: AuditEntry): Promise<void>;
  /** Oldest first, a page at a time. */
  query(query: AuditQuery): Promise<Page<AuditEntry>>;
  /** Any one entry matching a document-store filter (which names the tenant), or undefined. */
  findOne(filter: Filter & { tenant: string }): Promise<AuditEntry | undefined>;
}

/** One page of a tenant's trail, narrowed by case, entity or action. */
export interface AuditQuery {
  tenant: string;
  caseUrn?: string;
  entityUrn?: string;
  entityKind?: string;
  action?: string;
  limit: number;
  cursor?: string;
}
