import type { Clock } from "../../src/runtime/clock.js";
import type { Doc, DocumentCollection, DocumentStore } from "../../src/runtime/document-store.js";
import { type EventMessage, REPLAY_WINDOW_MS } from "./protocol.js";

interface LoggedCaseUpdate extends Doc {
  /** The domain event's URN: logging the same event again (another replica, a redelivery) is harmless. */
  _id: string;
  caseUrn: string;
  occurredAtMs: number;
  /** Arrival order here, for events of the same millisecond. */
  sequence: number;
  message: EventMessage;
}

export interface Replay {
  messages: EventMessage[];
  /** False when the client asked for more than the window still holds: it should reload the case. */
  complete: boolean;
}

/**
 * The last minute of `case:updated` events per case, replayed to an operator who reconnects
 * (spec 6.2). It lives in the document store, not in memory, because the reconnect may reach
 * another replica than the one that sent the missed events.
 */
export class CaseUpdateLog {
  private readonly collection: DocumentCollection<LoggedCaseUpdate>;
  private sequence = 0;

  constructor(
    documents: DocumentStore,
    private readonly clock: Clock,
    private readonly windowMs = REPLAY_WINDOW_MS,
  ) {
    this.collection = documents.collection<LoggedCaseUpdate>("realtime-case-updates");
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.ensureIndex({ keys: { caseUrn: 1, occurredAtMs: 1 } });
  }

  /**
   * Logs one event. What falls out of the window goes with the channel's next heartbeat (`prune`);
   * until then `replay` passes over it.
   */
  async append(message: EventMessage): Promise<void> {
    await this.collection.put({
      _id: message.id,
      caseUrn: message.caseUrn,
      occurredAtMs: Date.parse(message.at),
      sequence: this.sequence++,
      message,
    });
  }

  /**
   * What a client resuming a room missed: the events from its last seen event (or from `since`)
   * on, within the window. The last seen event itself is left out; others of the same millisecond
   * may come again, and clients drop repeats by `id`.
   */
  async replay(caseUrn: string, resume: { lastEventId?: string; since?: string }): Promise<Replay> {
    const cutoff = this.cutoff();
    let from: number | undefined;
    if (resume.lastEventId !== undefined) {
      from = (await this.collection.get(resume.lastEventId))?.occurredAtMs;
    }
    if (from === undefined && resume.since !== undefined) from = Date.parse(resume.since);
    const complete = from !== undefined && from >= cutoff;
    const logged = await this.collection.findAll(
      { caseUrn, occurredAtMs: { $gte: Math.max(from ?? cutoff, cutoff) } },
      { sort: { occurredAtMs: 1, sequence: 1 } },
    );
    return {
      messages: logged
        .filter((entry) => entry._id !== resume.lastEventId)
        .map((entry) => ({ ...entry.message, replayed: true })),
      complete,
    };
  }

  /** Forgets everything older than the window; the channel runs it on every heartbeat. */
  async prune(): Promise<void> {
    await this.collection.deleteMany({ occurredAtMs: { $lt: this.cutoff() } });
  }

  private cutoff(): number {
    return this.clock.now() - this.windowMs;
  }
}
