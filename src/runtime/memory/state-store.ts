import { copyOf } from "../plain-copy.js";
import {
  EtagMismatchError,
  type ScannableStateStore,
  type StateEntry,
  type StateOperation,
} from "../state-store.js";

interface StoredValue {
  value: unknown;
  etag: string;
}

/**
 * State in a Map. A written value is kept as it is, being the store's once handed over
 * (StateStore): the actor runtime keeps the values it commits too, unchanged, and copying them on
 * the way in cost a full flight's case on every turn that changed it. Reads answer copies, so a
 * reader's changes never reach the store. ETags come from one counter for the whole store, so a
 * key deleted and written again never gets back an ETag a caller may still hold.
 */
export class MemoryStateStore implements ScannableStateStore {
  private readonly entries = new Map<string, StoredValue>();
  private lastEtag = 0;

  async get<T = unknown>(key: string): Promise<StateEntry<T> | undefined> {
    const stored = this.entries.get(key);
    return stored && { key, value: copyOf(stored.value) as T, etag: stored.etag };
  }

  async getMany<T = unknown>(keys: string[]): Promise<Map<string, StateEntry<T>>> {
    const found = new Map<string, StateEntry<T>>();
    for (const key of keys) {
      const entry = await this.get<T>(key);
      if (entry) found.set(key, entry);
    }
    return found;
  }

  async set(key: string, value: unknown, options: { etag?: string } = {}): Promise<string> {
    const [etag] = this.apply([{ operation: "upsert", key, value, etag: options.etag }]);
    return etag!;
  }

  async delete(key: string, options: { etag?: string } = {}): Promise<void> {
    this.apply([{ operation: "delete", key, etag: options.etag }]);
  }

  async transact(operations: StateOperation[]): Promise<void> {
    this.apply(operations);
  }

  async keys(prefix: string): Promise<string[]> {
    return [...this.entries.keys()].filter((key) => key.startsWith(prefix));
  }

  async close(): Promise<void> {}

  /** Checks every ETag before changing anything, so a failure changes nothing. */
  private apply(operations: StateOperation[]): string[] {
    for (const op of operations) {
      if (op.etag !== undefined && this.entries.get(op.key)?.etag !== op.etag) {
        throw new EtagMismatchError(op.key);
      }
    }
    return operations.map((op) => {
      if (op.operation === "delete") {
        this.entries.delete(op.key);
        return "";
      }
      const etag = String(++this.lastEtag);
      this.entries.set(op.key, { value: op.value, etag });
      return etag;
    });
  }
}
