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
  type WalletCardState,
  type WalletTransaction,
  applyTransaction,
  availableBalance,
  cancelCard,
  holdKeyOf,
  issueCard,
  loadDrop,
  pendingDrops,
  reconcileCard,
} from "../src/domain/wallet/wallet-card.js";
import type { ActorContext } from "../src/runtime/actor-runtime.js";

/**
 * What the actor keeps under its main key: every card the (case, group) was issued, the current one
 * last, without their histories. Beside it, one key per open hold (`hold:<generation>:<epoch>:<id>`),
 * per seen issuer event (`seen:<generation>:<event id>`) and per page of transactions
 * (`tx:<generation>:<page>`), so a turn reads and writes a few small values however long a card's
 * history grows.
 */
export interface WalletRecord {
  tenant: string;
  airport: string;
  caseUrn: string;
  groupId: string;
  cards: WalletCardState[];
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
  card: WalletCardState;
  /** False for a replay: nothing changed, nothing was published. */
  changed: boolean;
}

const RECORD = "wallet";
const DROP_REMINDER = "drop:";
/** Transactions per state key of a card's history. */
const PAGE_SIZE = 20;

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

  /**
   * One issuer event on the card the issuer calls `issuerCardId` (spec 4.5), applied with its record
   * and its hold in this one turn; an event id seen before is a replay. Answers only whether it
   * applied, so the hot path carries no card back.
   */
  async applyTransaction(command: {
    issuerCardId: string;
    transaction: WalletTransaction;
    correlationUrn: string;
  }): Promise<{ cardUrn: string; changed: boolean }> {
    const record = await this.required(true);
    const index = record.cards.findIndex((c) => c.issuerCardId === command.issuerCardId);
    if (index < 0) throw unknownCard(command.issuerCardId);
    const card = record.cards[index]!;
    const tx = command.transaction;
    const seen = seenKey(index, tx.eventId);
    if (await this.context.state.get<number>(seen)) return { cardUrn: card.urn, changed: false };
    const hold = holdKey(index, card.holdsEpoch, holdKeyOf(tx));
    const held = (await this.context.state.get<number>(hold)) ?? 0;
    const moved = applyTransaction(card, tx, held, this.now());
    if (moved.holdAfter > 0) this.context.state.set(hold, moved.holdAfter);
    else if (held > 0) this.context.state.delete(hold);
    this.context.state.set(seen, 1);
    await this.append(index, card.transactionCount, [tx]);
    this.commit(record, { card: moved.card, changed: true }, WALLET_EVENT.cardTx, command.correlationUrn, {
      eventId: tx.eventId,
      type: tx.type,
      amount: { value: tx.amount, currency: tx.currency },
      merchant: tx.merchant,
      occurredAt: tx.occurredAt,
    });
    return { cardUrn: card.urn, changed: true };
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
    const index = record.cards.indexOf(card);
    const missing = [];
    for (const tx of command.issuer.transactions) {
      if (!(await this.context.state.get<number>(seenKey(index, tx.eventId)))) missing.push(tx);
    }
    const move = reconcileCard(card, command.issuer, missing, this.now());
    if (!move.changed) return { card, changed: false, corrections: [] };
    for (const tx of move.backfill) this.context.state.set(seenKey(index, tx.eventId), 1);
    await this.append(index, card.transactionCount, move.backfill);
    for (const [id, amount] of Object.entries(move.holds ?? {})) {
      this.context.state.set(holdKey(index, move.card.holdsEpoch, id), amount);
    }
    if (move.card.status === "CANCELLED" && card.status === "LOADED") await this.cancelDropReminders(card);
    this.commit(record, move, WALLET_EVENT.cardReconciled, command.correlationUrn, {
      corrections: move.corrections,
    });
    return { card: move.card, changed: true, corrections: move.corrections };
  }

  /** Every card of the (case, group) with its transactions, oldest first: for reads. */
  async history(): Promise<WalletCard[]> {
    const record = await this.get();
    if (!record) return [];
    return Promise.all(
      record.cards.map(async (card, index) => {
        const transactions: WalletTransaction[] = [];
        for (let page = 0; page * PAGE_SIZE < card.transactionCount; page++) {
          transactions.push(
            ...((await this.context.state.get<WalletTransaction[]>(pageKey(index, page))) ?? []),
          );
        }
        return { ...card, transactions };
      }),
    );
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

  /** Adds `transactions` to the history of the card at `index`, which holds `count` so far. */
  private async append(
    index: number,
    count: number,
    transactions: readonly WalletTransaction[],
  ): Promise<void> {
    let at = count;
    for (const tx of transactions) {
      const key = pageKey(index, Math.floor(at / PAGE_SIZE));
      // Looked at, not copied: the new page is a new array, the transactions in it never change.
      const page =
        at % PAGE_SIZE === 0 ? [] : ((await this.context.state.peek<WalletTransaction[]>(key)) ?? []);
      this.context.state.set(key, [...page, tx]);
      at++;
    }
  }

  private async cancelDropReminders(card: WalletCardState): Promise<void> {
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
    card: WalletCardState,
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
      // The details added to the summary, not both spread into a new object: on Node 20 a spread
      // followed by members the first did not have takes a slow path, some 10 µs per issuer event.
      data: Object.assign(summary, details) as WalletEventDataByType[T],
    });
  }

  private store(record: WalletRecord): void {
    this.context.state.set(RECORD, record);
  }

  /**
   * The record, or with `looked` the committed record itself (ActorState.peek): for a turn that
   * builds its changes as new values (the card moves are spreads, `commit` stores a new record)
   * and so never changes what it read; only what changes is new, the rest is shared, not copied.
   */
  private async required(looked = false): Promise<WalletRecord> {
    const record = looked ? await this.context.state.peek<WalletRecord>(RECORD) : await this.get();
    if (!record) throw new DomainError("not-found", "wallet-card", "No wallet card was issued to this group");
    return record;
  }

  private card(record: WalletRecord, cardUrn: string): WalletCardState {
    const card = record.cards.find((c) => c.urn === cardUrn);
    if (!card) throw new DomainError("not-found", "wallet-card", `No wallet card ${cardUrn}`);
    return card;
  }

  private now(): Date {
    return new Date(this.context.clock.now());
  }
}

/** Keys beside the record, by the card's position (its generation less one). */
function seenKey(index: number, eventId: string): string {
  return `seen:${index + 1}:${eventId}`;
}

function holdKey(index: number, epoch: number, holdId: string): string {
  return `hold:${index + 1}:${epoch}:${holdId}`;
}

function pageKey(index: number, page: number): string {
  return `tx:${index + 1}:${page}`;
}

function unknownCard(issuerCardId: string): DomainError {
  return new DomainError("not-found", "wallet-card", `No wallet card with the issuer's id ${issuerCardId}`);
}
