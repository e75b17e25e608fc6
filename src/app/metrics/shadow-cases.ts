import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { type Money, minus, money, plus } from "../../domain/money.js";
import { percentile } from "../../domain/percentile.js";
import { HOLDING_STATUSES, type Reservation } from "../../domain/reservation.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { AllocationWaves } from "../allocation/allocation-waves.js";
import { RESERVATIONS_COLLECTION } from "../booking/reservation-index.js";
import { CaseChanges } from "../cases/case-changes.js";
import { type CaseIndexEntry, COLLECTIONS } from "../cases/case-documents.js";
import type { OperatorPrincipal } from "../principals.js";
import { secondsToFirstOffer } from "./first-offers.js";

export const SHADOW_REPORTS_COLLECTION = "shadow-reports";

/** What automation would have allocated for the case, as the allocation engine plans it now. */
export interface ShadowAutomation {
  /** PLANNED, or NO_POLICY when no policy matches the case (automation would send it to review). */
  outcome: "PLANNED" | "NO_POLICY";
  reason: string | null;
  policyUrn: string | null;
  totalCost: Money | null;
  rooms: number;
  groupsHoused: number;
  groupsLeftOut: number;
  allocations: { groupId: string; hotelUrn: string; rooms: number; nights: number; cost: Money }[];
  /**
   * Seconds from opening to the first offer had automation handled the case, estimated as the
   * median of the tenant's automated cases of the last ESTIMATE_WINDOW_DAYS (every room held by a
   * wave, no operator booking; drills and this case left out); null with no such case.
   */
  timeToFirstOfferSeconds: number | null;
  /** How many automated cases that median is taken over. */
  timeToFirstOfferSampleSize: number;
}

/** How far back the automated cases that estimate automation's time to offer are looked for. */
export const ESTIMATE_WINDOW_DAYS = 30;

/** What happened on the live case: the rooms held and their cost, and how soon the first offer went out. */
export interface ShadowOperators {
  /** Reservations that hold rooms (src/domain/reservation.ts HOLDING_STATUSES). */
  reservations: number;
  /** Of those, the ones an operator made (override, manual review, manual booking), not a wave. */
  byOperators: number;
  rooms: number;
  groupsHoused: number;
  /** Null when the reservations are in several currencies (see `reason`) or there are none. */
  totalCost: Money | null;
  /** Seconds from the case's opening to its first offer notification; null before any. */
  timeToFirstOfferSeconds: number | null;
  reason: string | null;
}

export interface ShadowReport {
  _id: string;
  caseUrn: string;
  tenant: string;
  computedAt: string;
  computedBy: string;
  automation: ShadowAutomation;
  operators: ShadowOperators;
  /** Automation minus what was done; null where the two cannot be compared (no plan, other currency). */
  difference: { totalCost: Money | null; rooms: number | null; timeToFirstOfferSeconds: number | null };
}

/**
 * Shadow cases (spec 4.2 "Run a drill or shadow case: ADMIN"): beside a live case, what automation
 * would have done (the allocation engine's plan for the case as it stands, computed by
 * AllocationWaves.preview: nothing booked, notified, published or written but this report)
 * against what was done (the case's holding reservations and its first offer). The last report of
 * each case is kept for `GET`.
 */
@injectable()
export class ShadowCases {
  private readonly reports: DocumentCollection<ShadowReport>;

