import type { DependencyContainer } from "tsyringe";
import { WalletCardActor } from "../../actors/WalletCardActor.js";
import { WalletReconciliationActor } from "../../actors/WalletReconciliationActor.js";
import { CancelWalletCard } from "../../src/app/wallet/cancel-wallet-card.js";
import { IssueWalletCard } from "../../src/app/wallet/issue-wallet-card.js";
import { WalletCardIndex } from "../../src/app/wallet/wallet-card-index.js";
import { WalletDrops } from "../../src/app/wallet/wallet-drops.js";
import { WalletIssuancePause } from "../../src/app/wallet/wallet-issuance-pause.js";
import { WalletReads } from "../../src/app/wallet/wallet-reads.js";
import { WalletReconciliation } from "../../src/app/wallet/wallet-reconciliation.js";
import { WalletWebhooks } from "../../src/app/wallet/wallet-webhooks.js";
import { type ServiceModule, registerSingletons } from "../module.js";
import { walletRoutes } from "./wallet-routes.js";
import { walletSubscriptions } from "./wallet-subscriptions.js";

/**
 * Virtual prepaid wallet cards (spec 2.7, 3.6, 4.2, 4.5, 6.3): one WalletCardActor per (case,
 * group), issued and cancelled through the tenant's wallet issuer (the saga's wallet leg calls
 * `IssueWalletCard.issueWalletCard` and `CancelWalletCard.cancelWalletCard`), the issuer's signed
 * webhooks, scheduled drops on actor reminders, and the daily reconciliation per tenant.
 */
export const walletModule: ServiceModule = {
  name: "wallet",
  actorTypes: [WalletCardActor, WalletReconciliationActor],
  register: (container: DependencyContainer) =>
    registerSingletons(container, [
      WalletCardIndex,
      WalletIssuancePause,
      IssueWalletCard,
      CancelWalletCard,
      WalletWebhooks,
      WalletReads,
      WalletDrops,
      WalletReconciliation,
    ]),
  subscriptions: (context, tenants) => ({
    workers: walletSubscriptions(tenants, () => ({
      drops: context().container.resolve(WalletDrops),
      reconciliation: context().container.resolve(WalletReconciliation),
      logger: context().logger,
    })),
  }),
  routes: ({ container }) =>
    walletRoutes({
      cancel: container.resolve(CancelWalletCard),
      webhooks: container.resolve(WalletWebhooks),
      reads: container.resolve(WalletReads),
      issuance: container.resolve(WalletIssuancePause),
    }),
  start: async ({ container, directory }) => {
    await container.resolve(WalletCardIndex).ensureIndexes();
    const reconciliation = container.resolve(WalletReconciliation);
    for (const organization of await directory.organizations()) {
      await reconciliation.schedule(organization.airlineUrn);
    }
  },
};
