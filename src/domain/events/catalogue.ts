import { type DomainEvent, type NewDomainEvent, TENANT_EVENTS_TOPIC, topicFor } from "../domain-event.js";
import type { AgentActionEventDataByType } from "./agent-action.js";
import type { AllocationEventDataByType } from "./allocation.js";
import type { BookingEventDataByType } from "./booking.js";
import type { CaseEventDataByType } from "./case.js";
import type { DemandEventDataByType } from "./demand.js";
import type { DisruptionEventDataByType } from "./disruption.js";
import type { NotificationEventDataByType } from "./notification.js";
import type { OperatorEventDataByType } from "./operator.js";
import type { PassengerEventDataByType } from "./passenger.js";
import type { ReviewItemEventDataByType } from "./review-item.js";
import type { CaseResolutionEventDataByType, SubCaseEventDataByType } from "./sub-case.js";
import type { WalletEventDataByType } from "./wallet.js";
import type { WebhookEventDataByType } from "./webhook.js";
import type { TransportEventDataByType } from "./transport.js";

/**
 * The data every event type of the product carries. Emitting (`ActorContext.emit`,
 * `publishEvent`) and subscribing (`eventSubscription`) take only these types, so an event type
 * that is not listed here fails the typecheck.
 */
export interface EventDataByType
  extends CaseEventDataByType,
    SubCaseEventDataByType,
    CaseResolutionEventDataByType,
    ReviewItemEventDataByType,
    AgentActionEventDataByType,
    DemandEventDataByType,
    AllocationEventDataByType,
    BookingEventDataByType,
    PassengerEventDataByType,
    OperatorEventDataByType,
    NotificationEventDataByType,
    DisruptionEventDataByType,
    WalletEventDataByType,
    WebhookEventDataByType,
    TransportEventDataByType {}

export type EventType = keyof EventDataByType;

/** One event of the listed type(s): for a union of types, the union of their events. */
export type EventOf<T extends EventType = EventType> = {
  [K in T]: DomainEvent<EventDataByType[K]> & { type: K };
}[T];

/** What an emitter hands over for an event of type `T`; the runtime stamps `id` and `occurredAt`. */
export type NewEventOf<T extends EventType> = NewDomainEvent<EventDataByType[T]> & { type: T };

/** Partner scopes that receive events by webhook (spec 5.3, 6.1). */
export type PartnerEventScope =
  | "cases.events.subscribe"
  | "disruptions.events.subscribe"
  | "vouchers.read"
  | "wallet.events.subscribe";

export interface EventDefinition {
  /** The topic family; the topic itself is the family followed by the tenant (`topicFor`). */
  topic: typeof TENANT_EVENTS_TOPIC;
  /** The scopes with which a partner may receive the event by webhook (spec 6.1); none: internal. */
  partnerScopes: readonly PartnerEventScope[];
}

// `as const` keeps each entry's scopes in its type, so the partners' event types can be derived.
const internal = { topic: TENANT_EVENTS_TOPIC, partnerScopes: [] } as const satisfies EventDefinition;
const forCasePartners = {
  topic: TENANT_EVENTS_TOPIC,
  partnerScopes: ["cases.events.subscribe"],
} as const satisfies EventDefinition;

