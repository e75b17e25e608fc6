import { randomUuid } from "../../../domain/uuid.js";
import type { StateOperation, StateStore } from "../../state-store.js";
import type { StoredInstance } from "./stored-instance.js";

/**
 * An instance as the state store keeps it: its history in chunks under keys of their own, named in
 * order by `historyChunks`. A record kept with its history inline (no `historyChunks`) still reads.
 */
type StoredRecord = Omit<StoredInstance, "history"> & { history?: string[]; historyChunks?: string[] };

/** Where a history stands in the store: the chunks holding it, for the execution that wrote them. */
interface StoredHistory {
  executionId: string;
  length: number;
  chunks: string[];
}

/** Past this many chunks a step writes the history again as one, so a read stays a few keys. */
const MAX_CHUNKS = 32;

/** An instance write that `writeTogether` commits with others. */
export interface InstanceWrite {
  record: StoredInstance;
  /** The ETag the record was read with; none for a new instance. */
  etag?: string;
  /** The history array of the record it replaces, as read or written here. */
  previous?: string[];
}

/**
 * Keeps workflow instances in a state store, each step writing only the history events it added:
 * a history only grows within an execution, and a long-running instance (a booking run of a wave
 * takes hundreds of events) rewritten whole at every step made each step cost its whole history,
 * in bytes sent to the store and in garbage. A chunk's key is new for every chunk written, so a
 * writer that loses the record's ETag race leaves an unreferenced chunk, never a changed one.
 */
export class InstanceStore {
  /** Histories read or written here, by their array: steps extend a record's history into a new one. */
  private readonly histories = new WeakMap<string[], StoredHistory>();

  constructor(
    private readonly store: StateStore,
    private readonly keyPrefix: string,
  ) {}

  async read(instanceId: string): Promise<{ record: StoredInstance; etag: string } | undefined> {
    const entry = await this.store.get<StoredRecord>(this.keyPrefix + instanceId);
    if (!entry) return undefined;
    const { historyChunks, history: inline, ...rest } = entry.value;
    if (!historyChunks) return { record: { ...rest, history: inline ?? [] }, etag: entry.etag };
    const keys = historyChunks.map((chunk) => this.chunkKey(instanceId, chunk));
    const chunks = await this.store.getMany<string[]>(keys);
    const history = keys.flatMap((key) => {
      const chunk = chunks.get(key);
      if (!chunk) throw new Error(`Workflow instance ${instanceId} misses history chunk ${key}`);
      return chunk.value;
    });
    this.histories.set(history, {
      executionId: rest.executionId,
      length: history.length,
      chunks: historyChunks,
    });
    return { record: { ...rest, history }, etag: entry.etag };
  }

  /** Writes one instance if its ETag still matches; returns the new ETag. */
  async write(write: InstanceWrite): Promise<string> {
    const { value, chunks, dropped } = await this.writeChunks(write);
    const etag = await this.store.set(
      this.keyPrefix + write.record.instanceId,
      value,
      write.etag === undefined ? undefined : { etag: write.etag },
    );
    this.written(write.record, chunks, dropped);
    return etag;
  }

  /** Writes every instance or none (any ETag mismatch aborts them all); returns no ETags. */
  async writeTogether(writes: InstanceWrite[]): Promise<void> {
    const stored = await Promise.all(writes.map((write) => this.writeChunks(write)));
    await this.store.transact(
      writes.map(
        (write, i): StateOperation => ({
          operation: "upsert",
          key: this.keyPrefix + write.record.instanceId,
          value: stored[i]!.value,
          ...(write.etag === undefined ? {} : { etag: write.etag }),
        }),
      ),
    );
    writes.forEach((write, i) => {
      this.written(write.record, stored[i]!.chunks, stored[i]!.dropped);
    });
  }

  /**
   * Writes the chunk of history events the previous write did not hold (or, past MAX_CHUNKS, for a
   * new execution or a history not read here, the whole history as one chunk), before the record
   * that names it: a record never names a chunk the store does not hold.
   */
  private async writeChunks({ record, previous }: InstanceWrite) {
    const { history, ...rest } = record;
    const before = previous && this.histories.get(previous);
    const extending =
      before &&
      before.executionId === record.executionId &&
      before.length <= history.length &&
      before.chunks.length < MAX_CHUNKS;
    const from = extending ? before.length : 0;
    const chunks = extending ? [...before.chunks] : [];
    if (from < history.length || chunks.length === 0) {
      const chunk = randomUuid();
      await this.store.set(this.chunkKey(record.instanceId, chunk), history.slice(from));
      chunks.push(chunk);
    }
    const dropped = extending || !before ? [] : before.chunks;
    const value: StoredRecord = { ...rest, historyChunks: chunks };
    return { value, chunks, dropped };
  }

  /** Notes where the committed history stands and deletes the chunks it no longer uses. */
  private written(record: StoredInstance, chunks: string[], dropped: string[]): void {
    this.histories.set(record.history, {
      executionId: record.executionId,
      length: record.history.length,
      chunks,
    });
    // Unreferenced once the record is committed: a failed deletion only leaves garbage behind.
    if (dropped.length > 0) {
      void this.store
        .transact(
          dropped.map((chunk) => ({ operation: "delete", key: this.chunkKey(record.instanceId, chunk) })),
        )
        .catch(() => undefined);
    }
  }

  /** Outside the key prefix, which restart recovery lists to find the instances. */
  private chunkKey(instanceId: string, chunk: string): string {
    return `history||${this.keyPrefix}${instanceId}||${chunk}`;
  }
}
