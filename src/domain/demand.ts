import { type PassengerGroup, REVIEW_PRIORITY_OF, type ReviewCategory, type ReviewPriority } from "./case.js";
import { type AirportFreeze, freezeRejection } from "./airport-freeze.js";
import type { DeepReadonly } from "./deep-readonly.js";
import { DomainError } from "./domain-error.js";
import type { Policy } from "./policy/policy.js";
import { passengerTier } from "./policy/tiers.js";

/**
 * Demand: the number of rooms requested for a case, and its approval (spec 2.3, 3.1). Every move
 * into APPROVED, automatic or by a supervisor, is the caller's signal to enqueue allocation.
 */

export const DEMAND_TYPES = ["INITIAL", "INCREMENTAL"] as const;
export type DemandType = (typeof DEMAND_TYPES)[number];

export const DEMAND_STATES = ["REQUESTED", "APPROVED", "FULFILLED", "PARTIAL", "REJECTED"] as const;
export type DemandState = (typeof DEMAND_STATES)[number];

export type DemandAction = "auto-approve" | "approve" | "reject" | "fulfil" | "partial";

/** One audited decision: who, when, why and under which policy version (spec 3.1). */
export interface DemandDecision {
  action: DemandAction;
  /** User URN, or the policy URN for an automatic approval. */
  by: string;
  at: string;
  reason: string;
  policyVersion?: number;
}

export interface Demand {
  urn: string;
  caseUrn: string;
  type: DemandType;
  roomsRequested: number;
  state: DemandState;
  /** The policy that applied when the demand was created, if any. */
  policyUrn?: string;
  policyVersion?: number;
  requestedBy: string;
  requestedAt: string;
  updatedAt: string;
  decisions: DemandDecision[];
  /** The manual-review item that explains a PARTIAL demand. */
  reviewItemUrn?: string;
}

export interface DemandRequest {
  urn: string;
  caseUrn: string;
  type: DemandType;
  roomsRequested: number;
  requestedBy: string;
}

type ApprovalRules = Pick<
  Policy,
  "autoApproveDemand" | "maxAutomaticRoomsPerWave" | "incrementalRequiresApproval"
>;

/** The auto-approval rule of spec 3.1, word for word. Without a policy nothing is approved automatically. */
export function autoApproves(
  policy: ApprovalRules | undefined,
  type: DemandType,
  roomsRequested: number,
): boolean {
  if (!policy) return false;
  return (
    policy.autoApproveDemand &&
    roomsRequested <= policy.maxAutomaticRoomsPerWave &&
    (type === "INITIAL" || policy.incrementalRequiresApproval !== true)
  );
}

/**
 * A new demand: REQUESTED, then APPROVED at once when the policy approves it automatically; at a
 * frozen airport the system policy rejects it at once instead (spec 3.1), whatever the policy says.
 */
export function createDemand(
  request: DemandRequest,
  policy: (ApprovalRules & Pick<Policy, "urn" | "version">) | undefined,
  now: Date,
  freeze?: Pick<AirportFreeze, "airport" | "reason">,
): Demand {
  if (!Number.isInteger(request.roomsRequested) || request.roomsRequested < 1) {
    throw new DomainError("invalid", "invalid-rooms-requested", "roomsRequested must be a positive integer", {
      roomsRequested: request.roomsRequested,
    });
  }
  const at = now.toISOString();
  const demand: Demand = {
    ...request,
    state: "REQUESTED",
    ...(policy ? { policyUrn: policy.urn, policyVersion: policy.version } : {}),
    requestedAt: at,
    updatedAt: at,
    decisions: [],
  };
  if (freeze) return reject(demand, freezeRejection(freeze), now);
  if (!policy || !autoApproves(policy, request.type, request.roomsRequested)) return demand;
  return decided(demand, "APPROVED", {
    action: "auto-approve",
    by: policy.urn,
    at,
    reason: `${request.roomsRequested} room(s) within the automatic limit of ${policy.maxAutomaticRoomsPerWave}`,
    policyVersion: policy.version,
  });
}

