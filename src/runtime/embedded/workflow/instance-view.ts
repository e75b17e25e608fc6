import type { HistoryEvent } from "./durable-task.js";
import { decodeEvent, encodeEvent, executionStarted } from "./history-events.js";
import type { ParentLink, StoredInstance } from "./stored-instance.js";
import { randomUuid } from "../../../domain/uuid.js";

export interface CreateInstanceRequest {
  name: string;
  instanceId: string;
  /** JSON-encoded input. */
  input?: string;
}

/** A stored instance with its history decoded on first use and carried forward from commit to commit. */
export class InstanceView {
  constructor(
    readonly record: StoredInstance,
    private decodedHistory?: HistoryEvent[],
    private decodedInbox?: HistoryEvent[],
  ) {}

  /** A new instance whose inbox holds its ExecutionStarted event. */
  static create(request: CreateInstanceRequest, now: number, parent?: ParentLink): InstanceView {
    const started = executionStarted(request.name, request.instanceId, request.input);
    const record: StoredInstance = {
      instanceId: request.instanceId,
      name: request.name,
      executionId: randomUuid(),
      status: "PENDING",
      createdAt: now,
      lastUpdatedAt: now,
      ...(request.input === undefined ? {} : { input: request.input }),
      ...(parent ? { parent } : {}),
      turn: 0,
      history: [],
      inbox: [encodeEvent(started)],
      activities: {},
      timers: {},
      children: {},
    };
    return new InstanceView(record, [], [started]);
  }

  history(): HistoryEvent[] {
    this.decodedHistory ??= this.record.history.map(decodeEvent);
    return this.decodedHistory;
  }

  inbox(): HistoryEvent[] {
    this.decodedInbox ??= this.record.inbox.map(decodeEvent);
    return this.decodedInbox;
  }

  /** The decoded history if something asked for it; the next view extends it rather than decode it. */
  knownHistory(): HistoryEvent[] | undefined {
    return this.decodedHistory;
  }

  /** The decoded inbox if something asked for it; the next view extends it rather than decode it. */
  knownInbox(): HistoryEvent[] | undefined {
    return this.decodedInbox;
  }

  withInbox(events: HistoryEvent[], changes: Partial<StoredInstance>, now: number): InstanceView {
    const record: StoredInstance = {
      ...this.record,
      ...changes,
      lastUpdatedAt: now,
      inbox: [...this.record.inbox, ...events.map(encodeEvent)],
    };
    return new InstanceView(
      record,
      this.decodedHistory,
      this.decodedInbox && [...this.decodedInbox, ...events],
    );
  }
}
