import type { Clock } from "../../src/runtime/clock.js";
import type { Doc, DocumentCollection, DocumentStore } from "../../src/runtime/document-store.js";

/** What a replay log keeps: a message naming its domain event (`id`) and when it happened (`at`). */
export interface ReplayableMessage {
  id: string;
  /** ISO 8601. */
  at: string;
}

interface LoggedMessage<M> extends Doc {
  /** The domain event's URN: logging the same event again (another replica, a redelivery) is harmless. */
  _id: string;
  /** Whose messages these are: a case room, a passenger group. */
  stream: string;
  occurredAtMs: number;
  /** Arrival order here, for events of the same millisecond. */
  sequence: number;
  message: M;
}

export interface Replay<M> {
  messages: M[];
  /** False when the client asked for more than the window still holds: it should reload. */
  complete: boolean;
}

/**
 * The last `windowMs` of a real-time channel's messages per stream, replayed to a client that
 * reconnects: the operator channel's case rooms (spec 6.2) and the passengers' event streams. It
 * lives in the document store, not in memory, because the reconnect may reach another replica
 * than the one that sent the missed messages.
 */
export class EventReplayLog<M extends ReplayableMessage> {
  private readonly collection: DocumentCollection<LoggedMessage<M>>;
  private sequence = 0;

  constructor(
    documents: DocumentStore,
    private readonly clock: Clock,
    private readonly options: { collection: string; windowMs: number },
  ) {
    this.collection = documents.collection<LoggedMessage<M>>(options.collection);
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.ensureIndex({ keys: { stream: 1, occurredAtMs: 1 } });
  }

  /**
   * Logs one message. What falls out of the window goes with the next `prune`; `replay` passes over
   * it. The entry is handed over to the store, message and all, which is not copied: the caller
   * sends the message on as it is and changes no part of it.
   */
  async append(stream: string, message: M): Promise<void> {
    await this.collection.handOver({
      _id: message.id,
      stream,
      occurredAtMs: Date.parse(message.at),
      sequence: this.sequence++,
      message,
    });
  }

  /**
   * What a client resuming a stream missed: the messages from its last seen event (or from `since`)
   * on, within the window. The last seen event itself is left out; others of the same millisecond
   * may come again, and clients drop repeats by `id`.
   */
  async replay(stream: string, resume: { lastEventId?: string; since?: string }): Promise<Replay<M>> {
    const cutoff = this.cutoff();
    let from: number | undefined;
    if (resume.lastEventId !== undefined) {
      const seen = await this.collection.get(resume.lastEventId);
      // Another stream's event says nothing about this one: as if unknown.
      if (seen?.stream === stream) from = seen.occurredAtMs;
    }
    if (from === undefined && resume.since !== undefined) from = Date.parse(resume.since);
    const complete = from !== undefined && from >= cutoff;
    const logged = await this.collection.findAll(
      { stream, occurredAtMs: { $gte: Math.max(from ?? cutoff, cutoff) } },
      { sort: { occurredAtMs: 1, sequence: 1 } },
    );
    return {
      messages: logged.filter((entry) => entry._id !== resume.lastEventId).map((entry) => entry.message),
      complete,
    };
  }

  /** Forgets everything older than the window. */
  async prune(): Promise<void> {
    await this.collection.deleteMany({ occurredAtMs: { $lt: this.cutoff() } });
  }

  private cutoff(): number {
    return this.clock.now() - this.options.windowMs;
  }
}
