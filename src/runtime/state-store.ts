/**
 * Key/value state with ETag optimistic concurrency and atomic multi-key transactions: the shape of
 * a Dapr state store, so actor and workflow state moves between runtimes unchanged.
 *
 * A value handed to `set` or `transact` becomes the store's: the caller must not change it, nor any
 * part of it, afterwards (a store in process keeps it as it is, without a copy). What `get` and
 * `getMany` answer is the caller's own copy.
 */
export interface StateEntry<T = unknown> {
  key: string;
  value: T;
  etag: string;
}

export type StateOperation =
  | { operation: "upsert"; key: string; value: unknown; etag?: string }
  | { operation: "delete"; key: string; etag?: string };

export interface StateStore {
  get<T = unknown>(key: string): Promise<StateEntry<T> | undefined>;
  getMany<T = unknown>(keys: string[]): Promise<Map<string, StateEntry<T>>>;
  /** Writes a value; with `etag`, only if the stored ETag still matches. Returns the new ETag. */
  set(key: string, value: unknown, options?: { etag?: string }): Promise<string>;
  /** Deletes a key; with `etag`, only if the stored ETag still matches. Deleting a missing key is not an error. */
  delete(key: string, options?: { etag?: string }): Promise<void>;
  /** Applies every operation or none; any ETag mismatch aborts the whole transaction. */
  transact(operations: StateOperation[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The embedded runtime restores reminders and workflow timers after a restart by listing keys;
 * Dapr keeps those itself, so only embedded-capable stores need to scan.
 */
export interface ScannableStateStore extends StateStore {
  /** Keys starting with `prefix`, in no particular order. */
  keys(prefix: string): Promise<string[]>;
}

export class EtagMismatchError extends Error {
  constructor(readonly key: string) {
    super(`ETag mismatch on state key ${key}`);
    this.name = "EtagMismatchError";
  }
}