/** The catalogue: every event type with its topic and who outside the product may receive it. */
export const EVENT_CATALOGUE = {
  // The case (CaseActor, spec 3.3)
  "case.opened": {
    topic: TENANT_EVENTS_TOPIC,
    // Spec 6.1 names cases.events.subscribe; its partner scope table also lists this event under disruptions.
    partnerScopes: ["cases.events.subscribe", "disruptions.events.subscribe"],
  },
  "case.amended": forCasePartners,
  "case.closed": internal,
  "case.reopened": internal,
  "case.manual-review": internal,
  "case.returned-to-flow": internal,
  "case.reservation-recorded": internal,
  "case.reaccommodated": internal,
  "case.priority-raised": internal,

  // Sub-cases (SubCaseActor and the sub-case state machine, spec 3.4)
  "subcase.opened": internal,
  "subcase.locked": internal,
  "subcase.unlocked": internal,
  "subcase.lock-expired": internal,
  "subcase.retired": internal,
  "subcase.case-closed": internal,
  "subcase.case-reopened": internal,
  "subcase.processing": forCasePartners,
  "subcase.offer-ready": forCasePartners,
  "subcase.resolved": forCasePartners,
  "subcase.declined": forCasePartners,
  "subcase.failed": forCasePartners,
  "subcase.compensation-failed": forCasePartners,
  "case.resolved": forCasePartners,

  // Manual review (ReviewItemActor; requests from allocation, booking and the case)
  "review-item.created": internal,
  "review-item.assigned": internal,
  "review-item.escalated": internal,
  "review-item.resolved": internal,
  "review-item.sla-breached": internal,
  "review-item.updated": internal,
  "review-item.requested": internal,
  "review-item.raised": internal,

  // Exception agent (AgentActionActor: proposals, approvals, executions)
  "agent-action.proposed": internal,
  "agent-action.approved": internal,
  "agent-action.rejected": internal,
  "agent-action.executed": internal,
  "agent-action.failed": internal,

  // Demand (DemandActor, spec 3.1)
  "demand.requested": internal,
  "demand.approved": internal,
  "demand.rejected": internal,
  "demand.fulfilled": internal,
  "demand.partial": internal,

  // Allocation (WaveActor, AllocationScheduleActor, ReviewItemActor's relaxation, wave progress)
  "allocation.wave-completed": internal,
  "allocation.group-overridden": internal,
  "allocation.batch-due": internal,
  "allocation.rerun-requested": internal,
  "graph.step.started": internal,
  "graph.step.progress": internal,
  "graph.step.completed": internal,

  // Booking (BookingActor, ReconciliationActor, ReviewItemActor's rebooking)
  "booking.group-requested": internal,
  "booking.wave-requested": internal,
  "booking.wave-settled": internal,
  "booking.group-booked": internal,
  "booking.group-failed": internal,
  "booking.reconciliation-due": internal,
  "booking.orphan-cancelled": internal,
  "reservation.confirmed": internal,
  "reservation.cancelled": internal,
  "reservation.checked-in": internal,
  "voucher.issued": { topic: TENANT_EVENTS_TOPIC, partnerScopes: ["vouchers.read"] },
  // Spec 6.1 lists it as "also emitted" without a scope; it changes what voucher.issued told, so
  // it goes to the same readers.
  "voucher.amended": { topic: TENANT_EVENTS_TOPIC, partnerScopes: ["vouchers.read"] },

  // Sessions: PNR login limits (spec 8.1), operator logout across replicas (spec 5.1)
  "passenger.login-locked": internal,
  "operator.logged-out": internal,

  // Notifications (spec 6.2)
  "notification.dispatched": internal,

  // The flight predictor (spec 6.1)
  "disruption.detected": { topic: TENANT_EVENTS_TOPIC, partnerScopes: ["disruptions.events.subscribe"] },

  // Wallet cards (spec 2.7, 6.1; wallet.card-cancelled is "also emitted", for the same readers)
  "wallet.card-issued": { topic: TENANT_EVENTS_TOPIC, partnerScopes: ["wallet.events.subscribe"] },
  "wallet.card-tx": { topic: TENANT_EVENTS_TOPIC, partnerScopes: ["wallet.events.subscribe"] },
  "wallet.card-cancelled": { topic: TENANT_EVENTS_TOPIC, partnerScopes: ["wallet.events.subscribe"] },
  // The card's own bookkeeping (WalletCardActor, WalletReconciliationActor, issuance)
  "wallet.card-loaded": internal,
  "wallet.card-reconciled": internal,
  "wallet.drop-due": internal,
  "wallet.reconciliation-due": internal,
  "wallet.issuance-paused": internal,

  // Webhook retries (spec 6.1)
  "webhook.delivery-due": internal,
  "webhook.subscription-paused": internal,

  // Ground transport (TransportSegmentActor, src/domain/transport/)
  "transport.segment-requested": internal,
  "transport.segment-booked": internal,
  "transport.segment-declined": internal,
  "transport.segment-provider-failed": internal,
  "transport.segment-amended": internal,
  "transport.segment-cancelled": internal,
  "transport.segment-completed": internal,
  "transport.eta-updated": internal,
  "transport.return-leg-due": internal,
} as const satisfies Record<EventType, EventDefinition>;

/** Every event type, in catalogue order. */
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/** The topic events of `type` travel on for `tenant`. */
export function eventTopic(type: EventType, tenant: string): string {
  return topicFor({ tenant }, EVENT_CATALOGUE[type].topic);
}
