import { inject, injectable } from "tsyringe";
import type { CounterStore } from "../../runtime/counter-store.js";
import { TOKENS } from "../../runtime/tokens.js";

/** Long enough to mean "until someone resumes it"; a counter needs a lifetime. */
const PAUSE_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Issuance paused per tenant (spec 7: a vendor 401 or 403 is permanent: alert ops, pause issuance
 * for the tenant, no retry). Kept in the shared counter store, so every replica sees it at once.
 */
@injectable()
export class WalletIssuancePause {
  constructor(@inject(TOKENS.counters) private readonly counters: CounterStore) {}

  /**
   * True when this call paused issuance; false when it was paused already (another replica's or a
   * concurrent refusal), so operations are alerted once per pause.
   */
  async pause(tenant: string, vendorErrorCode: string): Promise<boolean> {
    return this.counters.setIfAbsent(keyOf(tenant), vendorErrorCode, PAUSE_TTL_MS);
  }

  /** The issuer's code that paused issuance, or undefined while it runs. */
  async pausedBecause(tenant: string): Promise<string | undefined> {
    return (await this.counters.get(keyOf(tenant))) ?? undefined;
  }

  /** The tenant's credentials are mended: issuance runs again. */
  async resume(tenant: string): Promise<void> {
    await this.counters.delete(keyOf(tenant));
  }
}

function keyOf(tenant: string): string {
  return `wallet-issuance-paused:${tenant}`;
}
