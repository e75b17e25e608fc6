import { describe, expect, it } from "vitest";
import type { PassengerGroup } from "../../src/domain/case.js";
import {
  approve,
  createDemand,
  type Demand,
  type DemandRequest,
  type DemandState,
  demandSummary,
  markFulfilled,
  markPartial,
  reject,
  roomsNeededFor,
} from "../../src/domain/demand.js";
import { createPolicy, type Policy, type PolicyInput } from "../../src/domain/policy/policy.js";
import { refusal } from "../support/refusal.js";

const t0 = new Date("2026-11-21T22:30:00Z");
const t1 = new Date("2026-11-21T22:40:00Z");

function policy(input: Partial<PolicyInput>): Policy {
  return {
    ...createPolicy({ name: "p", context: {}, ...input }, "urn:policy:p", t0),
    version: 3,
    status: "ACTIVE",
  };
}

function request(type: DemandRequest["type"], roomsRequested: number): DemandRequest {
  return { urn: "urn:demand:d1", caseUrn: "urn:case:c1", type, roomsRequested, requestedBy: "urn:user:op-1" };
}

function demandIn(state: DemandState): Demand {
  return { ...createDemand(request("INITIAL", 5), undefined, t0), state };
}

describe("create demand (spec 3.1, first two rows)", () => {
  const auto = { autoApproveDemand: true, maxAutomaticRoomsPerWave: 10 };
  it.each([
    ["auto, INITIAL under the bound", auto, "INITIAL", 5, "APPROVED"],
    ["auto, INITIAL at the bound", auto, "INITIAL", 10, "APPROVED"],
    ["auto, INITIAL over the bound", auto, "INITIAL", 11, "REQUESTED"],
    ["auto off", { ...auto, autoApproveDemand: false }, "INITIAL", 1, "REQUESTED"],
    ["auto, INCREMENTAL, approval not forced", auto, "INCREMENTAL", 4, "APPROVED"],
    [
      "auto, INCREMENTAL, approval forced",
      { ...auto, incrementalRequiresApproval: true },
      "INCREMENTAL",
      4,
      "REQUESTED",
    ],
    [
      "auto, INITIAL, incremental approval forced",
      { ...auto, incrementalRequiresApproval: true },
      "INITIAL",
      4,
      "APPROVED",
    ],
    ["auto, INCREMENTAL over the bound", auto, "INCREMENTAL", 11, "REQUESTED"],
    ["auto with a zero bound", { ...auto, maxAutomaticRoomsPerWave: 0 }, "INITIAL", 1, "REQUESTED"],
    ["no policy", undefined, "INITIAL", 1, "REQUESTED"],
  ] as const)("%s: %s", (_name, rules, type, rooms, expected) => {
    const demand = createDemand(request(type, rooms), rules && policy(rules), t0);
    expect(demand.state).toBe(expected);
    expect(demand.roomsRequested).toBe(rooms);
    if (expected === "APPROVED") {
      expect(demand.decisions).toEqual([
        {
          action: "auto-approve",
          by: "urn:policy:p",
          at: t0.toISOString(),
          reason: expect.any(String),
          policyVersion: 3,
        },
      ]);
    } else {
      expect(demand.decisions).toEqual([]);
    }
  });

  it("records the applying policy and its version", () => {
    expect(createDemand(request("INITIAL", 2), policy({}), t0)).toMatchObject({
      policyUrn: "urn:policy:p",
      policyVersion: 3,
      requestedAt: t0.toISOString(),
      requestedBy: "urn:user:op-1",
    });
  });

  it.each([0, -1, 2.5])("refuses %s rooms", (rooms) => {
    expect(refusal(() => createDemand(request("INITIAL", rooms), undefined, t0)).code).toBe(
      "invalid-rooms-requested",
    );
  });
});

