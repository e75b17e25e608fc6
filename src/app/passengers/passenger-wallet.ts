import { DomainError } from "../../domain/domain-error.js";
import type { PassengerSnapshot } from "./passenger-snapshot.js";

/**
 * `GET /v1/me/wallet` (spec 4.4: "card details: balance, available, transactions"): the group's
 * virtual meal card. No card is issued by the service yet, so every answer is `card: null`; the
 * card's shape is documented for when cards are issued (amounts in minor units, as the wallet
 * webhook of spec 4.5 carries them).
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

export function passengerWalletOf(_snapshot: PassengerSnapshot): PassengerWallet {
  return { card: null };
}

/**
 * `GET /v1/me/wallet/reveal` (spec 4.4: a short-lived URL of the issuer's hosted iframe): no card is
 * issued yet, so there is no card number to reveal (404).
 */
export function revealWalletCard(_snapshot: PassengerSnapshot): never {
  throw new DomainError("not-found", "wallet-card-not-issued", "No meal card has been issued to your group");
}
