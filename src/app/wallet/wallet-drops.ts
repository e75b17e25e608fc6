import { inject, injectable } from "tsyringe";
import { WalletCardActor } from "../../../actors/WalletCardActor.js";
import type { DropId } from "../../domain/wallet/scheduled-drops.js";
import { parseWalletCardUrn, pendingDrops } from "../../domain/wallet/wallet-card.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { WalletIssuers } from "../../vendors/wallet-issuer-port.js";
import { walletCardFor } from "./cancel-wallet-card.js";

/**
 * A card's scheduled drop came due (spec 8.2, `wallet.drop-due` from the card's reminder): the
 * issuer loads it, then the card records it. The issuer's load is keyed by card and drop, so a
 * redelivered event loads nothing twice; a card cancelled meanwhile, or a drop already loaded, is
 * left alone.
 */
@injectable()
export class WalletDrops {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.walletIssuers) private readonly issuers: WalletIssuers,
  ) {}

  async load(cardUrn: string, dropId: DropId, correlationUrn: string): Promise<void> {
    const { record, card } = await walletCardFor(this.actors, cardUrn);
    const drop = pendingDrops(card).find((d) => d.id === dropId);
    const issuer = this.issuers.issuerOf(record.tenant);
    if (!drop || !issuer) return;
    await issuer.loadCard(card.issuerCardId, {
      reference: `${card.urn.slice("urn:wallet-card:".length)}.${dropId}`,
      amount: drop.amount,
      currency: card.currency,
    });
    await this.actors.invoke(WalletCardActor, parseWalletCardUrn(card.urn)!.actorId, "loadDrop", {
      cardUrn,
      dropId,
      correlationUrn,
    });
  }
}
