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
  async add(target: RevocationTarget, reason: string, revokedBy?: string): Promise<EmergencyRevocation> {
    const entry: EmergencyRevocation = {
      _id: entryId(target),
      kind: target.kind,
      value: target.value,
      reason,
      ...(revokedBy ? { revokedBy } : {}),
      revokedAt: new Date(this.clock.now()).toISOString(),
    };
    await this.entries.put(entry);
    return entry;
  }

  async list(): Promise<EmergencyRevocation[]> {
    return this.entries.findAll({}, { sort: { revokedAt: 1 } });
  }

  /** True when an entry was removed. */
  async remove(target: RevocationTarget): Promise<boolean> {
    return this.entries.deleteOne({ _id: entryId(target) });
  }

  /** Whether any of the token's subjects or its id is listed. */
  async isRevoked(token: { subjects: readonly string[]; tokenId?: string }): Promise<boolean> {
    const ids = token.subjects.map((value) => entryId({ kind: "subject", value }));
    if (token.tokenId) ids.push(entryId({ kind: "token", value: token.tokenId }));
    return (await this.entries.findOne({ _id: { $in: ids } })) !== undefined;
  }
}

function entryId(target: RevocationTarget): string {
  return `${target.kind}:${target.value}`;
}
