import { REVIEW_PRIORITY_OF, type ReviewCategory, type ReviewPriority } from "./case.js";
import { DomainError } from "./domain-error.js";
import { uuidFromParts } from "./uuid.js";

/**
 * A manual-review item (spec 2.5, 3.5) and the rules of its queue: who may work it, how it moves,
 * how its SLA raises its priority. Pure: the ReviewItemActor applies these one turn at a time.
 *
 * States. The spec names OPEN only; the others are ours:
 * - OPEN: in the queue, nobody works it;
 * - ASSIGNED: one operator works it (claimed, or assigned by a supervisor); nobody else may act;
 * - ESCALATED: handed up (priority raised one level, assignee released for a supervisor to pick it
 *   up); it stays ESCALATED when someone then takes it, so the queue keeps showing it was escalated;
 * - RESOLVED: closed with a resolution and a reason; nothing moves it any more.
 */
export const REVIEW_ITEM_STATES = ["OPEN", "ASSIGNED", "ESCALATED", "RESOLVED"] as const;
export type ReviewItemState = (typeof REVIEW_ITEM_STATES)[number];

export const REVIEW_PRIORITIES = ["HIGH", "MEDIUM", "LOW"] as const;

/** Sorting key of a priority: the queue lists HIGH first. */
export function priorityRank(priority: ReviewPriority): number {
  return REVIEW_PRIORITIES.indexOf(priority);
}

/** One level up; HIGH stays HIGH. */
export function raisedPriority(priority: ReviewPriority): ReviewPriority {
  return REVIEW_PRIORITIES[Math.max(0, priorityRank(priority) - 1)]!;
}

export function priorityOf(category: ReviewCategory): ReviewPriority {
  return REVIEW_PRIORITY_OF[category];
}

/**
 * A review item's URN derived from what it is about (`uuidFromParts`), so raising or requesting
 * the same thing again lands on the same item. Items are stored under these URNs, so neither the
 * form nor the parts a caller passes may change: a case passes its URN, the category, the sorted
 * groups and the occurrence (or ""); booking passes "review-item", the case URN and the cause; a
 * `review-item.requested` event passes its type and id.
 */
export function reviewItemUrnFor(...keyParts: readonly string[]): string {
  return uuidFromParts("urn:review-item:", ...keyParts);
}

/**
 * How long an item may wait at each priority before its SLA is breached. The spec gives no figures;
 * these follow the categories' urgency: a HIGH item strands passengers tonight.
 */
export const SLA_MS: Record<ReviewPriority, number> = {
  HIGH: 15 * 60_000,
  MEDIUM: 60 * 60_000,
  LOW: 4 * 60 * 60_000,
};

export interface AttemptedHotel {
  hotelUrn: string;
  /** e.g. hotel-full, payment-refused, rebook-failed. */
  reason: string;
  /** The vendor's own error code, when a vendor refused. */
  providerError?: string;
}

/** What the exception agent proposes (spec 2.5 recommendations); a human decides. */
export type Recommendation =
  | { action: "rebook"; hotelUrn: string; reason: string; source: "agent" }
  | { action: "relaxPolicy"; fields: Record<string, unknown>; reason: string; source: "agent" };

export type RebookingGroupStatus = "REQUESTED" | "BOOKED" | "FAILED";

/** A rebook or override in flight: booking answers per group. */
export interface Rebooking {
  kind: "rebook" | "override";
  hotelUrn: string;
  providerOfferId: string | null;
  requestedBy: string;
  reason: string;
  requestedAt: string;
  groups: {
    groupId: string;
    status: RebookingGroupStatus;
    reservationUrn?: string;
    vendorErrorCode?: string;
  }[];
}

export interface Resolution {
  resolution: string;
  reason: string;
  by: string;
  at: string;
}

/** A per-case relaxation of the policy, as recorded on the item that asked for it. */
export interface Relaxation {
  fields: Record<string, unknown>;
  reason: string;
  by: string;
  at: string;
}

export interface ReviewItem {
  urn: string;
  caseUrn: string;
  tenant: string;
  /** The case's airport (its flight origin): airport-scoped operators act on their airport only. */
  airport: string;
  category: ReviewCategory;
  priority: ReviewPriority;
  attemptedHotels: AttemptedHotel[];
  affectedGroups: string[];
  recommendations: Recommendation[];
  state: ReviewItemState;
  /** User (or service-token) URN of whoever works the item. */
  assignedTo: string | null;
  reason: string;
  /**
   * Who raised it: the case lifecycle (group and policy problems), booking and allocation, or a
   * passenger (a problem reported from the passenger API).
   */
  raisedBy: "case" | "booking" | "passenger" | "wallet";
  demandUrn: string | null;
  createdAt: string;
  updatedAt: string;
  /** When the SLA at the current priority runs out; null once resolved. */
  slaDueAt: string | null;
  /** Affected groups that have a confirmed reservation since the item was raised. */
  bookedGroups: string[];
  rebooking: Rebooking | null;
  relaxations: Relaxation[];
  resolution: Resolution | null;
  /** Bumped by every change. */
  version: number;
}

