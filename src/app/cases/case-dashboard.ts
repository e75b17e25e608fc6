import { REVIEW_CATEGORIES } from "../../domain/case.js";
import type { Principal } from "../principals.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentStore, Filter } from "../../runtime/document-store.js";
import { type CaseIndexEntry, COLLECTIONS, type ReviewItemDocument } from "./case-documents.js";
import { scopedAirport } from "../authorization.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** Spec 4.1 and 8.2: each sub-call of a composition route gets 3 seconds. */
export const SUB_CALL_TIMEOUT_MS = 3_000;

export interface PartialFailure {
  domain: string;
  reason: string;
}

/** One sub-call of a composition: the domain it asks and how. */
export type SubCall<T> = () => Promise<T>;

/**
 * Runs every sub-call at once, each bounded by `timeoutMs` on `clock`. A sub-call that fails or
 * runs out of time yields null for its part and a partial failure naming its domain; the others
 * are returned as they are.
 */
export async function compose<S extends Record<string, SubCall<unknown>>>(
  calls: S,
  clock: Clock,
  timeoutMs = SUB_CALL_TIMEOUT_MS,
): Promise<{
  parts: { [K in keyof S]: Awaited<ReturnType<S[K]>> | null };
  partialFailures: PartialFailure[];
}> {
  const partialFailures: PartialFailure[] = [];
  const entries = await Promise.all(
    Object.entries(calls).map(async ([domain, call]) => {
      try {
        return [domain, await withTimeout(call, clock, timeoutMs)] as const;
      } catch (error) {
        partialFailures.push({ domain, reason: error instanceof Error ? error.message : String(error) });
        return [domain, null] as const;
      }
    }),
  );
  partialFailures.sort((a, b) => a.domain.localeCompare(b.domain));
  return { parts: Object.fromEntries(entries) as never, partialFailures };
}

function withTimeout<T>(call: SubCall<T>, clock: Clock, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimer(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    Promise.resolve()
      .then(call)
      .then(
        (value) => {
          timer.cancel();
          resolve(value);
        },
        (error) => {
          timer.cancel();
          reject(error);
        },
      );
  });
}

/** What the demand area keeps per demand (src/app/demand/demand-index.ts), as far as the dashboard reads it. */
interface DemandEntry {
  _id: string;
  tenant: string;
  airport: string;
  state: string;
  roomsRequested: number;
}

/**
 * GET /v1/cases/dashboard: case counts by status, open review items by category, and room demand,
 * for the caller's tenant (and airport, for an airport-scoped operator), composed from three
 * domains that may fail on their own.
 */
@injectable()
export class CaseDashboard {
  constructor(
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async read(caller: Principal, requestedAirport: string | undefined) {
    const airport = scopedAirport(caller, requestedAirport);
    const scope: Filter = { tenant: caller.tenant, ...(airport ? { airport } : {}) };
    const { parts, partialFailures } = await compose(
      {
        cases: () => this.caseCounts(scope),
        "manual-review": () => this.reviewCounts(scope),
        demand: () => this.demandTotals(scope),
      },
      this.clock,
    );
    return {
      airport: airport ?? null,
      cases: parts.cases,
      manualReview: parts["manual-review"],
      demand: parts.demand,
      partialFailures,
    };
  }

  private async caseCounts(scope: Filter) {
    const index = this.documents.collection<CaseIndexEntry>(COLLECTIONS.cases);
    const [open, manualReview, closed] = await Promise.all(
      (["OPEN", "MANUAL_REVIEW", "CLOSED"] as const).map((status) => index.count({ ...scope, status })),
    );
    return {
      total: open! + manualReview! + closed!,
      byStatus: { OPEN: open!, MANUAL_REVIEW: manualReview!, CLOSED: closed! },
    };
  }

  private async reviewCounts(scope: Filter) {
    const items = this.documents.collection<ReviewItemDocument>(COLLECTIONS.reviewItems);
    const counts = await Promise.all(
      REVIEW_CATEGORIES.map(
        async (category) =>
          [category, await items.count({ ...scope, state: { $ne: "RESOLVED" }, category })] as const,
      ),
    );
    return { open: counts.reduce((sum, [, n]) => sum + n, 0), byCategory: Object.fromEntries(counts) };
  }

  private async demandTotals(scope: Filter) {
    const demands = await this.documents.collection<DemandEntry>(COLLECTIONS.demands).findAll(scope);
    const rooms = (states: readonly string[]) =>
      demands.filter((d) => states.includes(d.state)).reduce((sum, d) => sum + d.roomsRequested, 0);
    return {
      demands: demands.length,
      pendingApprovals: demands.filter((d) => d.state === "REQUESTED").length,
      roomsRequested: rooms(["REQUESTED", "APPROVED", "FULFILLED", "PARTIAL"]),
      roomsApproved: rooms(["APPROVED", "FULFILLED", "PARTIAL"]),
    };
  }
}
