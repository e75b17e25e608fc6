import type { Clock } from "../../src/runtime/clock.js";
import type { DocumentStore } from "../../src/runtime/document-store.js";
import { EventReplayLog, type Replay } from "./event-replay-log.js";
import { type EventMessage, REPLAY_WINDOW_MS } from "./protocol.js";

export type { Replay } from "./event-replay-log.js";

/**
 * The last minute of `case:updated` events per case, replayed to an operator who reconnects
 * (spec 6.2): an event replay log whose streams are case rooms.
 */
export class CaseUpdateLog {
  private readonly log: EventReplayLog<EventMessage>;

  constructor(documents: DocumentStore, clock: Clock, windowMs = REPLAY_WINDOW_MS) {
    this.log = new EventReplayLog(documents, clock, { collection: "realtime-case-updates", windowMs });
  }

  ensureIndexes(): Promise<void> {
    return this.log.ensureIndexes();
  }

  /** Logs one event; what falls out of the window goes with the channel's next heartbeat (`prune`). */
  append(message: EventMessage): Promise<void> {
    return this.log.append(message.caseUrn, message);
  }

  /** What a client resuming a room missed, within the window, each marked `replayed`. */
  async replay(
    caseUrn: string,
    resume: { lastEventId?: string; since?: string },
  ): Promise<Replay<EventMessage>> {
    const { messages, complete } = await this.log.replay(caseUrn, resume);
    return { messages: messages.map((message) => ({ ...message, replayed: true })), complete };
  }

  /** Forgets everything older than the window; the channel runs it on every heartbeat. */
  prune(): Promise<void> {
    return this.log.prune();
  }
}