export interface NewReviewItem {
  urn: string;
  caseUrn: string;
  tenant: string;
  airport: string;
  category: ReviewCategory;
  /** Defaults to the category's (spec 2.5 table). */
  priority?: ReviewPriority;
  attemptedHotels?: AttemptedHotel[];
  affectedGroups: string[];
  recommendations?: Recommendation[];
  reason: string;
  raisedBy: ReviewItem["raisedBy"];
  demandUrn?: string | null;
  /** When the problem was raised; the SLA runs from here. */
  raisedAt: string;
}

export function openReviewItem(input: NewReviewItem, now: Date): ReviewItem {
  const priority = input.priority ?? priorityOf(input.category);
  return {
    urn: input.urn,
    caseUrn: input.caseUrn,
    tenant: input.tenant,
    airport: input.airport,
    category: input.category,
    priority,
    attemptedHotels: input.attemptedHotels ?? [],
    affectedGroups: [...new Set(input.affectedGroups)],
    recommendations: input.recommendations ?? [],
    state: "OPEN",
    assignedTo: null,
    reason: input.reason,
    raisedBy: input.raisedBy,
    demandUrn: input.demandUrn ?? null,
    createdAt: input.raisedAt,
    updatedAt: now.toISOString(),
    slaDueAt: new Date(Date.parse(input.raisedAt) + SLA_MS[priority]).toISOString(),
    bookedGroups: [],
    rebooking: null,
    relaxations: [],
    resolution: null,
    version: 1,
  };
}

/** Who acts on an item, and whether they may take it from another operator. */
export interface Acting {
  by: string;
  /** OPS_SUPERVISOR and above take over an item someone else holds; operators cannot. */
  mayTakeOver: boolean;
}

export function assertUnresolved(item: ReviewItem): void {
  if (item.state === "RESOLVED") {
    throw new DomainError("conflict", "review-item-resolved", `Review item ${item.urn} is already resolved`, {
      resolution: item.resolution?.resolution ?? null,
    });
  }
}

/** Spec 3.5: one operator at a time. The 409 names who holds the item. */
function heldByAnother(item: ReviewItem): DomainError {
  return new DomainError(
    "conflict",
    "review-item-assigned",
    `Review item ${item.urn} is assigned to ${item.assignedTo}`,
    { assignedTo: item.assignedTo },
  );
}

function assignedState(item: ReviewItem): ReviewItemState {
  return item.state === "ESCALATED" ? "ESCALATED" : "ASSIGNED";
}

function touched(item: ReviewItem, now: Date, changes: Partial<ReviewItem>): ReviewItem {
  return { ...item, ...changes, updatedAt: now.toISOString(), version: item.version + 1 };
}

/** Claim: the caller works the item. Claiming one's own item again changes nothing. */
export function claim(item: ReviewItem, by: string, now: Date): ReviewItem {
  assertUnresolved(item);
  if (item.assignedTo === by) return item;
  if (item.assignedTo !== null) throw heldByAnother(item);
  return touched(item, now, { assignedTo: by, state: assignedState(item) });
}

/** A supervisor hands the item to someone (or takes it), whoever held it. */
export function assign(item: ReviewItem, assignee: string, now: Date): ReviewItem {
  assertUnresolved(item);
  if (item.assignedTo === assignee) return item;
  return touched(item, now, { assignedTo: assignee, state: assignedState(item) });
}

/**
 * Before an action (rebook, relax, split, override, resolve): the caller must hold the item; an
 * item nobody holds is claimed by acting on it, and a supervisor takes it over from its holder.
 */
export function takeForAction(item: ReviewItem, acting: Acting, now: Date): ReviewItem {
  assertUnresolved(item);
  if (item.assignedTo === acting.by) return item;
  if (item.assignedTo !== null && !acting.mayTakeOver) throw heldByAnother(item);
  return touched(item, now, { assignedTo: acting.by, state: assignedState(item) });
}

/** Handed up: priority one level higher, a fresh SLA at it, and the assignee released. */
export function escalate(item: ReviewItem, now: Date): ReviewItem {
  assertUnresolved(item);
  const priority = raisedPriority(item.priority);
  return touched(item, now, {
    state: "ESCALATED",
    priority,
    assignedTo: null,
    slaDueAt: new Date(now.getTime() + SLA_MS[priority]).toISOString(),
  });
}

/**
 * The SLA ran out (spec 3.5): priority one level up and a new SLA window at that priority, so an
 * item still waiting pages again. A resolved item has no SLA.
 */
