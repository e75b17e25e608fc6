import { inject, injectable } from "tsyringe";
import { WalletCardActor } from "../../../actors/WalletCardActor.js";
import { caseSnapshotFor } from "../cases/case-access.js";
import { DomainError } from "../../domain/domain-error.js";
import { type WalletCard, parseWalletCardUrn, walletActorIdFor } from "../../domain/wallet/wallet-card.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import type { RevealSession, WalletIssuers } from "../../vendors/wallet-issuer-port.js";
import type { OperatorPrincipal } from "../principals.js";
import { WalletCardIndex } from "./wallet-card-index.js";

/**
 * Reads of wallet cards: a case's cards for operators (balances and history), a group's current
 * card for the passenger (spec 4.4 `/v1/me/wallet`), and the issuer's hosted page where the
 * passenger sees the card number (`/v1/me/wallet/reveal`: the number never passes through here).
 */
@injectable()
export class WalletReads {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(TOKENS.walletIssuers) private readonly issuers: WalletIssuers,
    @inject(WalletCardIndex) private readonly index: WalletCardIndex,
  ) {}

  /** Every card of the case's groups, oldest first per group; 404/403 as the case's other reads. */
  async cardsOfCase(caller: OperatorPrincipal, caseUrn: string): Promise<WalletCard[]> {
    const snapshot = await caseSnapshotFor(this.actors, caller, caseUrn);
    // From the index, not the manifest: a group split or merged away since keeps its cards.
    const entries = await this.index.ofCase(snapshot.case.tenant, snapshot.case.urn);
    const groups = [...new Set(entries.map((e) => e.groupId))];
    const histories = await Promise.all(
      groups.map((groupId) =>
        this.actors.invoke(WalletCardActor, walletActorIdFor(snapshot.case.urn, groupId), "history"),
      ),
    );
    return histories.flat();
  }

  /** The group's latest card (a cancelled one too: the passenger sees it was cancelled), if any. */
  async cardOfGroup(caseUrn: string, groupId: string): Promise<WalletCard | undefined> {
    const history = await this.actors.invoke(WalletCardActor, walletActorIdFor(caseUrn, groupId), "history");
    return history.at(-1);
  }

  /** One card with its transactions, by URN; 404 when there is none. */
  async cardByUrn(cardUrn: string): Promise<WalletCard> {
    const ref = parseWalletCardUrn(cardUrn);
    const history = ref ? await this.actors.invoke(WalletCardActor, ref.actorId, "history") : [];
    const card = history.find((c) => c.urn === cardUrn);
    if (!card) throw new DomainError("not-found", "wallet-card", `No wallet card ${cardUrn}`);
    return card;
  }

  /** A short-lived session of the issuer's hosted page for the group's LOADED card; 404 without one. */
  async reveal(tenant: string, caseUrn: string, groupId: string): Promise<RevealSession> {
    const record = await this.actors.invoke(WalletCardActor, walletActorIdFor(caseUrn, groupId), "get");
    const card = record?.cards.at(-1);
    const issuer = this.issuers.issuerOf(tenant);
    if (card?.status !== "LOADED" || !issuer) {
      throw new DomainError("not-found", "wallet-card-not-issued", "Your group holds no meal card");
    }
    return issuer.revealSession(card.issuerCardId);
  }
}
