import { randomBytes } from "node:crypto";
import { DomainError } from "../src/domain/domain-error.js";
import {
  WALLET_EVENT,
  type WalletCardEventData,
  type WalletEventDataByType,
} from "../src/domain/events/wallet.js";
import type { DropId } from "../src/domain/wallet/scheduled-drops.js";
import {
  type CardMove,
  type Correction,
  type IssuedCard,
  type IssuerCardRecord,
  type WalletCard,
  type WalletTransaction,
  applyTransaction,
  availableBalance,
  cancelCard,
  issueCard,
  loadDrop,
  pendingDrops,
  reconcileCard,
} from "../src/domain/wallet/wallet-card.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/** What the actor keeps: every card the (case, group) was issued, the current one last. */
export interface WalletRecord {
  tenant: string;
  airport: string;
  caseUrn: string;
  groupId: string;
  cards: WalletCard[];
}

export interface RecordIssuedCommand {
  tenant: string;
  airport: string;
  /** Which card of the (case, group) this is: 1 for the first, one more per re-issue. */
  generation: number;
  card: IssuedCard;
  correlationUrn: string;
}

export interface CardResult {
  card: WalletCard;
  /** False for a replay: nothing changed, nothing was published. */
  changed: boolean;
}

const RECORD = "wallet";
const DROP_REMINDER = "drop:";

/**
 * The wallet cards of one passenger group of a case (spec 2.7: one card per (case, group); a
 * re-issue after a cancellation is a new card). Thin: the rules are those of
 * `src/domain/wallet/wallet-card.ts`; this class loads, applies, stores and emits. Every issuer
 * event is applied in one turn with its record, so concurrent webhooks of a card never lose an
 * update. Each scheduled drop still to load is a one-shot reminder; when it fires the actor asks
 * for the load (`wallet.drop-due`), which the issuer performs outside the actor.
 */
export class WalletCardActor {
  constructor(private readonly context: ActorContext<WalletEventDataByType>) {}

  async get(): Promise<WalletRecord | undefined> {
    return this.context.state.get<WalletRecord>(RECORD);
  }

  /**
   * The issuer issued the `generation`th card: it becomes the current one, LOADED with its first
   * drop, and the other drops are scheduled. The same generation again is a replay.
   */
  async recordIssued(command: RecordIssuedCommand): Promise<CardResult> {
    const record = (await this.get()) ?? {
      tenant: command.tenant,
      airport: command.airport,
      caseUrn: command.card.caseUrn,
      groupId: command.card.groupId,
      cards: [],
    };
    const existing = record.cards[command.generation - 1];
    if (existing) return { card: existing, changed: false };
    const current = record.cards.at(-1);
    if (record.cards.length !== command.generation - 1 || current?.status === "LOADED") {
      throw new DomainError(
        "conflict",
        "wallet-card-loaded",
        `The group already holds card ${current?.urn ?? "(none)"}; cancel it before issuing another`,
      );
    }
    const card = issueCard(command.card, this.now());
    for (const drop of pendingDrops(card)) {
      await this.context.reminders.set(`${DROP_REMINDER}${drop.id}`, {
        dueInMs: Math.max(0, Date.parse(drop.dueAt) - this.context.clock.now()),
      });
    }
    this.store({ ...record, cards: [...record.cards, card] });
    this.emit(record, WALLET_EVENT.cardIssued, card, command.correlationUrn, {});
    return { card, changed: true };
  }

  /** One issuer event on the card the issuer calls `issuerCardId` (spec 4.5); a seen event id is a replay. */
  async applyTransaction(command: {
    issuerCardId: string;
    transaction: WalletTransaction;
    correlationUrn: string;
  }): Promise<CardResult> {
    const record = await this.required();
    const card = record.cards.find((c) => c.issuerCardId === command.issuerCardId);
    if (!card) throw unknownCard(command.issuerCardId);
    const move = applyTransaction(card, command.transaction, this.now());
    if (!move.changed) return { card, changed: false };
    const tx = command.transaction;
    this.commit(record, move, WALLET_EVENT.cardTx, command.correlationUrn, {
      eventId: tx.eventId,
      type: tx.type,
      amount: { value: tx.amount, currency: tx.currency },
      merchant: tx.merchant,
      occurredAt: tx.occurredAt,
    });
    return { card: move.card, changed: true };
  }

  /** The issuer loaded a scheduled drop of the card. */
  async loadDrop(command: { cardUrn: string; dropId: DropId; correlationUrn: string }): Promise<CardResult> {
    const record = await this.required();
    const card = this.card(record, command.cardUrn);
    const move = loadDrop(card, command.dropId, this.now());
    if (!move.changed) return { card, changed: false };
    const drop = card.drops.find((d) => d.id === command.dropId)!;
    this.commit(record, move, WALLET_EVENT.cardLoaded, command.correlationUrn, {
      dropId: command.dropId,
      amount: drop.amount,
    });
    return { card: move.card, changed: true };
  }

