/**
 * The certified KPI catalog of the partner API (spec 4.3 `GET /partner/v1/metrics?kpi=&from=&to=`,
 * scope metrics.read: "only KPIs of the certified catalog"). The spec lists no KPIs; these are
 * ours. Each is measured over one tenant's cases opened in the window `[from, to]`, from what the
 * platform recorded while handling them, and each says what it is computed from, so a partner can
 * check it. A KPI with nothing to measure answers `value: null` with the reason, never a made-up figure.
 *
 * Percentiles are nearest-rank (src/domain/percentile.ts), so every value is one that was observed.
 */

export type KpiUnit = "seconds" | "ratio" | "money-per-passenger" | "money";

export interface KpiDefinition {
  title: string;
  /** What is measured, over which population. */
  definition: string;
  unit: KpiUnit;
  /** The records it is computed from. */
  source: string;
}

export const KPI_CATALOG = {
  "time-to-first-offer-p50": {
    title: "Case opened to first offer, median",
    definition:
      "For each case opened in the window whose passengers were offered a hotel: the time from the case's " +
      "opening to the first offer notification sent to any of its groups; the median (p50) of those times. " +
      "Cases without an offer yet are left out and not counted in sampleSize.",
    unit: "seconds",
    source: "case index (openedAt) and the notification send log (template offer, createdAt)",
  },
  "time-to-first-offer-p95": {
    title: "Case opened to first offer, 95th percentile",
    definition: "As time-to-first-offer-p50, the 95th percentile.",
    unit: "seconds",
    source: "case index (openedAt) and the notification send log (template offer, createdAt)",
  },
  "groups-booked-without-operator": {
    title: "Share of groups booked without an operator",
    definition:
      "Of the passenger groups of the window's cases that hold a room (a CONFIRMED, CHECKED_IN or " +
      "CHECKED_OUT reservation), the share whose every such reservation was booked by an allocation wave: no " +
      "operator override, manual-review rebooking or manual reservation.",
    unit: "ratio",
    source: "reservations (status, source)",
  },
  "cost-per-passenger": {
    title: "Hotel cost per passenger",
    definition:
      "The cost of the whole stay of every room-holding reservation of the window's cases, divided by the " +
      "passengers those reservations house, per currency (the vendors' currencies); `value` when they share one.",
    unit: "money-per-passenger",
    source: "reservations (status, cost, guests)",
  },
  "savings-vs-market-direct-contracts": {
    title: "Savings against market from direct contracts",
    definition:
      "The sum, over the window's cases, of the latest allocation wave's savings versus market (spec 2.6: for " +
      "each group placed at a direct-contract hotel, the cheapest vendor rate for the same hotel minus the " +
      "contract rate, for the stay), per currency (the policies' currencies); `value` when they share one.",
    unit: "money",
    source: "allocation waves (savingsVsMarket of each case's latest wave)",
  },
  "acceptance-rate": {
    title: "Offer acceptance rate",
    definition:
      "Of the sub-cases of the window's cases whose passengers answered their offer, the share that accepted.",
    unit: "ratio",
    source: "sub-cases (answer: ACCEPTED or DECLINED)",
  },
  "manual-review-rate": {
    title: "Manual-review rate",
    definition:
      "Of the cases opened in the window, the share that had at least one manual-review item raised.",
    unit: "ratio",
    source: "case index and manual-review items",
  },
  "webhook-delivery-p95": {
    title: "Webhook delivery time, 95th percentile, per partner tier",
    definition:
      "For each partner event of the airline that occurred in the window and was delivered to a partner's " +
      "webhook URL: the time from the event to the end of the attempt that delivered it, retries included " +
      "(spec 8.1 targets: Tier-1 under 5 s, Tier-2 under 30 s); the 95th percentile per partner tier in " +
      "`breakdown` (`tier-1`...), and the calling registration's tier in `value`. Events and attempts are " +
      "kept 7 days (the replay window), so only deliveries of the last 7 days count.",
    unit: "seconds",
    source: "the webhook event log (occurredAt) and delivery attempts (delivered, time, latency)",
  },
} as const satisfies Record<string, KpiDefinition>;

export type KpiId = keyof typeof KPI_CATALOG;

export const KPI_IDS = Object.keys(KPI_CATALOG) as KpiId[];

/** `part / whole`, rounded to 4 decimals; undefined when `whole` is 0. */
export function share(part: number, whole: number): number | undefined {
  return whole === 0 ? undefined : Math.round((part / whole) * 10_000) / 10_000;
}