export function breachSla(item: ReviewItem, now: Date): ReviewItem | undefined {
  if (item.state === "RESOLVED") return undefined;
  const priority = raisedPriority(item.priority);
  return touched(item, now, {
    priority,
    slaDueAt: new Date(now.getTime() + SLA_MS[priority]).toISOString(),
  });
}

export function resolve(
  item: ReviewItem,
  resolution: { resolution: string; reason: string; by: string },
  now: Date,
): ReviewItem {
  assertUnresolved(item);
  return touched(item, now, {
    state: "RESOLVED",
    slaDueAt: null,
    resolution: { ...resolution, reason: resolution.reason.trim(), at: now.toISOString() },
  });
}

/** The affected groups that still need a room. */
export function groupsToBook(item: ReviewItem): string[] {
  return item.affectedGroups.filter((group) => !item.bookedGroups.includes(group));
}

/**
 * Rebook or override: ask booking for every affected group still without a room, on one hotel
 * (and, for an override, one offer). One request at a time: the next waits for booking's answers.
 */
export function requestRebooking(
  item: ReviewItem,
  request: Omit<Rebooking, "groups" | "requestedAt">,
  now: Date,
): ReviewItem {
  assertUnresolved(item);
  if (item.rebooking?.groups.some((g) => g.status === "REQUESTED")) {
    throw new DomainError(
      "conflict",
      "rebooking-in-progress",
      `Review item ${item.urn} is waiting for booking to answer its last request`,
      { hotelUrn: item.rebooking.hotelUrn },
    );
  }
  const groups = groupsToBook(item);
  if (groups.length === 0) {
    throw new DomainError(
      "conflict",
      "nothing-to-rebook",
      `Every group of review item ${item.urn} is booked`,
    );
  }
  return touched(item, now, {
    rebooking: {
      ...request,
      reason: request.reason.trim(),
      requestedAt: now.toISOString(),
      groups: groups.map((groupId) => ({ groupId, status: "REQUESTED" })),
    },
  });
}

export interface BookingAnswer {
  groupId: string;
  booked: boolean;
  reservationUrn?: string;
  vendorErrorCode?: string;
}

/**
 * Booking answered for one group of the pending request. An answer for a group not waiting (a
 * redelivery, or a stale request) changes nothing. A refusal joins attemptedHotels.
 */
export function recordBookingAnswer(item: ReviewItem, answer: BookingAnswer, now: Date): ReviewItem {
  const pending = item.rebooking?.groups.find(
    (g) => g.groupId === answer.groupId && g.status === "REQUESTED",
  );
  if (!item.rebooking || !pending || item.state === "RESOLVED") return item;
  const groups = item.rebooking.groups.map((g) =>
    g === pending
      ? {
          groupId: g.groupId,
          status: answer.booked ? ("BOOKED" as const) : ("FAILED" as const),
          ...(answer.reservationUrn ? { reservationUrn: answer.reservationUrn } : {}),
          ...(answer.vendorErrorCode ? { vendorErrorCode: answer.vendorErrorCode } : {}),
        }
      : g,
  );
  const refusal: AttemptedHotel[] = answer.booked
    ? []
    : [
        {
          hotelUrn: item.rebooking.hotelUrn,
          reason: "rebook-failed",
          ...(answer.vendorErrorCode ? { providerError: answer.vendorErrorCode } : {}),
        },
      ];
  return touched(item, now, {
    rebooking: { ...item.rebooking, groups },
    bookedGroups: answer.booked ? [...item.bookedGroups, answer.groupId] : item.bookedGroups,
    attemptedHotels: [...item.attemptedHotels, ...refusal],
  });
}

/** Resolution given when every affected group got a room through the item's rebook or override. */
export const REBOOKED = "REBOOKED";

export function everyGroupBooked(item: ReviewItem): boolean {
  return item.affectedGroups.length > 0 && groupsToBook(item).length === 0;
}

/** A group of the item was split: its parts take its place among the affected groups. */
export function replaceSplitGroup(item: ReviewItem, groupId: string, parts: string[], now: Date): ReviewItem {
  assertUnresolved(item);
  const affectedGroups = item.affectedGroups.flatMap((g) => (g === groupId ? parts : [g]));
  return touched(item, now, { affectedGroups: [...new Set(affectedGroups)] });
}

export function recordRelaxation(
  item: ReviewItem,
  relaxation: Omit<Relaxation, "at">,
  now: Date,
): ReviewItem {
  assertUnresolved(item);
  return touched(item, now, {
    relaxations: [
      ...item.relaxations,
      { ...relaxation, reason: relaxation.reason.trim(), at: now.toISOString() },
    ],
  });
}

export function withRecommendations(
  item: ReviewItem,
  recommendations: Recommendation[],
  now: Date,
): ReviewItem {
  if (item.state === "RESOLVED") return item;
  if (JSON.stringify(item.recommendations) === JSON.stringify(recommendations)) return item;
  return touched(item, now, { recommendations });
}
