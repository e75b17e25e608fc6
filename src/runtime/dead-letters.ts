import type { DomainEvent } from "../domain/domain-event.js";
import type { Clock } from "./clock.js";
import type { Doc, DocumentCollection, DocumentStore, FindOptions, Page } from "./document-store.js";

/** `dropped`: the handler refused the event, or failed under a dead-letter policy. */
export type DeadLetterReason = "dropped" | "retries-exhausted";

/** An event one subscription gave up on. */
export interface DeadLetter {
  subscription: string;
  topic: string;
  event: DomainEvent;
  reason: DeadLetterReason;
}

/** A dead letter as kept: one per subscription and event, however often it was dead-lettered. */
export interface DeadLetterRecord extends DeadLetter, Doc {
  tenant: string;
  deadLetteredAt: string;
}

export interface DeadLetterStore {
  /** Keeps the letter; false when the subscription's letter for the event is kept already. */
  record(letter: DeadLetter, at: Date): Promise<boolean>;
  /** The tenant's letters, newest first. */
  list(tenant: string, page: FindOptions): Promise<Page<DeadLetterRecord>>;
  count(tenant: string): Promise<number>;
}

export const DEAD_LETTERS_COLLECTION = "dead-letters";

/** Dead letters as queryable documents: in memory embedded, in MongoDB when documents live there. */
export class DocumentDeadLetters implements DeadLetterStore {
  private readonly letters: DocumentCollection<DeadLetterRecord>;

  constructor(documents: DocumentStore) {
    this.letters = documents.collection<DeadLetterRecord>(DEAD_LETTERS_COLLECTION);
  }

  record(letter: DeadLetter, at: Date): Promise<boolean> {
    return this.letters.insertIfAbsent({
      _id: `${letter.subscription}|${letter.event.id}`,
      tenant: letter.event.tenant,
      deadLetteredAt: at.toISOString(),
      ...letter,
    });
  }

  list(tenant: string, page: FindOptions): Promise<Page<DeadLetterRecord>> {
    return this.letters.find({ tenant }, { ...page, sort: { deadLetteredAt: -1 } });
  }

  count(tenant: string): Promise<number> {
    return this.letters.count({ tenant });
  }
}

/** A dead letter as the runtime's error hook reports it (the log line). */
export class DeadLetteredEvent extends Error {
  constructor(
    readonly letter: DeadLetter,
    /** The tenant's dead letters so far, this one included. */
    readonly count: number,
  ) {
    super(
      `Event ${letter.event.id} (${letter.event.type}) dead-lettered by ${letter.subscription}: ${letter.reason}; ` +
        `${count} dead letter(s) for ${letter.event.tenant}`,
    );
    this.name = "DeadLetteredEvent";
  }
}

/**
 * Where both buses hand the events their subscriptions gave up on: each is kept in the store
 * (read by ADMINs at GET /v1/admin/dead-letters), counted per tenant and reported once.
 */
export class DeadLetterOffice {
  constructor(
    private readonly options: {
      store: DeadLetterStore;
      clock: Clock;
      report: (deadLettered: DeadLetteredEvent) => void;
    },
  ) {}

  async receive(letter: DeadLetter): Promise<void> {
    const { store, clock, report } = this.options;
    if (!(await store.record(letter, new Date(clock.now())))) return;
    report(new DeadLetteredEvent(letter, await store.count(letter.event.tenant)));
  }
}

/**
 * What a runtime's bus reports through the runtime's error hook, each under `subscription <name>`:
 * a subscription's failure, and a dead letter once it is kept in `documents`.
 */
export function subscriptionReporting(
  documents: DocumentStore,
  clock: Clock,
  onError: ((error: unknown, where: string) => void) | undefined,
) {
  const store = new DocumentDeadLetters(documents);
  return {
    store,
    busOptions: {
      deadLetters: new DeadLetterOffice({
        store,
        clock,
        report: (deadLettered) => onError?.(deadLettered, `subscription ${deadLettered.letter.subscription}`),
      }),
      onError: (error: unknown, subscription: string) => onError?.(error, `subscription ${subscription}`),
    },
  };
}
