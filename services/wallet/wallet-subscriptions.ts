import type { Logger } from "pino";
import type { WalletDrops } from "../../src/app/wallet/wallet-drops.js";
import type { WalletReconciliation } from "../../src/app/wallet/wallet-reconciliation.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { type EventSubscription, eventSubscription } from "../../src/runtime/subscription-policy.js";

export type WalletProvider = () => {
  drops: WalletDrops;
  reconciliation: WalletReconciliation;
  logger: Logger;
};

/**
 * The wallet's event handlers, one set per tenant topic: a card's drop came due (the issuer loads
 * it), a tenant's daily reconciliation came round. Both are idempotent (the issuer's loads are keyed
 * by card and drop; reconciling again finds nothing more to correct). A card that does not exist is
 * refused (dead-lettered); anything else, an issuer outage included, is retried with backoff.
 */
export function walletSubscriptions(
  tenants: readonly string[],
  context: WalletProvider,
): EventSubscription[] {
  const common = {
    onFailure: "retry-with-backoff",
    refuses: (error: unknown) => error instanceof DomainError && error.kind === "not-found",
    log: () => context().logger,
  } as const;
  return tenants.flatMap((tenant) => [
    eventSubscription({
      ...common,
      name: `wallet.drops.${tenant}`,
      tenant,
      types: ["wallet.drop-due"],
      handle: (event) => context().drops.load(event.data.cardUrn, event.data.dropId, event.correlationUrn),
    }),
    eventSubscription({
      ...common,
      name: `wallet.reconciliation.${tenant}`,
      tenant,
      types: ["wallet.reconciliation-due"],
      handle: async (event) => {
        await context().reconciliation.reconcile(event.data.tenant, event.correlationUrn);
      },
    }),
  ]);
}
