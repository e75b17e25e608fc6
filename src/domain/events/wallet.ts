import type { DropId } from "../wallet/scheduled-drops.js";
import type { Correction, WalletCardStatus, WalletTransactionType } from "../wallet/wallet-card.js";

/** The events of wallet cards (WalletCardActor, WalletReconciliationActor, issuance; spec 6.1). */
export const WALLET_EVENT = {
  cardIssued: "wallet.card-issued",
  cardTx: "wallet.card-tx",
  cardCancelled: "wallet.card-cancelled",
  /** A scheduled drop was loaded onto the card. */
  cardLoaded: "wallet.card-loaded",
  /** The daily reconciliation corrected the card from the issuer (an alert for operations). */
  cardReconciled: "wallet.card-reconciled",
  /** A card's drop reminder fired: the issuer is asked to load it. */
  dropDue: "wallet.drop-due",
  /** The tenant's daily reconciliation came round. */
  reconciliationDue: "wallet.reconciliation-due",
  /** The issuer refused the tenant's credentials: issuance is paused (an alert for operations). */
  issuancePaused: "wallet.issuance-paused",
} as const;

/** What every card event carries: the card's balances after the change, in minor units. */
export interface WalletCardEventData {
  cardUrn: string;
  caseUrn: string;
  groupId: string;
  status: WalletCardStatus;
  currency: string;
  initialBalance: number;
  currentBalance: number;
  availableBalance: number;
  version: number;
}

export interface WalletCardTxData extends WalletCardEventData {
  /** The issuer's event id. */
  eventId: string;
  type: WalletTransactionType;
  amount: { value: number; currency: string };
  merchant: string | null;
  occurredAt: string;
}

export interface WalletCardCancelledData extends WalletCardEventData {
  reason: string;
  /** Minor units the issuer gave back to the funding pool. */
  returnedToPool: number;
  by: string;
}

export interface WalletCardLoadedData extends WalletCardEventData {
  dropId: DropId;
  amount: number;
}

export interface WalletCardReconciledData extends WalletCardEventData {
  corrections: Correction[];
}

export interface WalletDropDueData {
  cardUrn: string;
  dropId: DropId;
}

export interface WalletReconciliationDueData {
  tenant: string;
}

export interface WalletIssuancePausedData {
  tenant: string;
  vendor: string;
  /** The issuer's answer: HTTP_401 or HTTP_403. */
  vendorErrorCode: string;
  caseUrn: string;
  groupId: string;
}

export interface WalletEventDataByType {
  "wallet.card-issued": WalletCardEventData;
  "wallet.card-tx": WalletCardTxData;
  "wallet.card-cancelled": WalletCardCancelledData;
  "wallet.card-loaded": WalletCardLoadedData;
  "wallet.card-reconciled": WalletCardReconciledData;
  "wallet.drop-due": WalletDropDueData;
  "wallet.reconciliation-due": WalletReconciliationDueData;
  "wallet.issuance-paused": WalletIssuancePausedData;
}
