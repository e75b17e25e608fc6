import type { Incarnation } from "../domain/incarnation.js";
import type { CounterStore } from "./counter-store.js";

/** Long enough that no claim (or anything else an incarnation leaves) outlives its node's count. */
const COUNT_LIFETIME_MS = 10 * 365 * 86_400_000;

/**
 * Counts this start of `node` in the shared counters (Redis whenever state is durable), so the
 * process is a later incarnation than every earlier start of its node. Should the count ever
 * expire and start again, the earlier incarnations just look later: their claims wait for their
 * leases, as any other holder's do.
 */
export async function startIncarnation(counters: CounterStore, node: string): Promise<Incarnation> {
  const { value } = await counters.increment(`incarnation:${node}`, 1, COUNT_LIFETIME_MS);
  return { node, incarnation: value };
}
