/**
 * A virtual prepaid wallet card (spec 2.7, 3.6) and its rules. One card per (case, group) at a
 * time; a cancelled card stays cancelled (irreversible) and a re-issue makes a new card. Balances
 * are in the currency's minor units:
 * - initialBalance: frozen at issue, the most the card may ever hold;
 * - currentBalance: settled funds, what the drops loaded less what captures settled;
 * - availableBalance: currentBalance less the authorization holds, always derived, never stored,
 *   so the two can never disagree.
 * The card number, verification code and expiry are never part of it: the issuer keeps them and
 * shows them on its own hosted page (spec 2.7, 4.4).
 */
import { DomainError } from "../domain-error.js";
import { uuidFromParts } from "../uuid.js";
import type { DropId, PlannedDrop } from "./scheduled-drops.js";

export const WALLET_CARD_STATUSES = ["LOADED", "CANCELLED"] as const;
export type WalletCardStatus = (typeof WALLET_CARD_STATUSES)[number];

/** Why an operator cancels a card (spec 4.2: end of contingency, fraud, lost). */
export const WALLET_CANCEL_REASONS = ["END_OF_CONTINGENCY", "FRAUD", "LOST"] as const;
export type WalletCancelReason = (typeof WALLET_CANCEL_REASONS)[number];
/** The issuer cancelled the card on its side; reconciliation brought it over (spec 6.3). */
export const ISSUER_CANCELLED = "ISSUER_CANCELLED";

/** The issuer's events (spec 6.3): a hold, its settlement, its reversal, its expiry. */
export const WALLET_TRANSACTION_TYPES = ["AUTHORIZATION", "CAPTURE", "REVERSAL", "HOLD_RELEASED"] as const;
export type WalletTransactionType = (typeof WALLET_TRANSACTION_TYPES)[number];

export interface WalletTransaction {
  /** The issuer's event id (X-Vendor-Event-Id): the dedupe key. */
  eventId: string;
  type: WalletTransactionType;
  /** Minor units. */
  amount: number;
  currency: string;
  merchant: string | null;
  occurredAt: string;
  /** The authorization a capture, reversal or release refers to (an authorization's own id). */
  authorizationId: string | null;
  /** Webhook, or backfilled by the daily reconciliation. */
  source: "webhook" | "reconciliation";
}

export interface CardDrop extends PlannedDrop {
  loadedAt: string | null;
}

export interface WalletCard {
  urn: string;
  caseUrn: string;
  groupId: string;
  /** The issuer's id of the card (the webhook's `card_id`). */
  issuerCardId: string;
  vendor: string;
  currency: string;
  initialBalance: number;
  currentBalance: number;
  /** Open authorization holds by authorization id, minor units. */
  holds: Record<string, number>;
  status: WalletCardStatus;
  drops: CardDrop[];
  transactions: WalletTransaction[];
  issuedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  /** What the issuer gave back to the funding pool on cancellation, minor units. */
  returnedToPool: number | null;
  updatedAt: string;
  /** Bumped by every change. */
  version: number;
}

export interface IssuedCard {
  urn: string;
  caseUrn: string;
  groupId: string;
  issuerCardId: string;
  vendor: string;
  currency: string;
  amount: number;
  drops: PlannedDrop[];
}

/** How a move went: `changed` false means nothing to store or publish (a replay). */
export interface CardMove {
  card: WalletCard;
  changed: boolean;
}

/** The actor id of a (case, group)'s wallet: derived, so asking again lands on the same actor. */
export function walletActorIdFor(caseUrn: string, groupId: string): string {
  return uuidFromParts("", "wallet", caseUrn, groupId);
}

/** The URN of the `generation`th card of a (case, group): `urn:wallet-card:<actor id>.<n>`. */
export function walletCardUrnFor(actorId: string, generation: number): string {
  return `urn:wallet-card:${actorId}.${generation}`;
}

