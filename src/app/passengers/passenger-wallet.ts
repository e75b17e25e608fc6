import { type WalletCard, availableBalance } from "../../domain/wallet/wallet-card.js";

/**
 * `GET /v1/me/wallet` (spec 4.4: "card details: balance, available, transactions"): the group's
 * virtual meal card, its latest (a cancelled one too, so the passenger sees it was cancelled), with
 * amounts in minor units as the issuer's webhooks carry them (spec 4.5). The card number is never
 * here: `GET /v1/me/wallet/reveal` gives the issuer's hosted page that shows it.
 */
export interface PassengerWallet {
  card: PassengerWalletCard | null;
}

export interface PassengerWalletCard {
  cardUrn: string;
  status: string;
  currency: string;
  /** Minor units. */
  balance: number;
  /** Minor units: the balance less what is held. */
  available: number;
  transactions: {
    type: string;
    amount: { value: number; currency: string };
    merchant: string | null;
    occurredAt: string;
  }[];
}

export function passengerWalletOf(card: WalletCard | undefined): PassengerWallet {
  if (!card) return { card: null };
  return {
    card: {
      cardUrn: card.urn,
      status: card.status,
      currency: card.currency,
      balance: card.currentBalance,
      available: availableBalance(card),
      transactions: card.transactions.map((t) => ({
        type: t.type,
        amount: { value: t.amount, currency: t.currency },
        merchant: t.merchant,
        occurredAt: t.occurredAt,
      })),
    },
  };
}
