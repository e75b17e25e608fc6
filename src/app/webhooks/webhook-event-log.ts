import { inject, injectable } from "tsyringe";
import type { DomainEvent } from "../../domain/domain-event.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { type LoggedEventDoc, WEBHOOK_COLLECTIONS } from "./webhook-documents.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Spec 8.2: events can be replayed for 7 days. */
export const EVENT_REPLAY_WINDOW_MS = 7 * DAY_MS;

/**
 * The partner events of the last 7 days, as published (spec 4.3's replay). Not the real-time
 * channels' replay log (services/realtime/event-replay-log.ts), which keeps per-room messages for
 * 60 seconds; this one is read by event URN and by tenant between two events.
 */
@injectable()
export class WebhookEventLog {
  private readonly events: DocumentCollection<LoggedEventDoc>;

  constructor(
    @inject(TOKENS.documents) documents: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {
    this.events = documents.collection<LoggedEventDoc>(WEBHOOK_COLLECTIONS.events);
  }

  async ensureIndexes(): Promise<void> {
    await this.events.ensureIndex({ keys: { tenant: 1, occurredAtMs: 1 } });
  }

  /** Logging the same event again (a redelivery from the bus) is harmless. */
  async append(event: DomainEvent): Promise<void> {
    await this.events.put({
      _id: event.id,
      tenant: event.tenant,
      type: event.type,
      occurredAtMs: Date.parse(event.occurredAt),
      event,
    });
  }

  /** The event, if it is the tenant's and still within the window. */
  async get(tenant: string, eventUrn: string): Promise<LoggedEventDoc | undefined> {
    const logged = await this.events.get(eventUrn);
    return logged && logged.tenant === tenant && logged.occurredAtMs >= this.cutoff() ? logged : undefined;
  }

  /** The tenant's events from `fromMs` to `toMs` (both included) within the window, oldest first. */
  async between(tenant: string, fromMs: number, toMs: number): Promise<LoggedEventDoc[]> {
    return this.events.findAll(
      { tenant, occurredAtMs: { $gte: Math.max(fromMs, this.cutoff()), $lte: toMs } },
      { sort: { occurredAtMs: 1, _id: 1 } },
    );
  }

  /** Forgets what fell out of the window. */
  async prune(): Promise<number> {
    return this.events.deleteMany({ occurredAtMs: { $lt: this.cutoff() } });
  }

  private cutoff(): number {
    return this.clock.now() - EVENT_REPLAY_WINDOW_MS;
  }
}
