import type { DomainEvent } from "../domain-event.js";
import type { EventOf } from "../events/catalogue.js";
import type { SubCaseEventData } from "../events/sub-case.js";
import type { PartnerEventType } from "./webhook-subscription.js";

/** The headers of a delivery (spec 6.1), exactly these besides Content-Type. */
export const WEBHOOK_HEADERS = {
  userAgent: "User-Agent",
  signature: "X-Svc-Signature",
  timestamp: "X-Svc-Signature-Timestamp",
  eventType: "X-Svc-Event-Type",
  eventUrn: "X-Svc-Event-Urn",
  tenant: "X-Svc-Tenant",
  correlation: "X-Svc-Correlation",
} as const;

/** The webhook agent and its version (spec 6.1's User-Agent). */
export const WEBHOOK_USER_AGENT = "disruption-webhooks/1.0";

/** What `POST /partner/v1/webhooks/test` sends: no data, never a platform event. */
export const WEBHOOK_TEST_EVENT_TYPE = "webhook.test";

/** A delivery's body (spec 6.1); `case_urn` where the event is about a case. */
export interface WebhookBody {
  type: string;
  occurred_at: string;
  tenant: string;
  case_urn?: string;
  correlation_urn: string;
  data: object;
}

/**
 * What a partner receives of each event (the `data` block, documented per type in the README):
 * the facts the event is about and no personal data. Manifests stay out (cases.read reads them),
 * so do the operator holding a sub-case's lock and anything the passenger's voucher does not show
 * (vouchers.read: nothing beyond what the passenger received, so a voucher change names no cost).
 */
export function webhookData(event: EventOf<PartnerEventType>): object {
  switch (event.type) {
    case "case.opened":
      return picked(event.data, [
        "caseUrn",
        "status",
        "version",
        "externalEventId",
        "flight",
        "nextFlight",
        "groupCount",
        "passengerCount",
        "source",
      ]);
    case "case.amended":
      return picked(event.data, [
        "caseUrn",
        "status",
        "version",
        "change",
        "nextFlight",
        "groupCount",
        "passengerCount",
      ]);
    case "subcase.processing":
    case "subcase.offer-ready":
    case "subcase.resolved":
    case "subcase.declined":
    case "subcase.failed":
    case "subcase.compensation-failed":
      return subCaseData(event.data);
    case "case.resolved":
      return event.data;
    case "voucher.issued":
      return picked(event.data, ["voucherUrn", "reservationUrn", "groupId", "passengerUrns"]);
    case "voucher.amended":
      return {
        ...picked(event.data, ["voucherUrn", "reservationUrn", "groupId", "passengerUrns", "version"]),
        changes: event.data.changes.filter((change) => change.field !== "cost"),
      };
    case "wallet.card-cancelled": {
      // Who cancelled it is the operator's business, not the partner's.
      const { by: _by, ...cancelled } = event.data;
      return cancelled;
    }
    case "disruption.detected":
    case "wallet.card-issued":
    case "wallet.card-tx":
      return event.data;
  }
}

/** Only the named members of `data`: what a partner receives is listed, never what it may not see. */
function picked<T extends object, K extends keyof T>(data: T, keys: readonly K[]): Pick<T, K> {
  const kept = {} as Pick<T, K>;
  for (const key of keys) kept[key] = data[key];
  return kept;
}

function subCaseData(view: SubCaseEventData): object {
  return {
    subCaseUrn: view.subCaseUrn,
    caseUrn: view.caseUrn,
    groupId: view.groupId,
    status: view.status,
    version: view.version,
    offer: view.offer,
    answer: view.answer && { kind: view.answer.kind, at: view.answer.at },
    vendorErrorCode: view.vendorErrorCode,
  };
}

export function webhookBody(event: DomainEvent, data: object): WebhookBody {
  return {
    type: event.type,
    occurred_at: event.occurredAt,
    tenant: event.tenant,
    ...(event.caseUrn ? { case_urn: event.caseUrn } : {}),
    correlation_urn: event.correlationUrn,
    data,
  };
}
