/**
 * A virtual prepaid wallet card (spec 2.7, 3.6) and its rules. One card per (case, group) at a
 * time; a cancelled card stays cancelled (irreversible) and a re-issue makes a new card. Balances
 * are in the currency's minor units:
 * - initialBalance: frozen at issue, the most the card may ever hold;
 * - currentBalance: settled funds, what the drops loaded less what captures settled;
 * - availableBalance: currentBalance less the authorization holds (`heldBalance`), always derived,
 *   never stored, so the two can never disagree.
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

/**
 * The card as its actor keeps it, without its history: what every turn reads and writes, so a
 * turn's cost does not grow with the card's transactions or open holds. The holds themselves (by
 * authorization id) and the transactions are kept beside it, one state key each.
 */
export interface WalletCardState {
  urn: string;
  caseUrn: string;
  groupId: string;
  /** The issuer's id of the card (the webhook's `card_id`). */
  issuerCardId: string;
  vendor: string;
  currency: string;
  initialBalance: number;
  currentBalance: number;
  /** The sum of the open authorization holds, minor units. */
  heldBalance: number;
  /**
   * Bumped when the reconciliation takes the holds from the issuer: holds are kept per epoch, so
   * the holds of an earlier epoch are simply no longer read.
   */
  holdsEpoch: number;
  /** How many transactions the card has recorded. */
  transactionCount: number;
  status: WalletCardStatus;
  drops: CardDrop[];
  issuedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  /** What the issuer gave back to the funding pool on cancellation, minor units. */
  returnedToPool: number | null;
  updatedAt: string;
  /** Bumped by every change. */
  version: number;
}

/** The card with its transactions, oldest first: what reads show. */
export interface WalletCard extends WalletCardState {
  transactions: WalletTransaction[];
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
  card: WalletCardState;
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

export function availableBalance(card: Pick<WalletCardState, "currentBalance" | "heldBalance">): number {
  return card.currentBalance - card.heldBalance;
}

/** The sum of a map of holds. */
export function heldIn(holds: Readonly<Record<string, number>>): number {
  let held = 0;
  for (const amount of Object.values(holds)) held += amount;
  return held;
}

/** A new LOADED card: the issuer loaded the first drop with the issue itself. */
export function issueCard(input: IssuedCard, now: Date): WalletCardState {
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
    heldBalance: 0,
    holdsEpoch: 0,
    transactionCount: 0,
    status: "LOADED",
    drops,
    issuedAt: at,
    cancelledAt: null,
    cancelReason: null,
    returnedToPool: null,
    updatedAt: at,
    version: 1,
  };
}

/**
 * One issuer event applied to the balances (spec 4.5, 6.3), given what its authorization holds
 * (`held`, 0 for none); the actor stores the card, the hold after and the record in one turn:
 * - AUTHORIZATION holds its amount (available goes down, current stays);
 * - CAPTURE settles: the hold goes and current goes down by the captured amount;
 * - REVERSAL and HOLD_RELEASED release (up to) their amount of the hold.
 * The actor has dropped an event id seen before. A cancelled card keeps the record but its balances
 * stay at what cancellation left.
 */
export function applyTransaction(
  card: WalletCardState,
  tx: WalletTransaction,
  held: number,
  now: Date,
): { card: WalletCardState; holdAfter: number } {
  if (tx.currency !== card.currency) {
    throw new DomainError(
      "invalid",
      "wallet-currency",
      `The card is in ${card.currency}; the event is in ${tx.currency}`,
    );
  }
  // The moved balances first, then the card in one object: this runs for every issuer event.
  let heldBalance = card.heldBalance;
  let currentBalance = card.currentBalance;
  let holdAfter = held;
  if (card.status !== "CANCELLED") {
    switch (tx.type) {
      case "AUTHORIZATION":
        heldBalance += tx.amount;
        holdAfter = held + tx.amount;
        break;
      case "CAPTURE":
        heldBalance -= held;
        currentBalance -= tx.amount;
        holdAfter = 0;
        break;
      case "REVERSAL":
      case "HOLD_RELEASED": {
        const released = Math.min(held, tx.amount);
        heldBalance -= released;
        holdAfter = held - released;
        break;
      }
    }
  }
  return {
    card: {
      ...card,
      heldBalance,
      currentBalance,
      transactionCount: card.transactionCount + 1,
      ...touched(card, now),
    },
    holdAfter,
  };
}