  constructor(
    @inject(AllocationWaves) private readonly waves: Pick<AllocationWaves, "preview">,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {
    this.reports = documents.collection<ShadowReport>(SHADOW_REPORTS_COLLECTION);
  }

  async run(caller: OperatorPrincipal, caseUrn: string): Promise<ShadowReport> {
    const { case: record } = await this.cases.snapshot(caseUrn, caller);
    const automation = {
      ...automationOf(await this.waves.preview(record.urn, caller)),
      ...(await this.automatedTimeToOffer(record.tenant, record.urn)),
    };
    const operators = await this.operatorsOf(record.tenant, record.urn, record.openedAt);
    const comparable =
      automation.totalCost !== null &&
      operators.totalCost !== null &&
      automation.totalCost.currency === operators.totalCost.currency;
    const report: ShadowReport = {
      _id: record.urn,
      caseUrn: record.urn,
      tenant: record.tenant,
      computedAt: new Date(this.clock.now()).toISOString(),
      computedBy: caller.actorUrn,
      automation,
      operators,
      difference: {
        totalCost: comparable ? minus(automation.totalCost!, operators.totalCost!) : null,
        rooms: automation.outcome === "PLANNED" ? automation.rooms - operators.rooms : null,
        timeToFirstOfferSeconds:
          automation.timeToFirstOfferSeconds !== null && operators.timeToFirstOfferSeconds !== null
            ? automation.timeToFirstOfferSeconds - operators.timeToFirstOfferSeconds
            : null,
      },
    };
    await this.reports.put(report);
    return report;
  }

  async last(caller: OperatorPrincipal, caseUrn: string): Promise<ShadowReport> {
    const { case: record } = await this.cases.snapshot(caseUrn, caller);
    const report = await this.reports.get(record.urn);
    if (!report) {
      throw new DomainError("not-found", "shadow-report-not-found", `No shadow report for ${record.urn} yet`);
    }
    return report;
  }

  /** The estimate of ShadowAutomation.timeToFirstOfferSeconds, from the tenant's recent automated cases. */
  private async automatedTimeToOffer(
    tenant: string,
    caseUrn: string,
  ): Promise<Pick<ShadowAutomation, "timeToFirstOfferSeconds" | "timeToFirstOfferSampleSize">> {
    const since = new Date(this.clock.now() - ESTIMATE_WINDOW_DAYS * 86_400_000).toISOString();
    const recent = (
      await this.documents
        .collection<CaseIndexEntry>(COLLECTIONS.cases)
        .findAll({ tenant, openedAt: { $gte: since } })
    ).filter((c) => c.drill !== true && c.urn !== caseUrn);
    const holding = (
      await this.documents
        .collection<Reservation & { _id: string }>(RESERVATIONS_COLLECTION)
        .findAll({ tenant, caseUrn: { $in: recent.map((c) => c.urn) } })
    ).filter((r) => HOLDING_STATUSES.has(r.status));
    const byOperator = new Set(holding.filter((r) => r.source !== "wave").map((r) => r.caseUrn));
    const automated = recent.filter(
      (c) => !byOperator.has(c.urn) && holding.some((r) => r.caseUrn === c.urn),
    );
    const samples = [...(await secondsToFirstOffer(this.documents, tenant, automated)).values()];
    return {
      timeToFirstOfferSeconds:
        samples.length === 0 ? null : percentile([...samples].sort((a, b) => a - b), 50),
      timeToFirstOfferSampleSize: samples.length,
    };
  }

  private async operatorsOf(tenant: string, caseUrn: string, openedAt: string): Promise<ShadowOperators> {
    const reservations = (
      await this.documents
        .collection<Reservation & { _id: string }>(RESERVATIONS_COLLECTION)
        .findAll({ tenant, caseUrn })
    ).filter((r) => HOLDING_STATUSES.has(r.status));
    const currencies = new Set(reservations.map((r) => r.cost.currency));
    return {
      reservations: reservations.length,
      byOperators: reservations.filter((r) => r.source !== "wave").length,
      rooms: reservations.reduce((sum, r) => sum + r.rooms, 0),
      groupsHoused: new Set(reservations.map((r) => r.groupId)).size,
      totalCost:
        currencies.size === 1
          ? reservations.reduce((sum, r) => plus(sum, r.cost), money(0, [...currencies][0]!))
          : null,
      timeToFirstOfferSeconds:
        (await secondsToFirstOffer(this.documents, tenant, [{ urn: caseUrn, openedAt }])).get(caseUrn) ?? null,
      reason:
        currencies.size > 1
          ? `reservations in ${[...currencies].sort().join(", ")}: no single total`
          : reservations.length === 0
            ? "no reservation holds rooms for the case"
            : null,
    };
  }
}

function automationOf(
  preview: Awaited<ReturnType<AllocationWaves["preview"]>>,
): Omit<ShadowAutomation, "timeToFirstOfferSeconds" | "timeToFirstOfferSampleSize"> {
  if (preview.outcome === "no-policy") {
    return {
      outcome: "NO_POLICY",
      reason: preview.reason,
      policyUrn: null,
      totalCost: null,
      rooms: 0,
      groupsHoused: 0,
      groupsLeftOut: 0,
      allocations: [],
    };
  }
  const { plan, policy } = preview;
  return {
    outcome: "PLANNED",
    reason: null,
    policyUrn: policy.urn,
    totalCost: plan.totalCost,
    rooms: plan.allocations.reduce((sum, a) => sum + a.rooms, 0),
    groupsHoused: plan.allocations.length,
    groupsLeftOut: plan.unallocated.length,
    allocations: plan.allocations.map(({ groupId, hotelUrn, rooms, nights, cost }) => ({
      groupId,
      hotelUrn,
      rooms,
      nights,
      cost,
    })),
  };
}
