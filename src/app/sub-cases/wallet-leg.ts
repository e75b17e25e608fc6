import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { passengerTier } from "../../domain/policy/tiers.js";
import { SUB_CASE_SAGA_ACTOR, type StepCall, type StepOutcome } from "../../workflows/sub-case-saga/model.js";
import { CaseChanges } from "../cases/case-changes.js";
import { CaseEntitlements } from "../cases/case-entitlements.js";
import { PolicyIndex } from "../policies/policy-index.js";
import { CancelWalletCard } from "../wallet/cancel-wallet-card.js";
import { IssueWalletCard } from "../wallet/issue-wallet-card.js";
import { WalletReads } from "../wallet/wallet-reads.js";
import { legDone, type SagaLeg } from "./saga-leg.js";

/** Why the saga cancels a card: the passenger declined the offer the card came with. */
export const OFFER_DECLINED_CARD_REASON = "OFFER_DECLINED";

/**
 * The meal card leg (spec 2.7, 7): the group's card, loaded with its meal allowance (the sum of its
 * passengers' allowances, src/domain/entitlements), in scheduled drops when the lead passenger's
 * tier is one of the policy's `mealAllowance.scheduledDropTiers`. No meal owed, no amount known or
 * no issuer for the tenant: no card. The issuer's refusals are spec 7's (a paused issuance alerts,
 * an exhausted pool opens a review item) and leave the stay's offer going. Undone by cancelling the
 * card, which returns its unused balance to the funding pool.
 */
@injectable()
export class WalletLeg implements SagaLeg {
  constructor(
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(CaseEntitlements) private readonly entitlements: CaseEntitlements,
    @inject(PolicyIndex) private readonly policies: PolicyIndex,
    @inject(IssueWalletCard) private readonly issuance: IssueWalletCard,
    @inject(CancelWalletCard) private readonly cancellation: CancelWalletCard,
    @inject(WalletReads) private readonly reads: WalletReads,
  ) {}

  async run({ run }: StepCall): Promise<StepOutcome> {
    const [view, amount] = await Promise.all([
      this.cases.groupView(run.caseUrn, run.groupId),
      this.entitlements.groupMealAllowance(run.caseUrn, run.groupId),
    ]);
    if (!amount)
      return legDone({ walletCardUrn: null, reason: "no meal amount is known for the airport's currency" });
    if (amount.amountMinor === 0)
      return legDone({ walletCardUrn: null, reason: "no meal is owed for this wait" });
    const airport = view.case.flight.origin;
    const lead = view.group?.passengers[0];
    const tier = lead ? passengerTier(lead) : undefined;
    const policy = await this.policies.resolve(run.tenant, { airport, ...(tier ? { tier } : {}) });
    const dropTiers = policy?.mealAllowance?.scheduledDropTiers ?? [];
    try {
      const issued = await this.issuance.issueWalletCard({
        tenant: run.tenant,
        caseUrn: run.caseUrn,
        groupId: run.groupId,
        airport,
        amount: amount.amountMinor,
        currency: amount.currency,
        scheduledDrops: tier !== undefined && dropTiers.includes(tier),
        requestedBy: SUB_CASE_SAGA_ACTOR,
        correlationUrn: run.correlationUrn,
      });
      if (issued.outcome === "issued") {
        return legDone({
          walletCardUrn: issued.card.urn,
          amountMinor: amount.amountMinor,
          currency: amount.currency,
        });
      }
      return legDone({ walletCardUrn: null, ...issued });
    } catch (error) {
      // No issuer configured for the tenant: the product runs without meal cards there.
      if (error instanceof DomainError && error.kind === "unprocessable") {
        return legDone({ walletCardUrn: null, reason: error.message });
      }
      throw error;
    }
  }

  async undo({ run }: StepCall): Promise<StepOutcome> {
    const card = await this.reads.cardOfGroup(run.caseUrn, run.groupId);
    if (!card) return legDone({ walletCardUrn: null });
    const cancelled = await this.cancellation.cancelWalletCard({
      cardUrn: card.urn,
      reason: OFFER_DECLINED_CARD_REASON,
      by: SUB_CASE_SAGA_ACTOR,
      correlationUrn: run.correlationUrn,
    });
    return legDone({
      walletCardUrn: card.urn,
      returnedToPool: cancelled.returnedToPool,
      alreadyCancelled: cancelled.replayed,
    });
  }
}
