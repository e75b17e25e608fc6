import type { Logger } from "pino";
import { inject, injectable } from "tsyringe";
import { WalletCardActor } from "../../../actors/WalletCardActor.js";
import { DomainError } from "../../domain/domain-error.js";
import { WALLET_EVENT } from "../../domain/events/wallet.js";
import { randomUuid } from "../../domain/uuid.js";
import { plannedDrops } from "../../domain/wallet/scheduled-drops.js";
import { type WalletCardState, walletActorIdFor, walletCardUrnFor } from "../../domain/wallet/wallet-card.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { Clock } from "../../runtime/clock.js";
import { type EventBus, publishEvent } from "../../runtime/event-bus.js";
import { TOKENS } from "../../runtime/tokens.js";
import { WALLET_ISSUE_RETRY, type RetryPolicy, withRetry } from "../../vendors/retry.js";
import { VendorError } from "../../vendors/vendor-error.js";
import { FUNDING_POOL_EXHAUSTED, type WalletIssuers } from "../../vendors/wallet-issuer-port.js";
import type { AuditLog } from "../audit-log.js";
import { airportByCode, type Directory } from "../directory.js";
import { ReviewIntake } from "../manual-review/review-intake.js";
import { utcOffsetMinutesAt } from "../stays/airport-time.js";
import { WalletCardIndex } from "./wallet-card-index.js";
import { WalletIssuancePause } from "./wallet-issuance-pause.js";

export interface IssueWalletCardInput {
  tenant: string;
  caseUrn: string;
  groupId: string;
  /** IATA code of the case's airport: the scheduled drops follow its local time. */
  airport: string;
  /** The card's whole amount (its initial balance), minor units of `currency`. */
  amount: number;
  currency: string;
  /** The tier loads the card in drops (25 % at issue, 35 % at noon, 40 % at 18:00); else all at issue. */
  scheduledDrops: boolean;
  /** Who asks: a saga run (`urn:system:...`) or an operator. */
  requestedBy: string;
  correlationUrn: string;
}

/**
 * What came of it (spec 7, wallet issuance failures), for the saga leg to branch on; vendor
 * failures are answers here, not exceptions:
 * - issued: the group holds a LOADED card (`replayed`: it already did, nothing was asked again);
 * - paused: the issuer refused the tenant's credentials (401/403), now or before: issuance stays
 *   paused for the tenant until resumed, operations were alerted, nothing is retried;
 * - funding-exhausted: the tenant's funding pool cannot cover the card; a review item lets the
 *   operator drop the wallet leg or escalate;
 * - failed: the issuer kept failing (5xx, timeouts) through every attempt; asking again later may work.
 */
export type IssueWalletCardOutcome =
  | { outcome: "issued"; card: WalletCardState; replayed: boolean }
  | { outcome: "paused"; vendorErrorCode: string }
  | { outcome: "funding-exhausted"; reviewItemUrn: string }
  | { outcome: "failed"; vendorErrorCode: string };

/** Who issues cards when the saga does (audit and events name it). */
export const WALLET_SYSTEM_ACTOR = "urn:system:wallet";

/**
 * Issues the (case, group)'s wallet card through the tenant's issuer (spec 2.7, 3.6, 7), for the
 * saga's wallet leg. Idempotent: while the group holds a LOADED card, asking again answers that
 * card; the issuer is asked with a reference derived from the (case, group) and the card's
 * generation, so a retry after a lost answer gets the same card from the issuer, and the actor
 * records each generation once. After a cancellation, issuing again makes a new card.
 */
