import type { CounterStore } from "./counter-store.js";
import type { DocumentStore } from "./document-store.js";
import type { StateStore } from "./state-store.js";

/** One dependency a process needs before it can serve: a store, the Dapr sidecar. */
export interface ReadinessCheck {
  /** How the readiness answer names it, e.g. "state store". */
  name: string;
  /** Resolves when the dependency answers; rejects (or never settles) when it does not. */
  probe(): Promise<void>;
}

export interface ReadinessResult {
  name: string;
  ready: boolean;
  /** Why it is not ready (for the log; the public answer names the check only). */
  error?: unknown;
}

/** How long a probe may take before its dependency counts as not answering. */
export const READINESS_PROBE_TIMEOUT_MS = 2_000;

/**
 * The stores every runtime serves from, each probed with a read of a key or document that need not
 * exist: a store that answers it can serve requests.
 */
export function storeReadinessChecks(stores: {
  state: StateStore;
  documents: DocumentStore;
  counters: CounterStore;
}): ReadinessCheck[] {
  return [
    { name: "state store", probe: async () => void (await stores.state.get("readiness-probe")) },
    {
      name: "document store",
      probe: async () => void (await stores.documents.collection("readiness-probe").findOne({})),
    },
    { name: "counter store", probe: async () => void (await stores.counters.get("readiness-probe")) },
  ];
}

/** Runs every check at once, each bounded by `timeoutMs`. */
export async function assessReadiness(
  checks: readonly ReadinessCheck[],
  timeoutMs = READINESS_PROBE_TIMEOUT_MS,
): Promise<ReadinessResult[]> {
  return Promise.all(
    checks.map(async ({ name, probe }) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        timer.unref();
      });
      try {
        await Promise.race([probe(), timeout]);
        return { name, ready: true };
      } catch (error) {
        return { name, ready: false, error };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