describe("decisions on a demand (spec 3.1, remaining rows)", () => {
  it("approve: REQUESTED to APPROVED, logging who, when, why and the policy version", () => {
    const requested = createDemand(request("INITIAL", 20), policy({}), t0);
    const approved = approve(requested, { by: "urn:user:sup-1", reason: "  storm, whole flight  " }, t1);
    expect(approved.state).toBe("APPROVED");
    expect(approved.decisions).toEqual([
      {
        action: "approve",
        by: "urn:user:sup-1",
        at: t1.toISOString(),
        reason: "storm, whole flight",
        policyVersion: 3,
      },
    ]);
    expect(
      approve(requested, { by: "u", reason: "r", policyVersion: 4 }, t1).decisions[0]?.policyVersion,
    ).toBe(4);
  });

  it("reject: REQUESTED to REJECTED, also by a system rule", () => {
    const rejected = reject(
      demandIn("REQUESTED"),
      { by: "urn:system:airport-freeze", reason: "airport frozen" },
      t1,
    );
    expect(rejected).toMatchObject({
      state: "REJECTED",
      decisions: [{ action: "reject", by: "urn:system:airport-freeze" }],
    });
  });

  it.each([
    ["approve", approve],
    ["reject", reject],
  ] as const)("%s needs a reason", (_name, decide) => {
    expect(refusal(() => decide(demandIn("REQUESTED"), { by: "u", reason: "   " }, t1)).code).toBe(
      "reason-required",
    );
  });

  it.each([
    ["approve", approve, "APPROVED"],
    ["approve", approve, "REJECTED"],
    ["approve", approve, "FULFILLED"],
    ["reject", reject, "APPROVED"],
    ["reject", reject, "PARTIAL"],
  ] as const)("%s is refused on %s", (_name, decide, state) => {
    expect(refusal(() => decide(demandIn(state), { by: "u", reason: "r" }, t1))).toMatchObject({
      kind: "conflict",
      code: "demand-state",
    });
  });

  it("fulfilled: APPROVED to FULFILLED", () => {
    expect(markFulfilled(demandIn("APPROVED"), "urn:system:booking", t1)).toMatchObject({
      state: "FULFILLED",
      decisions: [{ action: "fulfil", by: "urn:system:booking" }],
    });
  });

  it("partial: APPROVED to PARTIAL with its review item", () => {
    const partial = markPartial(
      demandIn("APPROVED"),
      { by: "urn:system:booking", roomsBooked: 3, reviewItemUrn: "urn:review:r1" },
      t1,
    );
    expect(partial).toMatchObject({ state: "PARTIAL", reviewItemUrn: "urn:review:r1" });
    expect(partial.decisions[0]?.reason).toContain("3 of 5");
  });

  it.each([5, 6, -1])("partial refuses %s rooms booked of 5", (roomsBooked) => {
    expect(
      refusal(() =>
        markPartial(demandIn("APPROVED"), { by: "s", roomsBooked, reviewItemUrn: "urn:review:r" }, t1),
      ).code,
    ).toBe("invalid-rooms-booked");
  });

  it.each(["REQUESTED", "REJECTED", "FULFILLED"] as const)("fulfilment is refused on %s", (state) => {
    expect(refusal(() => markFulfilled(demandIn(state), "s", t1)).code).toBe("demand-state");
    expect(
      refusal(() =>
        markPartial(demandIn(state), { by: "s", roomsBooked: 1, reviewItemUrn: "urn:review:r" }, t1),
      ).code,
    ).toBe("demand-state");
  });
});

function group(id: string, tiers: (string | undefined)[]): PassengerGroup {
  return {
    id,
    passengers: tiers.map((tier, i) => ({ id: `${id}-p${i}`, lastName: "L", ...(tier ? { tier } : {}) })),
  };
}

describe("rooms needed for a group", () => {
  it.each([
    [[], 0],
    [["ECONOMY"], 1],
    [["ECONOMY", "ECONOMY"], 1],
    [["ECONOMY", "ECONOMY", "ECONOMY"], 2],
    [["CREW", "CREW"], 2],
    [["CREW", "BUSINESS", "BUSINESS"], 2],
    [[undefined, undefined, undefined, undefined], 2],
  ])("%j needs %i", (tiers, rooms) => {
    expect(roomsNeededFor(group("g", tiers))).toBe(rooms);
  });
});

