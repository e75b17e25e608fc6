import type { Clock } from "../../runtime/clock.js";

/** How long a wave waits for the airport's wave before it (a plan takes well under a second). */
export const AIRPORT_TURN_WAIT_MS = 10_000;

/**
 * One allocation wave's planning and recording at a time per airline and airport, in arrival
 * order: a wave reads the rooms the others allocated (vendorOffersLessHeld) only once they are
 * recorded. On one node this is every wave of a hub meltdown; across nodes booking's fallback and
 * the vendors' own refusals still cover what two nodes allocate at the same moment. A turn waits
 * for the one before it at most AIRPORT_TURN_WAIT_MS by the injected clock: one stuck wave (a store
 * or vendor call that never answers) must not hold every later case at the airport. A turn that
 * fails ends like one that succeeds: the next one starts.
 */
export class AirportTurns {
  /** The last turn taken at each key (`tenant|airport`), settled or not. */
  private readonly last = new Map<string, Promise<void>>();

  constructor(
    private readonly clock: Clock,
    private readonly waitAtMostMs = AIRPORT_TURN_WAIT_MS,
  ) {}

  take<T>(key: string, work: () => Promise<T>): Promise<T> {
    const turn = this.afterPrevious(this.last.get(key)).then(work);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.last.set(key, settled);
    void settled.then(() => {
      if (this.last.get(key) === settled) this.last.delete(key);
    });
    return turn;
  }

  /** Airports with a turn under way or waiting. */
  get busy(): number {
    return this.last.size;
  }

  /** Settles when `previous` does or once the wait is over, whichever comes first; never rejects. */
  private afterPrevious(previous: Promise<void> | undefined): Promise<void> {
    if (!previous) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = this.clock.setTimer(resolve, this.waitAtMostMs);
      void previous.then(() => {
        timer.cancel();
        resolve();
      });
    });
  }
}
