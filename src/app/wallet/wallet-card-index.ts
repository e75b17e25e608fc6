import { inject, injectable } from "tsyringe";
import type { WalletCardState, WalletCardStatus } from "../../domain/wallet/wallet-card.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * One document per wallet card, keyed by the issuer and the issuer's card id: how an issuer's
 * webhook finds its card (spec 4.5: "resolve the card URN from card_id"), and how a case's cards
 * and a tenant's loaded cards are listed. Balances and history stay in the card's actor.
 */
export interface WalletCardIndexDoc {
  /** `<vendor>/<issuer card id>`. */
  _id: string;
  cardUrn: string;
  tenant: string;
  caseUrn: string;
  groupId: string;
  vendor: string;
  issuerCardId: string;
  status: WalletCardStatus;
  issuedAt: string;
}

export const WALLET_CARD_COLLECTION = "wallet-cards";

@injectable()
export class WalletCardIndex {
  private readonly collection: DocumentCollection<WalletCardIndexDoc>;

  constructor(@inject(TOKENS.documents) documents: DocumentStore) {
    this.collection = documents.collection<WalletCardIndexDoc>(WALLET_CARD_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.ensureIndex({ keys: { tenant: 1, caseUrn: 1 } });
    await this.collection.ensureIndex({ keys: { tenant: 1, status: 1 } });
  }

  async record(tenant: string, card: WalletCardState): Promise<void> {
    await this.collection.put({
      _id: keyOf(card.vendor, card.issuerCardId),
      cardUrn: card.urn,
      tenant,
      caseUrn: card.caseUrn,
      groupId: card.groupId,
      vendor: card.vendor,
      issuerCardId: card.issuerCardId,
      status: card.status,
      issuedAt: card.issuedAt,
    });
  }

  byIssuerCard(vendor: string, issuerCardId: string): Promise<WalletCardIndexDoc | undefined> {
    return this.collection.get(keyOf(vendor, issuerCardId));
  }

  ofCase(tenant: string, caseUrn: string): Promise<WalletCardIndexDoc[]> {
    return this.collection.findAll({ tenant, caseUrn }, { sort: { groupId: 1, issuedAt: 1 } });
  }

  loadedOfTenant(tenant: string): Promise<WalletCardIndexDoc[]> {
    return this.collection.findAll({ tenant, status: "LOADED" });
  }
}

function keyOf(vendor: string, issuerCardId: string): string {
  return `${vendor}/${issuerCardId}`;
}