describe("demand summary", () => {
  const demands: Demand[] = [
    { ...demandIn("FULFILLED"), roomsRequested: 4 },
    { ...demandIn("APPROVED"), roomsRequested: 3 },
    { ...demandIn("PARTIAL"), roomsRequested: 2 },
    { ...demandIn("REQUESTED"), roomsRequested: 5 },
    { ...demandIn("REJECTED"), roomsRequested: 7 },
  ];
  const groups = [
    group("A", ["ECONOMY", "ECONOMY"]),
    group("B", ["ECONOMY", "ECONOMY", "ECONOMY"]),
    group("C", ["CREW", "CREW"]),
    group("D", ["BUSINESS"]),
  ];

  it("totals the rooms and explains each unbooked group once, by its most urgent item", () => {
    const summary = demandSummary(demands, {
      groups,
      allocations: [
        { groupId: "A", rooms: 1 },
        { groupId: "B", rooms: 2 },
        { groupId: "C", rooms: 2 },
      ],
      bookings: [{ groupId: "A", rooms: 1 }],
      openReviewItems: [
        { category: "MIXED_TIER_GROUP", affectedGroups: ["B", "D"] },
        { category: "BOOKING_FAILED", affectedGroups: ["B", "C", "A"] },
        { category: "POLICY_VIOLATION", affectedGroups: ["unknown-group"] },
      ],
    });
    expect(summary).toEqual({
      totalRequested: 14,
      totalApproved: 9,
      totalAllocated: 5,
      totalBooked: 1,
      shortfall: 8,
      shortfallReasons: [
        { category: "BOOKING_FAILED", groups: ["B", "C"], rooms: 4 },
        { category: "MIXED_TIER_GROUP", groups: ["D"], rooms: 1 },
      ],
    });
  });

  it("has no shortfall when every approved room is booked", () => {
    const summary = demandSummary([{ ...demandIn("FULFILLED"), roomsRequested: 2 }], {
      groups,
      allocations: [{ groupId: "A", rooms: 2 }],
      bookings: [{ groupId: "A", rooms: 2 }],
      openReviewItems: [],
    });
    expect(summary).toMatchObject({ totalApproved: 2, totalBooked: 2, shortfall: 0, shortfallReasons: [] });
  });

  it("explains approved rooms beyond what housed groups need as ALL_GROUPS_HOUSED", () => {
    const housed = [group("A", ["ECONOMY", "ECONOMY"]), group("D", ["BUSINESS"])];
    const summary = demandSummary(
      [
        { ...demandIn("FULFILLED"), roomsRequested: 2 },
        { ...demandIn("APPROVED"), type: "INCREMENTAL", roomsRequested: 1 },
      ],
      {
        groups: housed,
        allocations: [],
        bookings: [
          { groupId: "A", rooms: 1 },
          { groupId: "D", rooms: 1 },
        ],
        openReviewItems: [],
      },
    );
    expect(summary).toMatchObject({
      totalApproved: 3,
      totalBooked: 2,
      shortfall: 1,
      shortfallReasons: [{ category: "ALL_GROUPS_HOUSED", groups: [], rooms: 1 }],
    });
  });

  it("explains rooms no night calls for as NO_OVERNIGHT_GAP, after the review items", () => {
    const summary = demandSummary([{ ...demandIn("APPROVED"), roomsRequested: 6 }], {
      groups,
      allocations: [],
      bookings: [{ groupId: "A", rooms: 1 }],
      openReviewItems: [{ category: "MIXED_TIER_GROUP", affectedGroups: ["D"] }],
      noOvernightGap: true,
    });
    expect(summary.shortfall).toBe(5);
    expect(summary.shortfallReasons).toEqual([
      { category: "MIXED_TIER_GROUP", groups: ["D"], rooms: 1 },
      { category: "NO_OVERNIGHT_GAP", groups: ["B", "C"], rooms: 4 },
    ]);
  });

  it("leaves unbooked groups without a review item unexplained while their wave may still run", () => {
    const summary = demandSummary([{ ...demandIn("APPROVED"), roomsRequested: 2 }], {
      groups,
      allocations: [],
      bookings: [{ groupId: "A", rooms: 1 }],
      openReviewItems: [],
    });
    expect(summary).toMatchObject({ shortfall: 1, shortfallReasons: [] });
  });
});
