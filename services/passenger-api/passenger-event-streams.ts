import type { EventOf } from "../../src/domain/events/catalogue.js";
import type { Clock } from "../../src/runtime/clock.js";
import type { DocumentStore } from "../../src/runtime/document-store.js";
import { EventReplayLog, type Replay } from "../realtime/event-replay-log.js";
import {
  type PassengerStreamMessage,
  type PassengerStreamType,
  passengerStreamMessage,
  passengerStreamOf,
} from "./passenger-stream-events.js";

/**
 * How far back a passenger's stream is replayed on `Last-Event-ID`. Longer than the operators'
 * minute (spec 8.2): a phone sleeps, changes networks or loses the signal in a hotel lobby for
 * minutes, not seconds. A client that was away longer, or resumes from an id the log no longer
 * holds, is told to reload (`event: reset`) rather than given a partial history.
 */
export const PASSENGER_REPLAY_WINDOW_MS = 60 * 60_000;

/** Gap between pruning passes: what left the window goes at most this long after. */
const PRUNE_EVERY_MS = 60_000;

export type StreamListener = (message: PassengerStreamMessage) => void;

/**
 * This process's side of the passengers' event streams: who listens to which group's stream, the
 * fan-out of the tenant's domain events to them, and the per-group replay log (in the document
 * store, shared by the replicas, since a reconnect may reach another one). Each replica receives
 * every event (its subscription asks for every replica) and logs it; the log's entries are keyed by
 * the event's URN, so the replicas logging the same event keep one entry.
 */
export class PassengerEventStreams {
  readonly log: EventReplayLog<PassengerStreamMessage>;
  private readonly listeners = new Map<string, Set<StreamListener>>();
  /** How to end each open stream here, for shutdown. */
  private readonly open = new Set<() => void>();
  /** Set at shutdown (endAll). */
  private ending = false;
  /** Events older than this are history from before this replica existed, beyond the window. */
  private readonly historyBeforeMs: number;
  private lastPruneMs: number;

  constructor(
    documents: DocumentStore,
    private readonly clock: Clock,
  ) {
    this.log = new EventReplayLog(documents, clock, {
      collection: "passenger-event-streams",
      windowMs: PASSENGER_REPLAY_WINDOW_MS,
    });
    this.historyBeforeMs = clock.now() - PASSENGER_REPLAY_WINDOW_MS;
    this.lastPruneMs = clock.now();
  }

  /** Starts delivering the group's (the sub-case's) messages to `listener`; returns the way out. */
  listen(stream: string, listener: StreamListener): () => void {
    const listeners = this.listeners.get(stream) ?? new Set();
    listeners.add(listener);
    this.listeners.set(stream, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners.get(stream) === listeners) this.listeners.delete(stream);
    };
  }

  /**
   * Keeps `end` to end an open stream at shutdown; returns the way out once it has ended. After
   * shutdown began, a stream is ended as soon as it starts (on the next microtask, once its route
   * holds the way out): a client reconnecting over a kept-alive connection would otherwise open a
   * stream nothing ends, and the server's close would wait on it for good.
   */
  track(end: () => void): () => void {
    if (this.ending) {
      queueMicrotask(end);
      return () => {};
    }
    this.open.add(end);
    return () => this.open.delete(end);
  }

  /** Shutdown: ends every open stream here (clients reconnect, to another replica if need be). */
  endAll(): void {
    this.ending = true;
    for (const end of [...this.open]) end();
    this.open.clear();
  }

  /** What a client resuming the group's stream after `lastEventId` missed, within the window. */
  replay(stream: string, lastEventId: string): Promise<Replay<PassengerStreamMessage>> {
    return this.log.replay(stream, { lastEventId });
  }

  /** Listeners here (for tests and the shutdown log). */
  listening(stream: string): number {
    return this.listeners.get(stream)?.size ?? 0;
  }

  /** A domain event from the tenant topic: logged for its group, then sent to its listeners here. */
  async fanOut(event: EventOf<PassengerStreamType>): Promise<void> {
    if (Date.parse(event.occurredAt) < this.historyBeforeMs) return;
    const stream = passengerStreamOf(event);
    if (!stream) return;
    const message = passengerStreamMessage(event);
    await this.log.append(stream, message);
    for (const listener of this.listeners.get(stream) ?? []) listener(message);
    await this.pruneNowAndThen();
  }

  private async pruneNowAndThen(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastPruneMs < PRUNE_EVERY_MS) return;
    this.lastPruneMs = now;
    await this.log.prune();
  }
}
