/**
 * The wallet issuer as the service sees it (spec 2.7, 6.3): it issues virtual prepaid cards from
 * the tenant's funding pool, loads their scheduled drops, cancels them (the unused balance goes back
 * to the pool), answers what it holds about a card for the daily reconciliation, and opens a
 * short-lived session of its hosted page where the passenger sees the card number. The card number,
 * verification code and expiry never cross this port.
 */
import type { IssuerCardRecord } from "../domain/wallet/wallet-card.js";
import type { VendorMode } from "./tenant-vendors.js";
import type { ClientCredentials } from "./vendor-adapter.js";

export interface IssueCardRequest {
  /** The issuer's idempotency key: the same reference gives back the same card. */
  reference: string;
  /** The card's whole amount (its initial balance), minor units. */
  amount: number;
  currency: string;
  /** What the issuer loads with the issue itself (the first drop), minor units. */
  initialLoad: number;
}

export interface LoadCardRequest {
  /** The issuer's idempotency key: a load with a reference seen before loads nothing. */
  reference: string;
  amount: number;
  currency: string;
}

export interface RevealSession {
  url: string;
  expiresAt: string;
}

export interface WalletIssuer {
  readonly vendor: string;
  issueCard(request: IssueCardRequest): Promise<{ issuerCardId: string }>;
  loadCard(issuerCardId: string, request: LoadCardRequest): Promise<void>;
  /** Cancels for good; cancelling a cancelled card answers what the first cancellation returned. */
  cancelCard(issuerCardId: string, reason: string): Promise<{ returnedToPool: number }>;
  cardRecord(issuerCardId: string): Promise<IssuerCardRecord>;
  revealSession(issuerCardId: string): Promise<RevealSession>;
}

/** The issuer's error code when the tenant's funding pool cannot cover a card (spec 7). */
export const FUNDING_POOL_EXHAUSTED = "FUNDING_POOL_EXHAUSTED";

export interface WalletIssuerAccount {
  /** The issuer's id, as inbound webhooks name it (`/v1/wallet/webhooks/{vendor}`). */
  vendor: string;
  mode: VendorMode;
  credentials: ClientCredentials;
  /** The secret the issuer signs this tenant's webhooks with (HMAC-SHA256, spec 4.5). */
  webhookSecret: string;
  /** Live mode only: the issuer's API base URL. */
  baseUrl?: string;
}

/** Each tenant's wallet issuer account and its client (spec 5.6: tenant-managed, mock or live). */
export interface WalletIssuers {
  /** Undefined: the tenant has no wallet issuer. */
  accountOf(tenant: string): WalletIssuerAccount | undefined;
  issuerOf(tenant: string): WalletIssuer | undefined;
}
