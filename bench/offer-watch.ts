/** What the benches that wait for offers hear on a tenant's topic (bench:passenger-journey, bench:meltdown). */
import { type DomainEvent, topicFor } from "../src/domain/domain-event.js";
import type { TestPlatform } from "../test/support/platform.js";

/**
 * Per case, as the tenant's topic tells: the groups booked (`reservation.confirmed`), whether the
 * wave's booking settled, and the sub-cases offered (`subcase.offer-ready`).
 */
export class OfferWatch {
  private readonly booked = new Map<string, Set<string>>();
  private readonly settled = new Set<string>();
  private readonly offered = new Map<string, Set<string>>();
  private readonly waiters = new Set<() => void>();
  /** Every event the topic carried since the watch began, whatever its type. */
  eventsHeard = 0;

  constructor(
    t: TestPlatform,
    tenant: string,
    private readonly waitMs: number,
  ) {
    t.platform.runtime.bus.subscribe({
      name: "bench.offer-watch",
      topic: topicFor({ tenant }),
      handler: async (event: DomainEvent) => {
        this.eventsHeard++;
        const data = event.data as { caseUrn?: string; groupId?: string; subCaseUrn?: string };
        const caseUrn = event.caseUrn ?? data.caseUrn;
        if (!caseUrn) return "SUCCESS";
        if (event.type === "reservation.confirmed") add(this.booked, caseUrn, data.groupId!);
        else if (event.type === "booking.wave-settled") this.settled.add(caseUrn);
        else if (event.type === "subcase.offer-ready") add(this.offered, caseUrn, data.subCaseUrn!);
        else return "SUCCESS";
        for (const wake of this.waiters) wake();
        return "SUCCESS";
      },
    });
  }

  resetOffers(caseUrns: readonly string[]): void {
    for (const caseUrn of caseUrns) this.offered.delete(caseUrn);
  }

  offeredCount(caseUrns: readonly string[]): number {
    return caseUrns.reduce((sum, caseUrn) => sum + (this.offered.get(caseUrn)?.size ?? 0), 0);
  }

  settledCount(caseUrns: readonly string[]): number {
    return caseUrns.filter((caseUrn) => this.settled.has(caseUrn)).length;
  }

  bookedCount(caseUrns: readonly string[]): number {
    return caseUrns.reduce((sum, caseUrn) => sum + (this.booked.get(caseUrn)?.size ?? 0), 0);
  }

  /**
   * Resolves when the cases' booking settled and every booked group's sub-case is offered (the
   * groups no hotel could take wait in a review item, with no offer); rejects after this.waitMs.
   */
  untilAllOffered(caseUrns: readonly string[]): Promise<void> {
    const done = () =>
      caseUrns.every((c) => this.settled.has(c)) && this.offeredCount(caseUrns) >= this.bookedCount(caseUrns);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `${this.offeredCount(caseUrns)} of ${this.bookedCount(caseUrns)} booked sub-cases offered in ${this.waitMs} ms`,
          ),
        );
      }, this.waitMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }
}

function add(sets: Map<string, Set<string>>, key: string, value: string): void {
  const set = sets.get(key) ?? new Set();
  set.add(value);
  sets.set(key, set);
}
