import type { Clock } from "../../runtime/clock.js";

/** How long a wave waits for the airport's wave before it (a plan takes well under a second). */
export const AIRPORT_TURN_WAIT_MS = 10_000;

/** A turn taken at a key: when it began (its wait over) and when it ended; neither rejects. */
interface Turn {
  began: Promise<void>;
  settled: Promise<void>;
}

/**
 * One allocation wave's planning and recording at a time per airline and airport, in arrival
 * order: a wave reads the rooms the others allocated (vendorOffersLessHeld) only once they are
 * recorded. On one node this is every wave of a hub meltdown; across nodes booking's fallback and
 * the vendors' own refusals still cover what two nodes allocate at the same moment. A turn waits
 * for the one before it at most AIRPORT_TURN_WAIT_MS by the injected clock, counted from when that
 * one began: one stuck wave (a store or vendor call that never answers) must not hold every later
 * case at the airport, while a long queue of waves that each take their time (a meltdown's fifty
 * cases) must still plan one after another, each from the rooms the ones before it recorded. A turn
 * that fails ends like one that succeeds: the next one starts.
 */
export class AirportTurns {
  /** The last turn taken at each key (`tenant|airport`), settled or not. */
  private readonly last = new Map<string, Turn>();

  constructor(
    private readonly clock: Clock,
    private readonly waitAtMostMs = AIRPORT_TURN_WAIT_MS,
  ) {}

  take<T>(key: string, work: () => Promise<T>): Promise<T> {
    const began = this.afterPrevious(this.last.get(key));
    const result = began.then(work);
    const turn: Turn = {
      began,
      settled: result.then(
        () => undefined,
        () => undefined,
      ),
    };
    this.last.set(key, turn);
    void turn.settled.then(() => {
      if (this.last.get(key) === turn) this.last.delete(key);
    });
    return result;
  }

  /** Airports with a turn under way or waiting. */
  get busy(): number {
    return this.last.size;
  }

  /**
   * Settles once `previous` has begun and then either settled or run for the wait, whichever comes
   * first; never rejects.
   */
  private async afterPrevious(previous: Turn | undefined): Promise<void> {
    if (!previous) return;
    await previous.began;
    return new Promise<void>((resolve) => {
      const timer = this.clock.setTimer(resolve, this.waitAtMostMs);
      void previous.settled.then(() => {
        timer.cancel();
        resolve();
      });
    });
  }
}