/** The actor id and generation a card URN names; undefined for anything else. */
export function parseWalletCardUrn(urn: string): { actorId: string; generation: number } | undefined {
  const match = /^urn:wallet-card:([0-9a-f-]{36})\.([1-9][0-9]{0,5})$/.exec(urn);
  return match ? { actorId: match[1]!, generation: Number(match[2]) } : undefined;
}

export function availableBalance(card: Pick<WalletCard, "currentBalance" | "holds">): number {
  let held = 0;
  for (const amount of Object.values(card.holds)) held += amount;
  return card.currentBalance - held;
}

/** A new LOADED card: the issuer loaded the first drop with the issue itself. */
export function issueCard(input: IssuedCard, now: Date): WalletCard {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new DomainError(
      "invalid",
      "wallet-amount",
      "A wallet card's amount is a positive integer of minor units",
    );
  }
  const at = now.toISOString();
  const drops = input.drops.map((d) => ({ ...d, loadedAt: d.id === "issue" ? at : null }));
  return {
    urn: input.urn,
    caseUrn: input.caseUrn,
    groupId: input.groupId,
    issuerCardId: input.issuerCardId,
    vendor: input.vendor,
    currency: input.currency,
    initialBalance: input.amount,
    currentBalance: drops.filter((d) => d.loadedAt).reduce((sum, d) => sum + d.amount, 0),
    holds: {},
    status: "LOADED",
    drops,
    transactions: [],
    issuedAt: at,
    cancelledAt: null,
    cancelReason: null,
    returnedToPool: null,
    updatedAt: at,
    version: 1,
  };
}

/**
 * One issuer event applied to the balances, atomically with its record (spec 4.5, 6.3):
 * - AUTHORIZATION holds its amount (available goes down, current stays);
 * - CAPTURE settles: the hold goes and current goes down by the captured amount;
 * - REVERSAL and HOLD_RELEASED release (up to) their amount of the hold.
 * An event id seen before changes nothing. A cancelled card keeps the record but its balances stay
 * at what cancellation left.
 */
export function applyTransaction(card: WalletCard, tx: WalletTransaction, now: Date): CardMove {
  if (card.transactions.some((t) => t.eventId === tx.eventId)) return { card, changed: false };
  if (tx.currency !== card.currency) {
    throw new DomainError(
      "invalid",
      "wallet-currency",
      `The card is in ${card.currency}; the event is in ${tx.currency}`,
    );
  }
  const next = { ...card, transactions: [...card.transactions, tx], ...touched(card, now) };
  if (card.status === "CANCELLED") return { card: next, changed: true };
  return { card: { ...next, ...balancesAfter(card, tx) }, changed: true };
}

function balancesAfter(
  card: WalletCard,
  tx: WalletTransaction,
): Pick<WalletCard, "currentBalance" | "holds"> {
  const key = tx.authorizationId ?? tx.eventId;
  const holds = { ...card.holds };
  const held = holds[key] ?? 0;
  switch (tx.type) {
    case "AUTHORIZATION":
      holds[key] = held + tx.amount;
      return { currentBalance: card.currentBalance, holds };
    case "CAPTURE":
      delete holds[key];
      return { currentBalance: card.currentBalance - tx.amount, holds };
    case "REVERSAL":
    case "HOLD_RELEASED": {
      const left = held - Math.min(held, tx.amount);
      if (left > 0) holds[key] = left;
      else delete holds[key];
      return { currentBalance: card.currentBalance, holds };
    }
  }
}

/** A scheduled drop the issuer loaded: current goes up by its amount, once. */
export function loadDrop(card: WalletCard, dropId: DropId, now: Date): CardMove {
  const drop = card.drops.find((d) => d.id === dropId);
  if (!drop || drop.loadedAt || card.status === "CANCELLED") return { card, changed: false };
  const at = now.toISOString();
  return {
    card: {
      ...card,
      drops: card.drops.map((d) => (d.id === dropId ? { ...d, loadedAt: at } : d)),
      currentBalance: card.currentBalance + drop.amount,
      ...touched(card, now),
    },
    changed: true,
  };
}

