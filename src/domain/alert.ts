/**
 * What pages someone, and whom, from the events that call for it:
 * - an SLA breach of a manual-review item pages on-call via the tenant alerting channel (spec 3.5);
 * - the wallet issuer refusing the tenant's credentials alerts operations (spec 7);
 * - the daily wallet reconciliation finding a card's balance or status drifted alerts operations
 *   (spec 6.3; a backfilled transaction alone does not);
 * - a PNR-login hard limit alerts the partner contact (spec 8.1);
 * - a webhook subscription paused after its 7th failed attempt notifies the partner contact (spec 6.1).
 * Pure: the alerting use case resolves the recipients' addresses and sends.
 */
import type { EventOf } from "./events/catalogue.js";

export const ALERTING_EVENT_TYPES = [
  "review-item.sla-breached",
  "wallet.issuance-paused",
  "wallet.card-reconciled",
  "passenger.login-locked",
  "webhook.subscription-paused",
] as const;

export type AlertingEventType = (typeof ALERTING_EVENT_TYPES)[number];

/**
 * Who is told: the tenant's on-call, the contacts of every partner registration of the tenant
 * (a locked PNR may be any of their passengers'), or one registration's contact.
 */
export type AlertRecipient =
  | { kind: "on-call" }
  | { kind: "partners" }
  | { kind: "partner"; clientId: string };

export interface Alert {
  /** `urn:alert:<id>`, one per event that raised it: receivers dedupe by it. */
  urn: string;
  tenant: string;
  /** The event type that raised it. */
  kind: AlertingEventType;
  recipient: AlertRecipient;
  subject: string;
  text: string;
  /** The entity it is about (review item, partner), for the audit trail. */
  entityUrn: string | null;
  caseUrn: string | null;
  correlationUrn: string;
  raisedAt: string;
  /** The raising event's facts, as the webhook body carries them. */
  data: object;
}

/** The alert an event raises, if any; the same event always gives the same alert. */
export function alertOf(event: EventOf<AlertingEventType>): Alert | undefined {
  const common = {
    urn: `urn:alert:${event.id.replace(/^urn:event:/, "")}`,
    tenant: event.tenant,
    kind: event.type,
    caseUrn: event.caseUrn ?? null,
    correlationUrn: event.correlationUrn,
    raisedAt: event.occurredAt,
  };
  switch (event.type) {
    case "review-item.sla-breached": {
      const d = event.data;
      return {
        ...common,
        caseUrn: d.caseUrn,
        recipient: { kind: "on-call" },
        entityUrn: d.urn,
        subject: `SLA breached: ${d.category} review item at ${d.airport}, now ${d.priority}`,
        text:
          `The ${d.category} review item ${d.urn} of case ${d.caseUrn} at ${d.airport} waited past its ` +
          `${d.previousPriority} SLA (breached at ${d.breachedAt}); its priority is now ${d.priority}` +
          `${d.assignedTo ? `, assigned to ${d.assignedTo}` : ", unassigned"}.` +
          `${d.slaDueAt ? ` It pages again at ${d.slaDueAt} if still open.` : ""}`,
        data: {
          reviewItemUrn: d.urn,
          caseUrn: d.caseUrn,
          category: d.category,
          airport: d.airport,
          previousPriority: d.previousPriority,
          priority: d.priority,
          assignedTo: d.assignedTo,
          breachedAt: d.breachedAt,
          slaDueAt: d.slaDueAt,
        },
      };
    }
    case "wallet.issuance-paused": {
      const d = event.data;
      return {
        ...common,
        recipient: { kind: "on-call" },
        entityUrn: null,
        subject: `Wallet card issuance paused: the issuer answered ${d.vendorErrorCode}`,
        text:
          `The wallet issuer ${d.vendor} refused the airline's credentials (${d.vendorErrorCode}) while ` +
          `issuing the card of group ${d.groupId} of case ${d.caseUrn}. Card issuance is paused for the ` +
          "airline until its credentials are mended and issuance is resumed; nothing is retried.",
        data: {
          vendor: d.vendor,
          vendorErrorCode: d.vendorErrorCode,
          caseUrn: d.caseUrn,
          groupId: d.groupId,
        },
      };
    }
    case "wallet.card-reconciled": {
      const d = event.data;
      const drift = d.corrections.filter((c) => c.kind !== "missing-transaction");
      if (drift.length === 0) return undefined;
      const described = drift.map((c) =>
        c.kind === "balance"
          ? `${c.field} was ${c.local}, the issuer says ${c.issuer}`
          : `status was ${c.local}, the issuer says ${c.issuer}`,
      );
      return {
        ...common,
        caseUrn: d.caseUrn,
        recipient: { kind: "on-call" },
        entityUrn: d.cardUrn,
        subject: `Wallet card drift corrected from the issuer: ${d.cardUrn}`,
        text:
          `The daily reconciliation found the wallet card ${d.cardUrn} of group ${d.groupId} of case ` +
          `${d.caseUrn} out of step with the issuer and corrected it from the issuer: ${described.join("; ")}.`,
        data: { cardUrn: d.cardUrn, caseUrn: d.caseUrn, groupId: d.groupId, corrections: drift },
      };
    }
    case "passenger.login-locked": {
      const d = event.data;
      return {
        ...common,
        recipient: { kind: "partners" },
        entityUrn: null,
        subject: `PNR login locked: booking ${d.pnr}`,
        text:
          `Booking ${d.pnr} reached its limit of ${d.attempts} login attempts in 24 hours (the last from ` +
          `${d.ip}). Logins to it are refused until ${d.lockedUntil}.`,
        data: { pnr: d.pnr, ip: d.ip, attempts: d.attempts, lockedUntil: d.lockedUntil },
      };
    }
    case "webhook.subscription-paused": {
      const d = event.data;
      return {
        ...common,
        recipient: { kind: "partner", clientId: d.clientId },
        entityUrn: d.partnerUrn,
        subject: "Webhook subscription paused after 7 failed attempts",
        text:
          `Deliveries of event ${d.eventUrn} to ${d.url} failed 7 times, so the webhook subscription of ` +
          `${d.clientId} is paused; events are held meanwhile. A successful POST /partner/v1/webhooks/test ` +
          "re-enables it and delivers what was held.",
        data: { clientId: d.clientId, url: d.url, eventUrn: d.eventUrn },
      };
    }
  }
}
