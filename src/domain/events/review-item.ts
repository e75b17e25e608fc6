import type { ReviewCategory, ReviewItemDraft, ReviewPriority } from "../case.js";
import type { AttemptedHotel, ReviewItem, ReviewItemState } from "../review-item.js";

/** The events a review item emits; the queue's projection follows all of them. */
export const REVIEW_ITEM_EVENT = {
  created: "review-item.created",
  assigned: "review-item.assigned",
  escalated: "review-item.escalated",
  resolved: "review-item.resolved",
  slaBreached: "review-item.sla-breached",
  updated: "review-item.updated",
} as const;

/** What every event of a review item carries: the item's state and version after the change. */
export interface ReviewItemEventData {
  urn: string;
  caseUrn: string;
  state: ReviewItemState;
  version: number;
}

export interface ReviewItemCreatedData extends ReviewItemEventData {
  item: ReviewItem;
}

export interface ReviewItemAssignedData extends ReviewItemEventData {
  assignedTo: string | null;
  previousAssignee: string | null;
  by: string;
}

export interface ReviewItemEscalatedData extends ReviewItemEventData {
  priority: ReviewPriority;
  previousPriority: ReviewPriority;
  previousAssignee: string | null;
  reason: string;
  by: string;
}

export interface ReviewItemResolvedData extends ReviewItemEventData {
  /** An operator's resolve, or booking's last answer to a rebooking. */
  via: "operator" | "booking";
  category: ReviewCategory;
  resolution: string;
  reason: string;
  by: string;
}

export interface ReviewItemSlaBreachedData extends ReviewItemEventData {
  category: ReviewCategory;
  airport: string;
  priority: ReviewPriority;
  previousPriority: ReviewPriority;
  assignedTo: string | null;
  breachedAt: string;
  slaDueAt: string | null;
}

export interface ReviewItemUpdatedData extends ReviewItemEventData {
  /** What changed, e.g. `rebook-requested`, `relaxed`. */
  change: string;
}

/**
 * `review-item.requested`: what allocation (ALLOCATION_FAILED) and booking publish when automation
 * gives up; the manual-review queue creates the item.
 */
export interface ReviewItemRequestedData {
  /**
   * The item's URN, when the publisher must name it before the item exists (the demand a PARTIAL
   * outcome records points at it); otherwise the queue derives it from the event id.
   */
  reviewItemUrn?: string;
  caseUrn: string;
  category:
    | "ALLOCATION_FAILED"
    | "BOOKING_FAILED"
    | "PARTIAL_FULFILLMENT"
    | "PAYMENT_FAILED"
    | "MANUAL_RECONCILIATION";
  attemptedHotels: AttemptedHotel[];
  affectedGroups: string[];
  reason: string;
  demandUrn?: string;
  waveUrn?: string;
}

/** `review-item.raised`: a problem the case found in its own manifest, for the manual-review queue. */
export interface ReviewItemRaisedData extends ReviewItemDraft {
  caseUrn: string;
  airport: string;
  urn: string;
  raisedAt: string;
}

export interface ReviewItemEventDataByType {
  "review-item.created": ReviewItemCreatedData;
  "review-item.assigned": ReviewItemAssignedData;
  "review-item.escalated": ReviewItemEscalatedData;
  "review-item.resolved": ReviewItemResolvedData;
  "review-item.sla-breached": ReviewItemSlaBreachedData;
  "review-item.updated": ReviewItemUpdatedData;
  "review-item.requested": ReviewItemRequestedData;
  "review-item.raised": ReviewItemRaisedData;
}

export type ReviewItemEventType = (typeof REVIEW_ITEM_EVENT)[keyof typeof REVIEW_ITEM_EVENT];

/** What an item's event adds to the fields every event of an item carries. */
export type ReviewItemEventDetails<T extends ReviewItemEventType> = Omit<
  ReviewItemEventDataByType[T],
  keyof ReviewItemEventData
>;
