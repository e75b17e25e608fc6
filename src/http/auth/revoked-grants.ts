import type { CounterStore } from "../../runtime/counter-store.js";

/**
 * Grant ids (refresh-token families) revoked at the identity provider: after a refresh-token reuse,
 * a revocation or a logout. JWT access tokens are not stored, so the APIs refuse a token whose
 * `gid` is listed here.
 */
export interface RevokedGrants {
  add(grantId: string): Promise<void>;
  has(grantId: string): Promise<boolean>;
}

/**
 * An entry only has to outlive the access tokens already issued under the grant (15 minutes);
 * a day leaves room for a longer token lifetime configured elsewhere.
 */
const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;
const KEY_PREFIX = "revoked-grant:";

/** The revoked-grant set in the shared counter store: memory for one process, Redis for several. */
export class CounterStoreRevokedGrants implements RevokedGrants {
  constructor(
    private readonly counters: CounterStore,
    private readonly retentionMs = DEFAULT_RETENTION_MS,
  ) {}

  async add(grantId: string): Promise<void> {
    await this.counters.set(KEY_PREFIX + grantId, "1", this.retentionMs);
  }

  async has(grantId: string): Promise<boolean> {
    return (await this.counters.get(KEY_PREFIX + grantId)) !== undefined;
  }
}
