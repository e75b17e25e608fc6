import type { Clock } from "../../runtime/clock.js";
import type { Doc, DocumentStore } from "../../runtime/document-store.js";

/**
 * Spec 5.1 emergency revocation: compromised accounts and forced session termination. Checked on
 * every authenticated request; an entry never expires by itself and is removed by hand.
 */
export type RevocationTarget =
  /** A token subject: `urn:user:<id>`, `urn:partner:<id>`, `urn:service-token:<id>`, or a raw `sub`. */
  | { kind: "subject"; value: string }
  /** One token, by its `jti`. */
  | { kind: "token"; value: string };

export interface EmergencyRevocation extends Doc {
  /**
   * The airline whose tokens the entry ends; absent for a platform-wide entry. An airline's ADMIN
   * can only list entries for its own tenant, so it cannot end another airline's sessions.
   */
  tenant?: string;
  kind: RevocationTarget["kind"];
  value: string;
  reason: string;
  /** Who listed it, e.g. the ADMIN's user URN. */
  revokedBy?: string;
  /** ISO 8601 UTC. */
  revokedAt: string;
}

export const EMERGENCY_REVOCATIONS_COLLECTION = "emergency_revocations";

export class EmergencyRevocationList {
  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
  ) {}

  private get entries() {
    return this.store.collection<EmergencyRevocation>(EMERGENCY_REVOCATIONS_COLLECTION);
  }

  /** Lists the target (again, if already listed: the latest reason wins). */
  async add(
    target: RevocationTarget,
    reason: string,
    revokedBy?: string,
    tenant?: string,
  ): Promise<EmergencyRevocation> {
    const entry: EmergencyRevocation = {
      _id: entryId(target, tenant),
      ...(tenant ? { tenant } : {}),
      kind: target.kind,
      value: target.value,
      reason,
      ...(revokedBy ? { revokedBy } : {}),
      revokedAt: new Date(this.clock.now()).toISOString(),
    };
    await this.entries.put(entry);
    return entry;
  }

  /** Entries of one tenant, or the platform-wide ones when `tenant` is absent. */
  async list(tenant?: string): Promise<EmergencyRevocation[]> {
    return this.entries.findAll(tenant ? { tenant } : { tenant: { $exists: false } }, {
      sort: { revokedAt: 1 },
    });
  }

  /** True when an entry was removed. */
  async remove(target: RevocationTarget, tenant?: string): Promise<boolean> {
    return this.entries.deleteOne({ _id: entryId(target, tenant) });
  }

  /** Whether any of a token's revocation ids (see revocationIdsOf) is listed. */
  async isRevoked(ids: readonly string[]): Promise<boolean> {
    return (await this.entries.findOne({ _id: { $in: ids } })) !== undefined;
  }
}

/**
 * The ids under which a token may be listed: each of its subjects and its id, platform-wide and for
 * its tenant. They depend on the token alone, so a caller can work them out once per token.
 */
export function revocationIdsOf(token: {
  tenant?: string;
  subjects: readonly string[];
  tokenId?: string;
}): string[] {
  const ids: string[] = [];
  for (const value of token.subjects) pushEntryIds(ids, { kind: "subject", value }, token.tenant);
  if (token.tokenId) pushEntryIds(ids, { kind: "token", value: token.tokenId }, token.tenant);
  return ids;
}

function entryId(target: RevocationTarget, tenant?: string): string {
  return `${tenant ? `${tenant}|` : ""}${target.kind}:${target.value}`;
}

/** The ids under which `target` may be listed: platform-wide, and for the tenant when there is one. */
function pushEntryIds(ids: string[], target: RevocationTarget, tenant: string | undefined): void {
  ids.push(entryId(target));
  if (tenant) ids.push(entryId(target, tenant));
}
