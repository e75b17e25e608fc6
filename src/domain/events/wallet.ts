import type { Money } from "../money.js";

/**
 * Wallet card events (spec 2.7, 6.1). A card is one per (case, group); the service keeps its URN,
 * balances and transactions, never the card number, verification code or expiry, so none of these
 * carries them.
 */
export interface WalletCardIssuedData {
  cardUrn: string;
  caseUrn: string;
  groupId: string;
  /** Frozen at issue: the most the card was authorized to hold. */
  initialBalance: Money;
}

/** `wallet.card-tx`: an authorization, settlement or reversal the wallet vendor reported. */
export interface WalletCardTransactionData {
  cardUrn: string;
  caseUrn: string;
  groupId: string;
  /** e.g. AUTHORIZATION, SETTLEMENT, REVERSAL. */
  transactionType: string;
  amount: Money;
  merchant: string | null;
  /** ISO 8601: when the vendor says it happened. */
  transactionAt: string;
}

export interface WalletCardCancelledData {
  cardUrn: string;
  caseUrn: string;
  groupId: string;
  reason: string;
}

export interface WalletEventDataByType {
  "wallet.card-issued": WalletCardIssuedData;
  "wallet.card-tx": WalletCardTransactionData;
  "wallet.card-cancelled": WalletCardCancelledData;
}