  /** The issuer cancelled the card and returned `returnedToPool` (spec 4.2); irreversible. */
  async cancel(command: {
    cardUrn: string;
    reason: string;
    by: string;
    returnedToPool: number;
    correlationUrn: string;
  }): Promise<CardResult> {
    const record = await this.required();
    const card = this.card(record, command.cardUrn);
    const move = cancelCard(
      card,
      { reason: command.reason, returnedToPool: command.returnedToPool },
      this.now(),
    );
    if (!move.changed) return { card, changed: false };
    await this.cancelDropReminders(card);
    this.commit(record, move, WALLET_EVENT.cardCancelled, command.correlationUrn, {
      reason: command.reason,
      returnedToPool: command.returnedToPool,
      by: command.by,
    });
    return { card: move.card, changed: true };
  }

  /** The daily reconciliation's comparison with the issuer (spec 6.3); the corrections it made. */
  async reconcile(command: {
    cardUrn: string;
    issuer: IssuerCardRecord;
    correlationUrn: string;
  }): Promise<CardResult & { corrections: Correction[] }> {
    const record = await this.required();
    const card = this.card(record, command.cardUrn);
    const move = reconcileCard(card, command.issuer, this.now());
    if (!move.changed) return { card, changed: false, corrections: [] };
    if (move.card.status === "CANCELLED" && card.status === "LOADED") await this.cancelDropReminders(card);
    this.commit(record, move, WALLET_EVENT.cardReconciled, command.correlationUrn, {
      corrections: move.corrections,
    });
    return { card: move.card, changed: true, corrections: move.corrections };
  }

  async receiveReminder(name: string): Promise<void> {
    if (!name.startsWith(DROP_REMINDER)) return;
    const record = await this.get();
    const card = record?.cards.at(-1);
    const drop = card && pendingDrops(card).find((d) => `${DROP_REMINDER}${d.id}` === name);
    if (!record || !card || !drop) return;
    this.context.emit({
      type: WALLET_EVENT.dropDue,
      tenant: record.tenant,
      caseUrn: record.caseUrn,
      correlationUrn: `urn:trace:${randomBytes(16).toString("hex")}`,
      data: { cardUrn: card.urn, dropId: drop.id },
    });
  }

  private async cancelDropReminders(card: WalletCard): Promise<void> {
    for (const drop of pendingDrops(card)) await this.context.reminders.cancel(`${DROP_REMINDER}${drop.id}`);
  }

  private commit<T extends keyof WalletEventDataByType>(
    record: WalletRecord,
    move: CardMove,
    type: T,
    correlationUrn: string,
    details: Omit<WalletEventDataByType[T], keyof WalletCardEventData>,
  ): void {
    this.store({ ...record, cards: record.cards.map((c) => (c.urn === move.card.urn ? move.card : c)) });
    this.emit(record, type, move.card, correlationUrn, details);
  }

  private emit<T extends keyof WalletEventDataByType>(
    record: WalletRecord,
    type: T,
    card: WalletCard,
    correlationUrn: string,
    details: Omit<WalletEventDataByType[T], keyof WalletCardEventData>,
  ): void {
    const summary: WalletCardEventData = {
      cardUrn: card.urn,
      caseUrn: card.caseUrn,
      groupId: card.groupId,
      status: card.status,
      currency: card.currency,
      initialBalance: card.initialBalance,
      currentBalance: card.currentBalance,
      availableBalance: availableBalance(card),
      version: card.version,
    };
    this.context.emit({
      type,
      tenant: record.tenant,
      caseUrn: record.caseUrn,
      correlationUrn,
      data: { ...summary, ...details } as WalletEventDataByType[T],
    });
  }

  private store(record: WalletRecord): void {
    this.context.state.set(RECORD, record);
  }

  private async required(): Promise<WalletRecord> {
    const record = await this.get();
    if (!record) throw new DomainError("not-found", "wallet-card", "No wallet card was issued to this group");
    return record;
  }

  private card(record: WalletRecord, cardUrn: string): WalletCard {
    const card = record.cards.find((c) => c.urn === cardUrn);
    if (!card) throw new DomainError("not-found", "wallet-card", `No wallet card ${cardUrn}`);
    return card;
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}

function unknownCard(issuerCardId: string): DomainError {
  return new DomainError("not-found", "wallet-card", `No wallet card with the issuer's id ${issuerCardId}`);
}