export interface DecisionInput {
  by: string;
  reason: string;
  /** The policy version the decision was taken under; defaults to the one recorded at creation. */
  policyVersion?: number;
}

/** A supervisor approves a REQUESTED demand. */
export function approve(demand: Demand, input: DecisionInput, now: Date): Demand {
  return decide(demand, "approve", "APPROVED", input, now);
}

/** A supervisor, or a system rule such as an airport freeze, rejects a REQUESTED demand. */
export function reject(demand: Demand, input: DecisionInput, now: Date): Demand {
  return decide(demand, "reject", "REJECTED", input, now);
}

/** Allocation and booking are complete and every requested room has a confirmed reservation. */
export function markFulfilled(demand: Demand, by: string, now: Date): Demand {
  requireState(demand, "APPROVED");
  return decided(demand, "FULFILLED", {
    action: "fulfil",
    by,
    at: now.toISOString(),
    reason: "every requested room has a confirmed reservation",
    ...policyVersionOf(demand),
  });
}

/** Some rooms were booked and others failed; the review item explaining it must already exist. */
export function markPartial(
  demand: Demand,
  input: { by: string; roomsBooked: number; reviewItemUrn: string },
  now: Date,
): Demand {
  requireState(demand, "APPROVED");
  if (
    !Number.isInteger(input.roomsBooked) ||
    input.roomsBooked < 0 ||
    input.roomsBooked >= demand.roomsRequested
  ) {
    throw new DomainError(
      "invalid",
      "invalid-rooms-booked",
      "A partial demand has fewer rooms booked than requested",
      {
        roomsBooked: input.roomsBooked,
        roomsRequested: demand.roomsRequested,
      },
    );
  }
  return {
    ...decided(demand, "PARTIAL", {
      action: "partial",
      by: input.by,
      at: now.toISOString(),
      reason: `${input.roomsBooked} of ${demand.roomsRequested} room(s) booked; see ${input.reviewItemUrn}`,
      ...policyVersionOf(demand),
    }),
    reviewItemUrn: input.reviewItemUrn,
  };
}

function decide(
  demand: Demand,
  action: "approve" | "reject",
  state: DemandState,
  input: DecisionInput,
  now: Date,
): Demand {
  requireState(demand, "REQUESTED");
  const reason = input.reason.trim();
  if (!reason)
    throw new DomainError("invalid", "reason-required", `A reason is required to ${action} demand`);
  const policyVersion = input.policyVersion ?? demand.policyVersion;
  return decided(demand, state, {
    action,
    by: input.by,
    at: now.toISOString(),
    reason,
    ...(policyVersion !== undefined ? { policyVersion } : {}),
  });
}

function requireState(demand: Demand, expected: DemandState): void {
  if (demand.state !== expected) {
    throw new DomainError(
      "conflict",
      "demand-state",
      `Demand ${demand.urn} is ${demand.state}, not ${expected}`,
      {
        state: demand.state,
      },
    );
  }
}

function decided(demand: Demand, state: DemandState, decision: DemandDecision): Demand {
  return { ...demand, state, updatedAt: decision.at, decisions: [...demand.decisions, decision] };
}

function policyVersionOf(demand: Demand): { policyVersion?: number } {
  return demand.policyVersion !== undefined ? { policyVersion: demand.policyVersion } : {};
}

/**
 * Rooms a group needs: crew members sleep one to a room; everyone else shares two to a room
 * (ceil of half), since the manifest does not say who may share a bed with whom. Adults, children
 * and infants are not told apart.
 */
export function roomsNeededFor(group: DeepReadonly<Pick<PassengerGroup, "passengers">>): number {
  const crew = group.passengers.filter((passenger) => passengerTier(passenger) === "CREW").length;
  return crew + Math.ceil((group.passengers.length - crew) / 2);
}

export interface RoomCount {
  groupId: string;
  rooms: number;
}

/**
 * Why approved rooms have no group to house (spec 2.3 names review categories; these two explain
 * a shortfall no review item can): every group already holds a confirmed reservation, or the
 * passengers' next departure leaves no night to house them for (spec 3.1: no wave follows).
 */
