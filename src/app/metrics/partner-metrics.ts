import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { KPI_CATALOG, type KpiDefinition, type KpiId, share } from "../../domain/kpi-catalog.js";
import { percentile } from "../../domain/percentile.js";
import { type Money, minorUnitDigits } from "../../domain/money.js";
import { HOLDING_STATUSES, type Reservation } from "../../domain/reservation.js";
import type { DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { WAVES_COLLECTION } from "../allocation/wave-documents.js";
import { RESERVATIONS_COLLECTION } from "../booking/reservation-index.js";
import { type CaseIndexEntry, COLLECTIONS, type ReviewItemDocument } from "../cases/case-documents.js";
import type { PartnerPrincipal } from "../principals.js";
import { SUB_CASE_COLLECTION, type SubCaseIndexDoc } from "../sub-cases/sub-case-index.js";
import type { Clock } from "../../runtime/clock.js";
import { secondsToFirstOffer } from "./first-offers.js";
import { WebhookDeliveryTimes } from "./webhook-delivery-times.js";

/** The longest window one request measures, so a request reads a bounded number of records. */
export const MAX_WINDOW_DAYS = 366;
const DAY_MS = 86_400_000;

/** One figure of a breakdown: per currency for money, per partner tier for webhook deliveries. */
export interface KpiFigure {
  value: number | null;
  sampleSize: number;
}

export interface KpiMeasurement extends KpiDefinition {
  kpi: KpiId;
  tenant: string;
  from: string;
  to: string;
  /** Null when there is nothing to measure, or no single figure (several currencies): see `reason`. */
  value: number | null;
  /** For money KPIs: the currency of `value`. */
  currency: string | null;
  /** How many cases, groups, sub-cases or deliveries the value is computed over. */
  sampleSize: number;
  reason: string | null;
  breakdown: Record<string, KpiFigure> | null;
  computedAt: string;
}

type Figures = Pick<KpiMeasurement, "value" | "currency" | "sampleSize" | "reason" | "breakdown">;

interface WindowCases {
  tenant: string;
  from: string;
  to: string;
  cases: Pick<CaseIndexEntry, "urn" | "openedAt">[];
}

type Measure = (window: WindowCases, partner: PartnerPrincipal) => Promise<Figures>;

/**
 * `GET /partner/v1/metrics` (spec 4.3, scope metrics.read): one KPI of the certified catalog
 * (src/domain/kpi-catalog.ts) for the partner's airline (spec 5.4: every read is the caller's
 * tenant's), computed from the records the platform keeps as it works: the case index, the
 * notification send log, reservations, allocation waves, sub-cases, manual-review items, and the
 * webhook area's events and delivery attempts.
 */
@injectable()
export class PartnerMetrics {
  private readonly measures: Record<KpiId, Measure> = {
    "time-to-first-offer-p50": (w) => this.timeToFirstOffer(w, 50),
    "time-to-first-offer-p95": (w) => this.timeToFirstOffer(w, 95),
    "groups-booked-without-operator": (w) => this.bookedWithoutOperator(w),
    "cost-per-passenger": (w) => this.costPerPassenger(w),
    "savings-vs-market-direct-contracts": (w) => this.savingsVsMarket(w),
    "acceptance-rate": (w) => this.acceptanceRate(w),
    "manual-review-rate": (w) => this.manualReviewRate(w),
    "webhook-delivery-p95": (w, partner) => this.webhookDeliveryP95(w, partner),
  };

  constructor(
    @inject(TOKENS.documents) private readonly documents: DocumentStore,
    @inject(WebhookDeliveryTimes) private readonly webhooks: Pick<WebhookDeliveryTimes, "deliveries">,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async measure(partner: PartnerPrincipal, kpi: KpiId, from: string, to: string): Promise<KpiMeasurement> {
    const window = windowOf(from, to);
    const cases = await this.documents
      .collection<CaseIndexEntry>(COLLECTIONS.cases)
      .findAll({ tenant: partner.tenant, openedAt: { $gte: window.from, $lte: window.to } });
    // Drill cases are rehearsals (spec 4.2): no KPI counts them.
    const measured = cases.filter((entry) => entry.drill !== true);
    const figures = await this.measures[kpi](
      { tenant: partner.tenant, ...window, cases: measured.map(({ urn, openedAt }) => ({ urn, openedAt })) },
      partner,
    );
    return {
      kpi,
      ...KPI_CATALOG[kpi],
      tenant: partner.tenant,
      ...window,
      ...figures,
      computedAt: new Date(this.clock.now()).toISOString(),
    };
  }

  private async timeToFirstOffer(window: WindowCases, p: number): Promise<Figures> {
    const samples = [...(await secondsToFirstOffer(this.documents, window.tenant, window.cases)).values()];
    return single(
      percentileOf(samples, p),
      samples.length,
      "no case opened in the window has had an offer yet",
    );
  }

  private async bookedWithoutOperator(window: WindowCases): Promise<Figures> {
    const byGroup = new Map<string, boolean>();
    for (const reservation of await this.holdingReservations(window)) {
      const key = `${reservation.caseUrn} ${reservation.groupId}`;
      byGroup.set(key, (byGroup.get(key) ?? true) && reservation.source === "wave");
    }
    const automatic = [...byGroup.values()].filter(Boolean).length;
    return single(
      share(automatic, byGroup.size),
      byGroup.size,
      "no group of the window's cases holds a room",
    );
  }

  private async costPerPassenger(window: WindowCases): Promise<Figures> {
    const perCurrency = new Map<string, { costMinor: number; passengers: number }>();
    for (const reservation of await this.holdingReservations(window)) {
      const sum = perCurrency.get(reservation.cost.currency) ?? { costMinor: 0, passengers: 0 };
      sum.costMinor += reservation.cost.amountMinor;
      sum.passengers += reservation.guests.length;
      perCurrency.set(reservation.cost.currency, sum);
    }
    const breakdown = Object.fromEntries(
      [...perCurrency].map(([currency, { costMinor, passengers }]) => [
        currency,
        { value: passengers === 0 ? null : major(costMinor / passengers, currency), sampleSize: passengers },
      ]),
    );
    return byCurrency(breakdown, "no passenger of the window's cases holds a room");
  }

  private async savingsVsMarket(window: WindowCases): Promise<Figures> {
    const waves = await this.ofCases<{
      _id: string;
      caseUrn: string;
      sequence: number;
      savingsVsMarket: Money;
    }>(WAVES_COLLECTION, window);
    const latest = new Map<string, (typeof waves)[number]>();
    for (const wave of waves) {
      const seen = latest.get(wave.caseUrn);
      if (!seen || wave.sequence > seen.sequence) latest.set(wave.caseUrn, wave);
    }
    const perCurrency = new Map<string, { savedMinor: number; cases: number }>();
    for (const { savingsVsMarket: saved } of latest.values()) {
      const sum = perCurrency.get(saved.currency) ?? { savedMinor: 0, cases: 0 };
      sum.savedMinor += saved.amountMinor;
      sum.cases += 1;
      perCurrency.set(saved.currency, sum);
    }
    const breakdown = Object.fromEntries(
      [...perCurrency].map(([currency, { savedMinor, cases }]) => [
        currency,
        { value: major(savedMinor, currency), sampleSize: cases },
      ]),
    );
    return byCurrency(breakdown, "no case opened in the window has an allocation wave");
  }

  private async acceptanceRate(window: WindowCases): Promise<Figures> {
    const answered = await this.ofCases<SubCaseIndexDoc>(SUB_CASE_COLLECTION, window, {
      retiredAt: null,
      answer: { $ne: null },
    });
    const accepted = answered.filter((s) => s.answer?.kind === "ACCEPTED").length;
    return single(
      share(accepted, answered.length),
      answered.length,
      "no passenger of the window's cases has answered an offer",
    );
  }

  private async manualReviewRate(window: WindowCases): Promise<Figures> {
    const items = await this.ofCases<ReviewItemDocument>(COLLECTIONS.reviewItems, window);
    const reviewed = new Set(items.map((item) => item.caseUrn)).size;
    return single(
      share(reviewed, window.cases.length),
      window.cases.length,
      "no case was opened in the window",
    );
  }

  private async webhookDeliveryP95(window: WindowCases, partner: PartnerPrincipal): Promise<Figures> {
    const deliveries = await this.webhooks.deliveries(window.tenant, window);
    const breakdown: Record<string, KpiFigure> = {};
    for (const tier of [1, 2, 3] as const) {
      const samples = deliveries.filter((d) => d.tier === tier).map((d) => d.durationMs / 1000);
      breakdown[`tier-${tier}`] = { value: percentileOf(samples, 95) ?? null, sampleSize: samples.length };
    }
    const own = breakdown[`tier-${partner.tier}`]!;
    return {
      ...single(
        own.value ?? undefined,
        own.sampleSize,
        `no webhook delivery to a Tier-${partner.tier} registration in the window`,
      ),
      breakdown,
    };
  }

  /** Room-holding reservations of the window's cases. */
  private async holdingReservations(window: WindowCases): Promise<Reservation[]> {
    const all = await this.ofCases<Reservation & { _id: string }>(RESERVATIONS_COLLECTION, window);
    return all.filter((r) => HOLDING_STATUSES.has(r.status));
  }

  /** The tenant's documents of `collection` that belong to the window's cases. */
  private async ofCases<T extends { _id: string; caseUrn: string }>(
    collection: string,
    window: WindowCases,
    filter: Record<string, unknown> = {},
  ): Promise<T[]> {
    if (window.cases.length === 0) return [];
    return this.documents
      .collection<T>(collection)
      .findAll({ tenant: window.tenant, caseUrn: { $in: window.cases.map((c) => c.urn) }, ...filter });
  }
}

/** The window as stored timestamps compare (`toISOString()`); refused when reversed or too long. */
function windowOf(from: string, to: string): { from: string; to: string } {
  const start = Date.parse(from);
  const end = Date.parse(to);
  if (!(start <= end)) {
    throw new DomainError("invalid", "window-reversed", `from (${from}) must not be after to (${to})`, {
      from,
      to,
    });
  }
  if (end - start > MAX_WINDOW_DAYS * DAY_MS) {
    throw new DomainError(
      "invalid",
      "window-too-long",
      `A window spans at most ${MAX_WINDOW_DAYS} days; ask for several windows`,
      { from, to, maxDays: MAX_WINDOW_DAYS },
    );
  }
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString() };
}

function single(value: number | undefined, sampleSize: number, whyNone: string): Figures {
  return {
    value: value ?? null,
    currency: null,
    sampleSize,
    reason: value === undefined ? whyNone : null,
    breakdown: null,
  };
}

/** Money figures per currency: `value` is the only currency's, when there is exactly one. */
function byCurrency(breakdown: Record<string, KpiFigure>, whyNone: string): Figures {
  const currencies = Object.keys(breakdown);
  const only = currencies.length === 1 ? currencies[0]! : null;
  return {
    value: only ? breakdown[only]!.value : null,
    currency: only,
    sampleSize: Object.values(breakdown).reduce((sum, f) => sum + f.sampleSize, 0),
    reason:
      currencies.length === 0
        ? whyNone
        : only
          ? null
          : `several currencies (${currencies.join(", ")}): see breakdown`,
    breakdown: currencies.length === 0 ? null : breakdown,
  };
}

/** The nearest-rank percentile of unsorted samples; undefined when there is none. */
function percentileOf(samples: readonly number[], p: number): number | undefined {
  return samples.length === 0
    ? undefined
    : percentile(
        [...samples].sort((a, b) => a - b),
        p,
      );
}

/** An amount in minor units as major units, rounded to the currency's minor unit. */
function major(amountMinor: number, currency: string): number {
  const digits = minorUnitDigits(currency);
  return Math.round(amountMinor) / 10 ** digits;
}
