import { EtagMismatchError, type StateEntry, type StateOperation, type StateStore } from "../state-store.js";
import { type SidecarAddress, SidecarHttp, SidecarRequestError } from "./sidecar-http.js";

export interface DaprStateStoreOptions {
  sidecar: SidecarAddress;
  /** The state store component name (`components/statestore.yaml`). */
  storeName: string;
}

/**
 * Returned by `set` when another writer changed the key between our write and the read-back:
 * no stored ETag equals it, so a conditional write based on our stale view fails as it should.
 */
const SUPERSEDED_ETAG = "superseded";

interface BulkItem {
  key: string;
  data?: unknown;
  etag?: string;
  error?: string;
}

const firstWrite = { concurrency: "first-write" } as const;

/**
 * A state store component through the sidecar's state API. ETags use first-write concurrency, so a
 * stale ETag fails (EtagMismatchError) instead of overwriting. Dapr answers a save with no
 * ETag, so `set` reads the key back to learn it.
 */
export class DaprStateStore implements StateStore {
  private readonly sidecar: SidecarHttp;
  private readonly base: string;

  constructor(options: DaprStateStoreOptions) {
    this.sidecar = new SidecarHttp(options.sidecar);
    this.base = `/v1.0/state/${encodeURIComponent(options.storeName)}`;
  }

  async get<T = unknown>(key: string): Promise<StateEntry<T> | undefined> {
    const response = await this.sidecar.request("GET", `${this.base}/${encodeURIComponent(key)}`);
    const text = await response.text();
    if (response.status === 204 || text === "") return undefined;
    return { key, value: JSON.parse(text) as T, etag: response.headers.get("etag") ?? "" };
  }

  async getMany<T = unknown>(keys: string[]): Promise<Map<string, StateEntry<T>>> {
    const found = new Map<string, StateEntry<T>>();
    if (keys.length === 0) return found;
    const items =
      (await this.sidecar.json<BulkItem[]>("POST", `${this.base}/bulk`, { body: { keys } })) ?? [];
    for (const item of items) {
      if (item.error) throw new Error(`Reading state key ${item.key} failed: ${item.error}`);
      if (item.data !== undefined)
        found.set(item.key, { key: item.key, value: item.data as T, etag: item.etag ?? "" });
    }
    return found;
  }

  async set(key: string, value: unknown, options: { etag?: string } = {}): Promise<string> {
    const item = {
      key,
      value,
      ...(options.etag === undefined ? {} : { etag: options.etag, options: firstWrite }),
    };
    await this.mapConflict([key], () => this.sidecar.request("POST", this.base, { body: [item] }));
    const stored = await this.get(key);
    return stored && JSON.stringify(stored.value) === JSON.stringify(value) ? stored.etag : SUPERSEDED_ETAG;
  }

  async delete(key: string, options: { etag?: string } = {}): Promise<void> {
    const conditional = options.etag !== undefined;
    const path = `${this.base}/${encodeURIComponent(key)}${conditional ? "?concurrency=first-write" : ""}`;
    await this.mapConflict([key], () =>
      this.sidecar.request("DELETE", path, {
        headers: conditional ? { "if-match": options.etag as string } : {},
      }),
    );
  }

  async transact(operations: StateOperation[]): Promise<void> {
    if (operations.length === 0) return;
    const body = {
      operations: operations.map((op) => ({
        operation: op.operation,
        request: {
          key: op.key,
          ...(op.operation === "upsert" ? { value: op.value } : {}),
          ...(op.etag === undefined ? {} : { etag: op.etag, options: firstWrite }),
        },
      })),
    };
    try {
      await this.sidecar.request("POST", `${this.base}/transaction`, { body });
    } catch (error) {
      const stale = isFailedTransaction(error) ? await this.staleKey(operations) : undefined;
      if (stale === undefined) throw error;
      throw new EtagMismatchError(stale);
    }
  }

  async close(): Promise<void> {}

  /**
   * daprd 1.16 answers a single save or delete whose ETag no longer matches with 409, and a
   * malformed (e.g. superseded) ETag with a 400 that names the ETag; both mean the caller's view of
   * the key is stale.
   */
  private async mapConflict(keys: string[], call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
    } catch (error) {
      const stale =
        error instanceof SidecarRequestError &&
        (error.status === 409 || (error.status === 400 && /etag/i.test(error.body)));
      if (!stale || keys.length === 0) throw error;
      throw new EtagMismatchError(keys.find((key) => error.body.includes(key)) ?? (keys[0] as string));
    }
  }

  /**
   * The first ETag-guarded key whose stored ETag is no longer the one the caller gave (a missing key
   * matches no ETag). A failed transaction does not say whether an ETag was the cause, so the keys
   * are read back to find out.
   */
  private async staleKey(operations: StateOperation[]): Promise<string | undefined> {
    const guarded = operations.filter((op) => op.etag !== undefined);
    if (guarded.length === 0) return undefined;
    const current = await this.getMany(guarded.map((op) => op.key));
    return guarded.find((op) => current.get(op.key)?.etag !== op.etag)?.key;
  }
}

/**
 * daprd 1.16 answers every failed state transaction, an ETag mismatch included, with 500
 * `ERR_STATE_TRANSACTION` and the store's own error text, which for Redis does not name the ETag.
 */
function isFailedTransaction(error: unknown): error is SidecarRequestError {
  if (!(error instanceof SidecarRequestError) || error.status !== 500) return false;
  try {
    return (JSON.parse(error.body) as { errorCode?: unknown }).errorCode === "ERR_STATE_TRANSACTION";
  } catch {
    return false;
  }
}