@injectable()
export class IssueWalletCard {
  /** Tests shorten the backoff; the spec's is 5 attempts from 3 s. */
  retryPolicy: RetryPolicy = WALLET_ISSUE_RETRY;

  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.walletIssuers) private readonly issuers: WalletIssuers,
    @inject(TOKENS.directory) private readonly directory: Directory,
    @inject(TOKENS.clock) private readonly clock: Clock,
    @inject(TOKENS.bus) private readonly bus: EventBus,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(TOKENS.logger) private readonly logger: Logger,
    @inject(WalletCardIndex) private readonly index: WalletCardIndex,
    @inject(WalletIssuancePause) private readonly pause: WalletIssuancePause,
    @inject(ReviewIntake) private readonly reviews: ReviewIntake,
  ) {}

  async issueWalletCard(input: IssueWalletCardInput): Promise<IssueWalletCardOutcome> {
    const actorId = walletActorIdFor(input.caseUrn, input.groupId);
    const record = await this.actors.invoke(WalletCardActor, actorId, "get");
    const current = record?.cards.at(-1);
    if (current?.status === "LOADED") return { outcome: "issued", card: current, replayed: true };
    const paused = await this.pause.pausedBecause(input.tenant);
    if (paused) return { outcome: "paused", vendorErrorCode: paused };
    const issuer = this.issuers.issuerOf(input.tenant);
    if (!issuer) {
      throw new DomainError(
        "unprocessable",
        "wallet-issuer-not-configured",
        `Tenant ${input.tenant} has no wallet issuer`,
      );
    }
    const generation = (record?.cards.length ?? 0) + 1;
    const cardUrn = walletCardUrnFor(actorId, generation);
    const airport = await airportByCode(this.directory, input.airport);
    const now = this.clock.now();
    const drops = plannedDrops(input.amount, now, input.scheduledDrops, (at) =>
      utcOffsetMinutesAt(airport ?? { code: input.airport, lon: 0 }, at),
    );
    let issuerCardId: string;
    try {
      ({ issuerCardId } = await withRetry(
        () =>
          issuer.issueCard({
            reference: cardUrn.slice("urn:wallet-card:".length),
            amount: input.amount,
            currency: input.currency,
            initialLoad: drops[0]!.amount,
          }),
        this.retryPolicy,
        this.clock,
      ));
    } catch (error) {
      if (!(error instanceof VendorError)) throw error;
      return this.refused(error, input, cardUrn);
    }
    const { card, changed } = await this.actors.invoke(WalletCardActor, actorId, "recordIssued", {
      tenant: input.tenant,
      airport: input.airport,
      generation,
      card: {
        urn: cardUrn,
        caseUrn: input.caseUrn,
        groupId: input.groupId,
        issuerCardId,
        vendor: issuer.vendor,
        currency: input.currency,
        amount: input.amount,
        drops,
      },
      correlationUrn: input.correlationUrn,
    });
    await this.index.record(input.tenant, card);
    if (changed) {
      await this.audit.append({
        tenant: input.tenant,
        actorUrn: input.requestedBy,
        action: "wallet.card-issue",
        entityUrn: card.urn,
        caseUrn: input.caseUrn,
        correlationUrn: input.correlationUrn,
        after: { status: card.status, initialBalance: card.initialBalance, currency: card.currency },
      });
    }
    return { outcome: "issued", card, replayed: !changed };
  }

  private async refused(
    error: VendorError,
    input: IssueWalletCardInput,
    cardUrn: string,
  ): Promise<IssueWalletCardOutcome> {
    const code = error.vendorCode;
    if (error.httpStatus === 401 || error.httpStatus === 403) {
      // Concurrent refusals pause once; the first one logs, audits and alerts.
      if (!(await this.pause.pause(input.tenant, code))) {
        return { outcome: "paused", vendorErrorCode: (await this.pause.pausedBecause(input.tenant)) ?? code };
      }
      this.logger.error(
        { tenant: input.tenant, vendor: error.vendor, vendorErrorCode: code },
        "wallet issuer refused the tenant's credentials: issuance paused for the tenant",
      );
      await this.audit.append({
        tenant: input.tenant,
        actorUrn: input.requestedBy,
        action: "wallet.issuance-pause",
        entityUrn: null,
        caseUrn: input.caseUrn,
        correlationUrn: input.correlationUrn,
        reason: `The wallet issuer answered ${code}`,
      });
      await publishEvent(this.bus, {
        id: randomUuid("urn:event:"),
        type: WALLET_EVENT.issuancePaused,
        tenant: input.tenant,
        occurredAt: new Date(this.clock.now()).toISOString(),
        correlationUrn: input.correlationUrn,
        caseUrn: input.caseUrn,
        data: {
          tenant: input.tenant,
          vendor: error.vendor,
          vendorErrorCode: code,
          caseUrn: input.caseUrn,
          groupId: input.groupId,
        },
      });
      return { outcome: "paused", vendorErrorCode: code };
    }
    if (code === FUNDING_POOL_EXHAUSTED) {
      const item = await this.reviews.openWalletFundingExhausted({
        tenant: input.tenant,
        caseUrn: input.caseUrn,
        airport: input.airport,
        groupId: input.groupId,
        cardUrn,
        reason:
          `The wallet issuer's funding pool cannot cover a card of ${input.amount} ${input.currency} (minor units) ` +
          `for group ${input.groupId}: drop the wallet leg (resolve WALLET_LEG_DROPPED) or escalate to refund the pool`,
        raisedAt: new Date(this.clock.now()).toISOString(),
        correlationUrn: input.correlationUrn,
      });
      return { outcome: "funding-exhausted", reviewItemUrn: item.urn };
    }
    if (!error.retryable) throw error;
    return { outcome: "failed", vendorErrorCode: code };
  }
}
