/**
 * Idempotency-Key on writes (spec part 4, 8.2). The first request with a key runs; its response is
 * kept 24 hours under the key, scoped to the caller's tenant and principal, and a replay with the
 * same payload gets that response back (`Idempotent-Replayed: true`) without the side effect
 * running again. The same key with another payload is a 422. A duplicate that arrives while the
 * first is still running waits for its result, up to a bound, then gets a 409. Only responses
 * below 500 are kept: after a server failure the key is released so a retry can succeed.
 *
 * State lives in the CounterStore: memory in the embedded runtime, Redis when several processes
 * serve the same API. Waiters in the same process are woken directly; others poll the store.
 */
import { canonicalJson } from "../domain/canonical-json.js";
import { createHash } from "node:crypto";
import type { Clock, TimerHandle } from "../runtime/clock.js";
import type { CounterStore } from "../runtime/counter-store.js";
import type { Principal } from "../app/principals.js";
import { ProblemError } from "./errors.js";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";

/** A response as kept for replays. */
export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface IdempotencyOptions {
  /** How long a completed response is replayed (spec 8.2: 24 hours). */
  retentionMs: number;
  /** How long a running first request holds its key, so a crashed process cannot hold it forever. */
  inFlightLeaseMs: number;
  /** How long a duplicate waits for the first request before answering 409. */
  waitMs: number;
  /** How often a duplicate served by another process re-reads the store while waiting. */
  pollMs: number;
}

export const DEFAULT_IDEMPOTENCY_OPTIONS: IdempotencyOptions = {
  retentionMs: 24 * 60 * 60 * 1000,
  inFlightLeaseMs: 60_000,
  waitMs: 10_000,
  pollMs: 100,
};

type Entry =
  | { state: "in-flight"; fingerprint: string }
  | ({ state: "done"; fingerprint: string } & StoredResponse);

export interface IdempotentRun {
  response: StoredResponse;
  replayed: boolean;
}

const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

/** The header's value, checked; undefined when the request carries none. */
export function readIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined || header === "") return undefined;
  if (!KEY_FORMAT.test(header)) {
    throw new ProblemError({
      status: 400,
      category: "invalid",
      code: "idempotency-key",
      detail: "Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID v4 is recommended)",
    });
  }
  return header;
}

/** What makes two requests "the same payload": method, path and query, body, and caller. */
export function requestFingerprint(request: {
  method: string;
  path: string;
  query: unknown;
  body: unknown;
  principal: Principal;
}): string {
  return createHash("sha256")
    .update(
      canonicalJson([
        request.method,
        request.path,
        request.query,
        request.body ?? null,
        request.principal.tenant,
        request.principal.actorUrn,
      ]),
    )
    .digest("base64url");
}

export class IdempotencyKeys {
  private readonly options: IdempotencyOptions;
  /** First requests running in this process, by store key: duplicates here await them directly. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly counters: CounterStore,
    private readonly clock: Clock,
    options: Partial<IdempotencyOptions> = {},
  ) {
    this.options = { ...DEFAULT_IDEMPOTENCY_OPTIONS, ...options };
  }

  /** Keys are scoped per tenant and principal: two callers may pick the same key independently. */
  storeKey(principal: Principal, key: string): string {
    return `idempotency:${principal.tenant}:${principal.actorUrn}:${key}`;
  }

  /** True when a completed response is kept under this key (rate limits exempt such replays). */
  async hasResponse(storeKey: string): Promise<boolean> {
    return this.read(storeKey).then((entry) => entry?.state === "done");
  }

  /**
   * Runs `execute` once per key and payload. `execute` returns the response to keep; a thrown error
   * or a 5xx response releases the key instead.
   */
  async run(
    storeKey: string,
    fingerprint: string,
    execute: () => Promise<StoredResponse>,
  ): Promise<IdempotentRun> {
    const deadline = this.clock.now() + this.options.waitMs;
    const claim = JSON.stringify({ state: "in-flight", fingerprint } satisfies Entry);
    for (;;) {
      if (await this.counters.setIfAbsent(storeKey, claim, this.options.inFlightLeaseMs)) {
        return { response: await this.runFirst(storeKey, fingerprint, execute), replayed: false };
      }
      const entry = await this.read(storeKey);
      if (entry === undefined) continue;
      if (entry.fingerprint !== fingerprint) throw keyReused();
      if (entry.state === "done") {
        const { status, body, headers } = entry;
        return { response: { status, body, headers }, replayed: true };
      }
      if (this.clock.now() >= deadline) throw stillInFlight();
      await this.waitForChange(storeKey, deadline);
    }
  }

  private async runFirst(
    storeKey: string,
    fingerprint: string,
    execute: () => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    let finished!: () => void;
    this.running.set(storeKey, new Promise<void>((resolve) => (finished = resolve)));
    try {
      const response = await execute();
      if (response.status < 500 && isStorable(response.body)) {
        const entry: Entry = { state: "done", fingerprint, ...response };
        await this.counters.set(storeKey, JSON.stringify(entry), this.options.retentionMs);
      } else {
        await this.counters.delete(storeKey);
      }
      return response;
    } catch (error) {
      await this.counters.delete(storeKey);
      throw error;
    } finally {
      this.running.delete(storeKey);
      finished();
    }
  }

  /** Resolves when the first request in this process finishes, at the next poll, or at the deadline. */
  private async waitForChange(storeKey: string, deadline: number): Promise<void> {
    const local = this.running.get(storeKey);
    const delay = local
      ? deadline - this.clock.now()
      : Math.min(this.options.pollMs, deadline - this.clock.now());
    let timer: TimerHandle | undefined;
    const elapsed = new Promise<void>((resolve) => {
      timer = this.clock.setTimer(resolve, delay);
    });
    await Promise.race(local ? [local, elapsed] : [elapsed]);
    timer?.cancel();
  }

  private async read(storeKey: string): Promise<Entry | undefined> {
    const raw = await this.counters.get(storeKey);
    return raw === undefined ? undefined : (JSON.parse(raw) as Entry);
  }
}

/** Streams and buffers are not kept: their replay could not be the same response. */
function isStorable(body: unknown): boolean {
  if (body === null || typeof body !== "object") return true;
  return !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== "function";
}

function keyReused(): ProblemError {
  return new ProblemError({
    status: 422,
    category: "unprocessable",
    code: "idempotency-key-reused",
    detail: "This Idempotency-Key was already used for a different request; use a new key for a new request",
  });
}

function stillInFlight(): ProblemError {
  return new ProblemError({
    status: 409,
    category: "conflict",
    code: "idempotency-key-in-flight",
    detail: "A request with this Idempotency-Key is still being processed; retry later",
    headers: { "Retry-After": "1" },
  });
}