/** The key a transaction's hold is kept under: its authorization, else the event itself. */
export function holdKeyOf(tx: Pick<WalletTransaction, "authorizationId" | "eventId">): string {
  return tx.authorizationId ?? tx.eventId;
}

/** A scheduled drop the issuer loaded: current goes up by its amount, once. */
export function loadDrop(card: WalletCardState, dropId: DropId, now: Date): CardMove {
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
export function pendingDrops(card: WalletCardState): CardDrop[] {
  return card.status === "LOADED" ? card.drops.filter((d) => !d.loadedAt) : [];
}

/**
 * Cancelled for good (spec 3.6): holds are void, nothing more is loaded, and what the issuer gave
 * back to the funding pool is recorded. Cancelling a cancelled card changes nothing.
 */
export function cancelCard(
  card: WalletCardState,
  cancellation: { reason: string; returnedToPool: number },
  now: Date,
): CardMove {
  if (card.status === "CANCELLED") return { card, changed: false };
  return {
    card: {
      ...card,
      status: "CANCELLED",
      currentBalance: 0,
      heldBalance: 0,
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
 * The daily reconciliation (spec 6.3), given the issuer's record and, of its transactions, those
 * the card lacks (`missing`): they are backfilled, drifted balances are taken from the issuer (its
 * holds with them, as a new holds epoch), and a card the issuer cancelled is cancelled here. Every
 * difference is one correction, for the alert and the audit trail.
 */
export function reconcileCard(
  card: WalletCardState,
  issuer: IssuerCardRecord,
  missing: readonly Omit<WalletTransaction, "source">[],
  now: Date,
): CardMove & {
  corrections: Correction[];
  backfill: WalletTransaction[];
  /** The issuer's holds to keep under the card's new `holdsEpoch`; none when the holds stand. */
  holds: Record<string, number> | null;
} {
  const corrections: Correction[] = missing.map((t) => ({
    kind: "missing-transaction",
    eventId: t.eventId,
    type: t.type,
    amount: t.amount,
  }));
  const backfill = missing.map((t) => ({ ...t, source: "reconciliation" as const }));
  let next: WalletCardState = { ...card, transactionCount: card.transactionCount + backfill.length };
  let holds: Record<string, number> | null = null;
  if (card.status === "LOADED" && issuer.status === "CANCELLED") {
    corrections.push({ kind: "status", local: card.status, issuer: issuer.status });
    next = cancelCard(next, { reason: ISSUER_CANCELLED, returnedToPool: 0 }, now).card;
  } else if (card.status === "LOADED") {
    const issuerHeld = heldIn(issuer.holds);
    if (card.currentBalance !== issuer.currentBalance) {
      corrections.push({
        kind: "balance",
        field: "currentBalance",
        local: card.currentBalance,
        issuer: issuer.currentBalance,
      });
    }
    if (availableBalance(card) !== issuer.currentBalance - issuerHeld) {
      corrections.push({
        kind: "balance",
        field: "availableBalance",
        local: availableBalance(card),
        issuer: issuer.currentBalance - issuerHeld,
      });
    }
    if (corrections.length > 0) {
      holds = { ...issuer.holds };
      next = {
        ...next,
        currentBalance: issuer.currentBalance,
        heldBalance: issuerHeld,
        holdsEpoch: card.holdsEpoch + 1,
      };
    }
  }
  if (corrections.length === 0) return { card, changed: false, corrections, backfill, holds };
  return { card: { ...next, ...touched(card, now) }, changed: true, corrections, backfill, holds };
}

function touched(card: WalletCardState, now: Date): Pick<WalletCardState, "updatedAt" | "version"> {
  return { updatedAt: now.toISOString(), version: card.version + 1 };
}
