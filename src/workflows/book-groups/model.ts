import type { BookingState } from "../../domain/booking/group-booking.js";
import type { DomainErrorShape } from "../../domain/domain-error.js";
import type { WorkflowState } from "../../runtime/workflow-engine.js";

/**
 * The booking of a case's groups (spec 4.1 book-rooms, 3.1 FULFILLED / PARTIAL): load what to
 * book, book each group (claim, vendor, confirm) several at a time per vendor, wait and book again
 * the groups left behind an open circuit, then settle the wave. What to book comes from a wave, an
 * override or a review request; the workflow only carries it from the load step to the book step.
 */
export const BOOK_GROUPS_WORKFLOW = "bookGroups";

export interface BookGroupsInput<Request = unknown> {
  /** What the run books, as the use case that started it names it; only the load step reads it. */
  request: Request;
  /** The wait before groups left behind an open circuit are booked again (the breaker's cool-down). */
  retryInMs: number;
  /** Groups booked at the same time per vendor (see BookingSettings.concurrentGroupsPerVendor). */
  concurrentGroupsPerVendor: number;
}

export type GroupState = BookingState | "SKIPPED";

export interface GroupStatus {
  groupId: string;
  state: GroupState;
  reservationUrn: string | null;
}

/**
 * One group as the load step plans it: the vendor whose queue it waits in and what the book step
 * needs to book it, or where it stands already when there is nothing to book (a group split or
 * merged after the wave, an override to the hotel the group holds).
 */
export type PlannedGroup<Order = unknown> = GroupToBook<Order> | { groupId: string; decided: GroupStatus };

export interface GroupToBook<Order = unknown> {
  groupId: string;
  lane: string;
  order: Order;
}

/** The wave to settle once every group is decided. */
export interface SettleOrder {
  waveUrn: string;
  caseUrn: string;
  correlationUrn: string;
}

export type LoadedGroups<Order = unknown> =
  | { refusal: DomainErrorShape }
  | { caseUrn: string; groups: PlannedGroup<Order>[]; settle: SettleOrder | null };

export interface BookGroupsSummary {
  caseUrn: string;
  /** In the order the load step planned the groups. */
  groups: GroupStatus[];
}

/** A run ends with where its groups stand, or with the load step's refusal (no such wave, a case of another tenant). */
export type BookGroupsOutput = BookGroupsSummary | { refusal: DomainErrorShape };

/**
 * What the activities do, implemented by the booking use cases. Each step is idempotent (bookings
 * are keyed and claimed in the case's BookingActor), so a retried activity books nothing twice.
 * A DomainError from `load` is the run's refusal; anything else an activity throws is retried.
 */
export interface BookGroupsSteps<Request = unknown, Order = unknown> {
  load(request: Request): Promise<LoadedGroups<Order>>;
  /** Claims the group, calls its vendors and records the outcome: BOOKED, FAILED or PENDING. */
  book(order: Order): Promise<GroupStatus>;
  settle(order: SettleOrder): Promise<void>;
}

/**
 * The custom status: `booking` while groups are being booked, `waiting-to-retry` (with where the
 * groups stand) while the run waits for the next round. A run at rest is one that waits or ended.
 */
export type BookGroupsProgress =
  | { phase: "booking" }
  | { phase: "waiting-to-retry"; summary: BookGroupsSummary };

/** Where the run's groups stand once it rests: its output, or its summary while it waits to retry. */
export function restingOutcome(state: WorkflowState): BookGroupsOutput | undefined {
  if (state.runtimeStatus === "COMPLETED") return state.output as BookGroupsOutput;
  if (typeof state.customStatus !== "string" || state.customStatus === "") return undefined;
  const progress = JSON.parse(state.customStatus) as BookGroupsProgress;
  return progress.phase === "waiting-to-retry" ? progress.summary : undefined;
}
