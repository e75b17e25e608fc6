import { MAX_WINDOW_DAYS, type PartnerMetrics } from "../../src/app/metrics/partner-metrics.js";
import { KPI_CATALOG, KPI_IDS } from "../../src/domain/kpi-catalog.js";
import { defineRoute } from "../../src/http/route.js";
import { timestampSchema, urnSchema } from "../../src/http/schemas/common.js";

const figureSchema = {
  type: "object",
  required: ["value", "sampleSize"],
  properties: { value: { type: ["number", "null"] }, sampleSize: { type: "integer" } },
} as const;

const measurementSchema = {
  type: "object",
  required: [
    "kpi",
    "title",
    "definition",
    "unit",
    "source",
    "tenant",
    "from",
    "to",
    "value",
    "currency",
    "sampleSize",
    "reason",
    "breakdown",
    "computedAt",
  ],
  properties: {
    kpi: { type: "string", enum: KPI_IDS },
    title: { type: "string" },
    definition: { type: "string" },
    unit: { type: "string", enum: ["seconds", "ratio", "money-per-passenger", "money"] },
    source: { type: "string", description: "The records the KPI is computed from" },
    tenant: urnSchema,
    from: timestampSchema,
    to: timestampSchema,
    value: {
      type: ["number", "null"],
      description:
        "Seconds, a ratio from 0 to 1, or an amount in major units of `currency`; null when there is nothing to " +
        "measure or no single figure (see `reason`)",
    },
    currency: { type: ["string", "null"], description: "ISO 4217 code of a money `value`" },
    sampleSize: {
      type: "integer",
      description: "How many cases, groups, passengers, sub-cases or deliveries the value is computed over",
    },
    reason: { type: ["string", "null"], description: "Why `value` is null" },
    breakdown: {
      type: ["object", "null"],
      description:
        "Money KPIs: one figure per currency; webhook-delivery-p95: one per partner tier (`tier-1`...)",
      additionalProperties: figureSchema,
    },
    computedAt: timestampSchema,
  },
} as const;

/** The catalog as the OpenAPI description lists it: each KPI with its unit, definition and source. */
const catalogDescription = KPI_IDS.map((id) => {
  const kpi = KPI_CATALOG[id];
  return `- \`${id}\` (${kpi.unit}): ${kpi.definition} Source: ${kpi.source}.`;
}).join("\n");

/** `GET /partner/v1/metrics?kpi=&from=&to=` (spec 4.3, scope metrics.read). */
export function metricsRoute(metrics: PartnerMetrics) {
  return defineRoute({
    method: "GET",
    path: "/partner/v1/metrics",
    operationId: "partnerGetMetric",
    summary: "One KPI of the certified catalog for the registration's airline",
    description:
      "Each KPI is measured over the airline's cases opened between `from` and `to` (inclusive; at most " +
      `${MAX_WINDOW_DAYS} days), from what the platform recorded while handling them. A KPI with nothing to ` +
      "measure answers `value: null` and says why in `reason`; it never answers a made-up figure. A `kpi` outside " +
      "the catalog, a missing or malformed `from`/`to`, or `from` after `to` is a 400 problem.\n\n" +
      `The certified catalog:\n${catalogDescription}`,
    tags: ["Partner metrics"],
    access: { kind: "partner", scope: "metrics.read" },
    query: {
      type: "object",
      required: ["kpi", "from", "to"],
      properties: {
        kpi: { type: "string", enum: KPI_IDS, description: "A KPI of the certified catalog" },
        from: { ...timestampSchema, description: "Cases opened at or after" },
        to: { ...timestampSchema, description: "Cases opened at or before" },
      },
    },
    responses: {
      200: { description: "The KPI's value for the window", schema: measurementSchema },
      400: { description: "Unknown KPI, or a missing, malformed, reversed or too long window" },
    },
    handler: async ({ principal, query }) => ({
      status: 200,
      body: await metrics.measure(principal, query.kpi, query.from, query.to),
    }),
  });
}
