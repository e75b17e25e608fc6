import type { Logger } from "pino";
import { inject, injectable } from "tsyringe";
import { WalletCardActor } from "../../../actors/WalletCardActor.js";
import {
  WalletReconciliationActor,
  walletReconciliationActorId,
} from "../../../actors/WalletReconciliationActor.js";
import { type Correction, parseWalletCardUrn } from "../../domain/wallet/wallet-card.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { WalletIssuers } from "../../vendors/wallet-issuer-port.js";
import type { AuditLog } from "../audit-log.js";
import { WalletCardIndex } from "./wallet-card-index.js";

/** Spec 8.2: wallet reconciliation every 24 hours per tenant. */
export const WALLET_RECONCILIATION_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** Who corrects cards from the issuer (audit entries name it). */
export const WALLET_RECONCILIATION_ACTOR = "urn:system:wallet-reconciliation";

export interface ReconciledCard {
  cardUrn: string;
  corrections: Correction[];
}

/**
 * The daily reconciliation of a tenant's wallet cards with the issuer (spec 6.3): for every LOADED
 * card, what the issuer holds is compared with the card; missing transactions are backfilled,
 * drifted balances and a status the issuer changed are corrected from the issuer. Every corrected
 * card is alerted (an error in the log, `wallet.card-reconciled`) and audited with its corrections.
 */
@injectable()
export class WalletReconciliation {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.walletIssuers) private readonly issuers: WalletIssuers,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(TOKENS.logger) private readonly logger: Logger,
    @inject(WalletCardIndex) private readonly index: WalletCardIndex,
  ) {}

  /** Starts the tenant's daily schedule (the same interval again changes nothing). */
  async schedule(tenant: string, intervalMs = WALLET_RECONCILIATION_INTERVAL_MS): Promise<void> {
    await this.actors.invoke(WalletReconciliationActor, walletReconciliationActorId(tenant), "schedule", {
      tenant,
      intervalMs,
    });
  }

  async reconcile(tenant: string, correlationUrn: string): Promise<ReconciledCard[]> {
    const issuer = this.issuers.issuerOf(tenant);
    if (!issuer) return [];
    const reconciled: ReconciledCard[] = [];
    for (const entry of await this.index.loadedOfTenant(tenant)) {
      const issuerRecord = await issuer.cardRecord(entry.issuerCardId);
      const result = await this.actors.invoke(
        WalletCardActor,
        parseWalletCardUrn(entry.cardUrn)!.actorId,
        "reconcile",
        { cardUrn: entry.cardUrn, issuer: issuerRecord, correlationUrn },
      );
      if (!result.changed) continue;
      this.logger.error(
        { tenant, cardUrn: entry.cardUrn, corrections: result.corrections },
        "wallet card drifted from the issuer: corrected from the issuer",
      );
      await this.audit.append({
        tenant,
        actorUrn: WALLET_RECONCILIATION_ACTOR,
        action: "wallet.card-reconcile",
        entityUrn: entry.cardUrn,
        caseUrn: entry.caseUrn,
        correlationUrn,
        reason: "Daily reconciliation with the wallet issuer",
        after: { corrections: result.corrections },
      });
      if (result.card.status !== entry.status) await this.index.record(tenant, result.card);
      reconciled.push({ cardUrn: entry.cardUrn, corrections: result.corrections });
    }
    await this.actors.invoke(WalletReconciliationActor, walletReconciliationActorId(tenant), "reconciled");
    return reconciled;
  }
}