/** The drops still to load, soonest first. */
export function pendingDrops(card: WalletCard): CardDrop[] {
  return card.status === "LOADED" ? card.drops.filter((d) => !d.loadedAt) : [];
}

/**
 * Cancelled for good (spec 3.6): holds are void, nothing more is loaded, and what the issuer gave
 * back to the funding pool is recorded. Cancelling a cancelled card changes nothing.
 */
export function cancelCard(
  card: WalletCard,
  cancellation: { reason: string; returnedToPool: number },
  now: Date,
): CardMove {
  if (card.status === "CANCELLED") return { card, changed: false };
  return {
    card: {
      ...card,
      status: "CANCELLED",
      currentBalance: 0,
      holds: {},
      cancelledAt: now.toISOString(),
      cancelReason: cancellation.reason,
      returnedToPool: cancellation.returnedToPool,
      ...touched(card, now),
    },
    changed: true,
  };
}

/** What the issuer holds about a card: the reference the daily reconciliation compares with. */
export interface IssuerCardRecord {
  status: WalletCardStatus;
  currentBalance: number;
  holds: Record<string, number>;
  transactions: Omit<WalletTransaction, "source">[];
}

export type Correction =
  | { kind: "missing-transaction"; eventId: string; type: WalletTransactionType; amount: number }
  | { kind: "balance"; field: "currentBalance" | "availableBalance"; local: number; issuer: number }
  | { kind: "status"; local: WalletCardStatus; issuer: WalletCardStatus };

/**
 * The daily reconciliation (spec 6.3): transactions the issuer has and the card lacks are
 * backfilled, balances that drifted are taken from the issuer, and a card the issuer cancelled is
 * cancelled here. Every difference is one correction, for the alert and the audit trail.
 */
export function reconcileCard(
  card: WalletCard,
  issuer: IssuerCardRecord,
  now: Date,
): CardMove & { corrections: Correction[] } {
  const corrections: Correction[] = [];
  const known = new Set(card.transactions.map((t) => t.eventId));
  const missing = issuer.transactions.filter((t) => !known.has(t.eventId));
  for (const t of missing) {
    corrections.push({ kind: "missing-transaction", eventId: t.eventId, type: t.type, amount: t.amount });
  }
  let next: WalletCard = {
    ...card,
    transactions: [
      ...card.transactions,
      ...missing.map((t) => ({ ...t, source: "reconciliation" as const })),
    ],
  };
  if (card.status === "LOADED" && issuer.status === "CANCELLED") {
    corrections.push({ kind: "status", local: card.status, issuer: issuer.status });
    next = cancelCard(next, { reason: ISSUER_CANCELLED, returnedToPool: 0 }, now).card;
  } else if (card.status === "LOADED") {
    const issuerAvailable = availableBalance(issuer);
    if (card.currentBalance !== issuer.currentBalance) {
      corrections.push({
        kind: "balance",
        field: "currentBalance",
        local: card.currentBalance,
        issuer: issuer.currentBalance,
      });
    }
    if (availableBalance(card) !== issuerAvailable) {
      corrections.push({
        kind: "balance",
        field: "availableBalance",
        local: availableBalance(card),
        issuer: issuerAvailable,
      });
    }
    next = { ...next, currentBalance: issuer.currentBalance, holds: { ...issuer.holds } };
  }
  if (corrections.length === 0) return { card, changed: false, corrections };
  return { card: { ...next, ...touched(card, now) }, changed: true, corrections };
}

function touched(card: WalletCard, now: Date): Pick<WalletCard, "updatedAt" | "version"> {
  return { updatedAt: now.toISOString(), version: card.version + 1 };
}
