import type { DeepReadonly } from "./deep-readonly.js";
import { DomainError } from "./domain-error.js";
import { uuidFromParts } from "./uuid.js";

/**
 * The case: the unit of work opened for one disruption (spec 2.1, 3.3). This file holds the
 * record shape and the pure rules; CaseActor applies them one turn at a time.
 */
export type CaseStatus = "OPEN" | "MANUAL_REVIEW" | "CLOSED";

export interface Flight {
  number: string;
  origin: string;
  destination: string;
  scheduledDeparture: string;
  status?: string;
}

export interface NextFlight {
  number: string;
  scheduledDeparture: string;
}

export interface Passenger {
  id: string;
  firstName?: string;
  lastName: string;
  tier?: string;
  cabinClass?: string;
  loyaltyTier?: string;
  contact?: { email?: string; phone?: string; language?: string };
  /** Needs on the ground (spec 2.8 specialRequirements), e.g. WCHR for a wheelchair. */
  specialRequirements?: string[];
}

export interface PassengerGroup {
  id: string;
  pnr?: string;
  passengers: Passenger[];
  /** Set when an operator split or merged groups, so the case shows where a group came from. */
  origin?: PassengerGroupOrigin;
}

export interface PassengerGroupOrigin {
  kind: "split" | "merge";
  /** The group ids this group was made from. */
  from: string[];
  reason: string;
}

export interface OpenCaseCommand {
  tenant: string;
  externalEventId: string;
  flight: Flight;
  nextFlight?: NextFlight;
  passengerGroups: PassengerGroup[];
  /** Who declared it: a user, service token or partner URN. */
  openedBy: string;
  correlationUrn: string;
  /** A drill (spec 4.2 "Run a drill"): automation runs, but nothing reaches passengers or partners. */
  drill?: boolean;
}

export interface CaseRecord {
  urn: string;
  tenant: string;
  externalEventId: string;
  status: CaseStatus;
  flight: Flight;
  nextFlight?: NextFlight;
  passengerGroups: PassengerGroup[];
  openedBy: string;
  openedAt: string;
  updatedAt: string;
  version: number;
  /** The last status change made by a person or a rule, with its reason (spec 3.3). */
  statusChange?: CaseStatusChange;
  /** Absent until a partner asks to raise it: NORMAL (src/domain/case-priority.ts). */
  priority?: CasePriority;
  /** The request that last raised the priority. */
  priorityRequest?: CasePriorityRequest;
  /**
   * Set at intake for a drill (spec 4.2 "Run a drill or shadow case"): no passenger is notified, no
   * partner webhook is delivered, metrics leave the case out, and every read shows it.
   */
  drill?: true;
}

/**
 * A case's priority as operators see it (spec 4.3 priority-request; the spec names no levels, these
 * are ours): a case opens NORMAL and a partner's request raises it (src/domain/case-priority.ts).
 */
export const CASE_PRIORITIES = ["NORMAL", "HIGH", "URGENT"] as const;
export type CasePriority = (typeof CASE_PRIORITIES)[number];

/** The request that last raised a case's priority: who asked, why, when, and the move. */
export interface CasePriorityRequest {
  /** The partner URN that asked. */
  by: string;
  reason: string;
  at: string;
  from: CasePriority;
  to: CasePriority;
}

export interface CaseStatusChange {
  from: CaseStatus;
  to: CaseStatus;
  reason: string;
  /** User URN, or a system URN for automatic moves. */
  by: string;
  at: string;
}

/** What a change did, for the audit entry the caller writes (spec 3.3: actor and reason). */
export interface RecordedChange {
  action: string;
  by: string;
  reason?: string;
  before: unknown;
  after: unknown;
}

/** Manual-review categories and their priorities (spec 2.5). */
export const REVIEW_PRIORITY_OF = {
  ALLOCATION_FAILED: "HIGH",
  BOOKING_FAILED: "HIGH",
  PAYMENT_FAILED: "MEDIUM",
  PARTIAL_FULFILLMENT: "MEDIUM",
  POLICY_VIOLATION: "LOW",
  MIXED_TIER_GROUP: "LOW",
  DATA_INCOMPLETE: "LOW",
  /** A passenger reported a problem from the passenger API (spec 4.4 `POST /v1/me/problem`). */
  PASSENGER_REPORTED: "MEDIUM",
  /**
   * The wallet issuer refused a card: the tenant's funding pool is exhausted (spec 7). The operator
   * drops the saga's wallet leg (resolve with WALLET_LEG_DROPPED: the group goes without a card) or
   * escalates to have the pool refunded.
   */
  WALLET_FUNDING_EXHAUSTED: "HIGH",
  /**
   * Spec 7 "manual reconciliation": a vendor holds a room the platform no longer wants and will not
   * cancel it for free: an orphan room no reservation records (src/domain/booking/orphan-room.ts),
   * or a declined group's stay whose cancellation the vendor refused (COMPENSATION_FAILED, spec
   * 3.4). The operator settles it with the vendor and resolves the item; nobody is to be rebooked.
   */
  MANUAL_RECONCILIATION: "HIGH",
} as const;

export type ReviewCategory = keyof typeof REVIEW_PRIORITY_OF;
export type ReviewPriority = (typeof REVIEW_PRIORITY_OF)[ReviewCategory];
export const REVIEW_CATEGORIES = Object.keys(REVIEW_PRIORITY_OF) as ReviewCategory[];

export function isReviewCategory(value: unknown): value is ReviewCategory {
  return typeof value === "string" && (REVIEW_CATEGORIES as string[]).includes(value);
}

/** What a domain rule hands over for the manual-review queue; the review item gets its URN there. */
export interface ReviewItemDraft {
  category: ReviewCategory;
  priority: ReviewPriority;
  affectedGroups: string[];
  reason: string;
}

/**
 * Intake is idempotent per tenant on externalEventId, so the case id is derived from both: every
 * replay of the same disruption lands on the same case actor.
 */
export function caseIdFor(tenant: string, externalEventId: string): string {
  return uuidFromParts("", tenant, externalEventId);
}

export function caseUrnFor(tenant: string, externalEventId: string): string {
  return uuidFromParts("urn:case:", tenant, externalEventId);
}

export function caseNotFound(caseId: string): DomainError {
  return new DomainError("not-found", "case-not-found", `No case urn:case:${caseId}`, {
    caseUrn: `urn:case:${caseId}`,
  });
}

export function openCase(command: OpenCaseCommand, now: Date): CaseRecord {
  const at = now.toISOString();
  return {
    urn: caseUrnFor(command.tenant, command.externalEventId),
    tenant: command.tenant,
    externalEventId: command.externalEventId,
    status: "OPEN",
    flight: command.flight,
    ...(command.nextFlight ? { nextFlight: command.nextFlight } : {}),
    passengerGroups: command.passengerGroups,
    openedBy: command.openedBy,
    openedAt: at,
    updatedAt: at,
    version: 1,
    ...(command.drill ? { drill: true as const } : {}),
  };
}

export function passengerCount(record: DeepReadonly<Pick<CaseRecord, "passengerGroups">>): number {
  return record.passengerGroups.reduce((sum, group) => sum + group.passengers.length, 0);
}

/** Every change to a case bumps its version and stamps it. */
export function revised(record: CaseRecord, now: Date): CaseRecord {
  return { ...record, version: record.version + 1, updatedAt: now.toISOString() };
}