export const UNHOUSED_CATEGORIES = ["ALL_GROUPS_HOUSED", "NO_OVERNIGHT_GAP"] as const;
export type UnhousedCategory = (typeof UNHOUSED_CATEGORIES)[number];

export interface ShortfallReason {
  category: ReviewCategory | UnhousedCategory;
  groups: string[];
  rooms: number;
}

export interface DemandSummary {
  totalRequested: number;
  totalApproved: number;
  totalAllocated: number;
  totalBooked: number;
  shortfall: number;
  shortfallReasons: ShortfallReason[];
}

export interface DemandSummaryInput {
  groups: readonly PassengerGroup[];
  /** Rooms assigned by allocation waves. */
  allocations: readonly RoomCount[];
  /** Rooms with a confirmed reservation. */
  bookings: readonly RoomCount[];
  /** The case's open manual-review items. */
  openReviewItems: readonly { category: ReviewCategory; affectedGroups: readonly string[] }[];
  /** True when the case's stay plan found no night between the disrupted and the next departure. */
  noOvernightGap?: boolean;
}

const PRIORITY_ORDER: readonly ReviewPriority[] = ["HIGH", "MEDIUM", "LOW"];

/**
 * The demand summary of a case (spec 2.3). Rejected demand is not counted as requested. The
 * shortfall is approved rooms without a confirmed reservation; each unbooked group named by an open
 * review item is explained once, by its highest-priority item, so the reasons never add up to more
 * rooms than are missing from those groups. Rooms no review item explains are still explained when
 * no wave can house them: no overnight gap, or every group already housed.
 */
export function demandSummary(demands: readonly Demand[], input: DemandSummaryInput): DemandSummary {
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  const totalRequested = sum(demands.filter((d) => d.state !== "REJECTED").map((d) => d.roomsRequested));
  const totalApproved = sum(
    demands
      .filter((d) => d.state === "APPROVED" || d.state === "FULFILLED" || d.state === "PARTIAL")
      .map((d) => d.roomsRequested),
  );
  const totalAllocated = sum(input.allocations.map((a) => a.rooms));
  const totalBooked = sum(input.bookings.map((b) => b.rooms));

  const booked = new Set(input.bookings.filter((b) => b.rooms > 0).map((b) => b.groupId));
  const groupsById = new Map(input.groups.map((group) => [group.id, group]));
  const explained = new Set<string>();
  const byCategory = new Map<ReviewCategory, ShortfallReason>();
  const items = [...input.openReviewItems].sort(
    (a, b) =>
      PRIORITY_ORDER.indexOf(REVIEW_PRIORITY_OF[a.category]) -
      PRIORITY_ORDER.indexOf(REVIEW_PRIORITY_OF[b.category]),
  );
  for (const item of items) {
    for (const groupId of item.affectedGroups) {
      const group = groupsById.get(groupId);
      if (!group || booked.has(groupId) || explained.has(groupId)) continue;
      explained.add(groupId);
      const reason = byCategory.get(item.category) ?? { category: item.category, groups: [], rooms: 0 };
      reason.groups.push(groupId);
      reason.rooms += roomsNeededFor(group);
      byCategory.set(item.category, reason);
    }
  }
  const shortfall = Math.max(0, totalApproved - totalBooked);
  const reasons = [...byCategory.values()];
  const unexplained = shortfall - sum(reasons.map((reason) => reason.rooms));
  const unhoused = input.groups.filter(
    (group) => group.passengers.length > 0 && !booked.has(group.id) && !explained.has(group.id),
  );
  const category: UnhousedCategory | undefined = input.noOvernightGap
    ? "NO_OVERNIGHT_GAP"
    : unhoused.length === 0 && explained.size === 0
      ? "ALL_GROUPS_HOUSED"
      : undefined;
  if (unexplained > 0 && category) {
    reasons.push({ category, groups: unhoused.map((group) => group.id), rooms: unexplained });
  }
  return { totalRequested, totalApproved, totalAllocated, totalBooked, shortfall, shortfallReasons: reasons };
}
