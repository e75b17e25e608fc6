import type { RecordedChange } from "../domain/case.js";
import { payloadHash } from "../domain/canonical-json.js";
import type { Clock } from "../runtime/clock.js";
import type { Filter, Page } from "../runtime/document-store.js";
import { copyOf } from "../runtime/plain-copy.js";
import type { AuditEntry } from "./audit-entry.js";
import type { AuditQuery, AuditTrail } from "./audit-trail.js";
import { randomUuid } from "../domain/uuid.js";

/** What a use case or the audit recorder hands the log: the log stamps the id, URN, time and hash. */
export type NewAuditEntry = Omit<AuditEntry, "_id" | "urn" | "at" | "entityKind" | "payloadHash"> & {
  payload?: unknown;
  /** The payload's hash when the caller knows it already; then `payload` is not hashed again. */
  payloadHash?: string;
};

/**
 * The entry for a change an actor's turn reported (spec 3.3: actor, reason, before and after) on
 * `subject`: under the caller when a request names one, else under whoever the change names.
 */
export function changeEntry(
  change: RecordedChange,
  subject: { tenant: string; entityUrn: string; caseUrn: string },
  request: { caller?: { actorUrn: string } | undefined; correlationUrn: string },
): NewAuditEntry {
  return {
    ...subject,
    actorUrn: request.caller?.actorUrn ?? change.by,
    action: change.action,
    correlationUrn: request.correlationUrn,
    ...(change.reason ? { reason: change.reason } : {}),
    before: change.before,
    after: change.after,
  };
}

/** The `<time>-<sequence>-` an entry's id starts with, before its UUID. */
const ID_STAMP_LENGTH = 15 + 1 + 10 + 1;

function kindOf(urn: string | null): string | null {
  if (!urn) return null;
  const parts = urn.split(":");
  return parts[1] ?? null;
}

export class AuditLog {
  private sequence = 0;
  /**
   * The time of the latest entry in its two written forms: a busy trail appends many entries in
   * the same millisecond, and formatting a date costs more than the rest of the entry.
   */
  private stamp = { ms: Number.NaN, padded: "", iso: "" };

  constructor(
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async append(entry: NewAuditEntry): Promise<void> {
    // Time first, then a per-process sequence: entries of the same millisecond keep their order.
    const now = this.clock.now();
    if (this.stamp.ms !== now) {
      this.stamp = { ms: now, padded: now.toString().padStart(15, "0"), iso: new Date(now).toISOString() };
    }
    // One flat string for the id; the URN shares its UUID characters (a slice, not a copy).
    const id = randomUuid(`${this.stamp.padded}-${(this.sequence++).toString().padStart(10, "0")}-`);
    const uuid = id.slice(ID_STAMP_LENGTH);
    // Built member by member rather than by spreading `entry`: V8 copies a spread (or a rest
    // pattern) property by property, several microseconds on a path every partner read takes.
    const stored: AuditEntry = {
      _id: id,
      urn: `urn:audit-entry:${uuid}`,
      tenant: entry.tenant,
      actorUrn: entry.actorUrn,
      action: entry.action,
      entityUrn: entry.entityUrn,
      entityKind: kindOf(entry.entityUrn),
      caseUrn: entry.caseUrn,
      correlationUrn: entry.correlationUrn,
      payloadHash: entry.payloadHash ?? (entry.payload === undefined ? null : payloadHash(entry.payload)),
      at: this.stamp.iso,
    };
    // The trail owns what it is given; the snapshots are the caller's, who may change them later.
    if (entry.reason !== undefined) stored.reason = entry.reason;
    if (entry.before !== undefined) stored.before = copyOf(entry.before);
    if (entry.after !== undefined) stored.after = copyOf(entry.after);
    if (entry.outcome !== undefined) stored.outcome = { status: entry.outcome.status };
    await this.trail.append(stored);
  }

  /** Oldest first, so a trail reads as it happened. */
  async query(query: AuditQuery): Promise<Page<AuditEntry>> {
    return this.trail.query(query);
  }

  /** Whether the tenant's trail holds an entry matching `filter` (a document-store filter). */
  async has(filter: Filter & { tenant: string }): Promise<boolean> {
    return (await this.trail.findOne(filter)) !== undefined;
  }
}
