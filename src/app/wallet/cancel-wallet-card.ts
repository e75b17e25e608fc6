import { inject, injectable } from "tsyringe";
import { WalletCardActor, type WalletRecord } from "../../../actors/WalletCardActor.js";
import { DomainError } from "../../domain/domain-error.js";
import { type WalletCardState, parseWalletCardUrn } from "../../domain/wallet/wallet-card.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { WalletIssuers } from "../../vendors/wallet-issuer-port.js";
import type { AuditLog } from "../audit-log.js";
import { assertAirport, assertTenant } from "../authorization.js";
import type { OperatorPrincipal } from "../principals.js";
import { WalletCardIndex } from "./wallet-card-index.js";

export interface CancelWalletCardInput {
  cardUrn: string;
  /** END_OF_CONTINGENCY, FRAUD or LOST from an operator (spec 4.2); the saga names its own. */
  reason: string;
  /** Who cancels: the operator's URN, or the saga's system actor. */
  by: string;
  correlationUrn: string;
  /** An operator's request: the card must be of the operator's airline (and airport, when scoped). */
  caller?: OperatorPrincipal;
}

export interface CancelledWalletCard {
  card: WalletCardState;
  /** What the issuer gave back to the tenant's funding pool, minor units. */
  returnedToPool: number;
  /** True when the card was cancelled already: nothing was asked of the issuer again. */
  replayed: boolean;
}

/**
 * Cancels a wallet card for good (spec 3.6, 4.2): the issuer cancels it and returns the unused
 * balance to the tenant's funding pool, the card becomes CANCELLED with what was returned,
 * `wallet.card-cancelled` is emitted and the cancellation audited. Idempotent: a cancelled card is
 * answered as it stands (the issuer's cancel is idempotent too, so a retry after a lost answer is
 * safe). The saga's wallet leg calls it to compensate.
 */
@injectable()
export class CancelWalletCard {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.walletIssuers) private readonly issuers: WalletIssuers,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
    @inject(WalletCardIndex) private readonly index: WalletCardIndex,
  ) {}

  async cancelWalletCard(input: CancelWalletCardInput): Promise<CancelledWalletCard> {
    const { record, card } = await walletCardFor(this.actors, input.cardUrn, input.caller);
    if (card.status === "CANCELLED") {
      return { card, returnedToPool: card.returnedToPool ?? 0, replayed: true };
    }
    const issuer = this.issuers.issuerOf(record.tenant);
    if (!issuer || issuer.vendor !== card.vendor) {
      throw new DomainError(
        "unprocessable",
        "wallet-issuer-not-configured",
        `No issuer ${card.vendor} for the tenant`,
      );
    }
    const { returnedToPool } = await issuer.cancelCard(card.issuerCardId, input.reason);
    const result = await this.actors.invoke(
      WalletCardActor,
      parseWalletCardUrn(card.urn)!.actorId,
      "cancel",
      {
        cardUrn: card.urn,
        reason: input.reason,
        by: input.by,
        returnedToPool,
        correlationUrn: input.correlationUrn,
      },
    );
    await this.index.record(record.tenant, result.card);
    if (result.changed) {
      await this.audit.append({
        tenant: record.tenant,
        actorUrn: input.by,
        action: "wallet.card-cancel",
        entityUrn: card.urn,
        caseUrn: record.caseUrn,
        correlationUrn: input.correlationUrn,
        reason: input.reason,
        before: { status: card.status, currentBalance: card.currentBalance },
        after: { status: result.card.status, returnedToPool },
      });
    }
    return {
      card: result.card,
      returnedToPool: result.card.returnedToPool ?? returnedToPool,
      replayed: !result.changed,
    };
  }
}

/**
 * The card a URN names with the record of its (case, group): 404 when there is none, 403 when an
 * operator's airline (or airport) is not the card's.
 */
export async function walletCardFor(
  actors: ActorRuntime,
  cardUrn: string,
  caller?: OperatorPrincipal,
): Promise<{ record: WalletRecord; card: WalletCardState }> {
  const ref = parseWalletCardUrn(cardUrn);
  const record = ref ? await actors.invoke(WalletCardActor, ref.actorId, "get") : undefined;
  const card = record?.cards.find((c) => c.urn === cardUrn);
  if (!record || !card) throw new DomainError("not-found", "wallet-card", `No wallet card ${cardUrn}`);
  if (caller) {
    assertTenant(caller, record.tenant);
    assertAirport(caller, record.airport);
  }
  return { record, card };
}
