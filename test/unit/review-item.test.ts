import { describe, expect, it } from "vitest";
import {
  assign,
  breachSla,
  claim,
  escalate,
  everyGroupBooked,
  groupsToBook,
  type NewReviewItem,
  openReviewItem,
  priorityRank,
  raisedPriority,
  recordBookingAnswer,
  replaceSplitGroup,
  requestRebooking,
  resolve,
  type ReviewItem,
  reviewItemUrnFor,
  SLA_MS,
  takeForAction,
  withRecommendations,
} from "../../src/domain/review-item.js";
import { refusal } from "../support/refusal.js";

const now = new Date("2026-11-21T23:00:00Z");
const later = new Date("2026-11-21T23:05:00Z");
const alice = "urn:user:alice";
const bob = "urn:user:bob";

function item(overrides: Partial<NewReviewItem> = {}): ReviewItem {
  return openReviewItem(
    {
      urn: "urn:review-item:1",
      caseUrn: "urn:case:1",
      tenant: "urn:airline:ZX",
      airport: "JFK",
      category: "PARTIAL_FULFILLMENT",
      affectedGroups: ["G1", "G2"],
      reason: "two groups without a room",
      raisedBy: "booking",
      raisedAt: now.toISOString(),
      ...overrides,
    },
    now,
  );
}

describe("opening an item", () => {
  it.each([
    ["ALLOCATION_FAILED", "HIGH"],
    ["BOOKING_FAILED", "HIGH"],
    ["PAYMENT_FAILED", "MEDIUM"],
    ["PARTIAL_FULFILLMENT", "MEDIUM"],
    ["POLICY_VIOLATION", "LOW"],
    ["MIXED_TIER_GROUP", "LOW"],
    ["DATA_INCOMPLETE", "LOW"],
  ] as const)("%s is %s priority (spec 2.5) with the SLA of that priority", (category, priority) => {
    const opened = item({ category });
    expect(opened).toMatchObject({ priority, state: "OPEN", assignedTo: null, version: 1 });
    expect(Date.parse(opened.slaDueAt!) - now.getTime()).toBe(SLA_MS[priority]);
  });

  it("runs the SLA from when the problem was raised, not from when the queue saw it", () => {
    const opened = openReviewItem(
      {
        urn: "urn:review-item:1",
        caseUrn: "urn:case:1",
        tenant: "urn:airline:ZX",
        airport: "JFK",
        category: "MIXED_TIER_GROUP",
        affectedGroups: ["G1"],
        reason: "mixed",
        raisedBy: "case",
        raisedAt: "2026-11-21T22:00:00Z",
      },
      now,
    );
    expect(opened.slaDueAt).toBe("2026-11-22T02:00:00.000Z");
  });
});

describe("priorities and SLA", () => {
  it("raises one level at a time and stops at HIGH", () => {
    expect(raisedPriority("LOW")).toBe("MEDIUM");
    expect(raisedPriority("MEDIUM")).toBe("HIGH");
    expect(raisedPriority("HIGH")).toBe("HIGH");
    expect(
      ["LOW", "HIGH", "MEDIUM"].sort((a, b) => priorityRank(a as never) - priorityRank(b as never)),
    ).toEqual(["HIGH", "MEDIUM", "LOW"]);
  });

  it("a breach raises the priority and opens a new window at the new priority", () => {
    const breached = breachSla(item({ category: "MIXED_TIER_GROUP" }), later)!;
    expect(breached.priority).toBe("MEDIUM");
    expect(breached.slaDueAt).toBe(new Date(later.getTime() + SLA_MS.MEDIUM).toISOString());
    expect(breached.version).toBe(2);
  });

  it("a resolved item has no SLA to breach", () => {
    const resolved = resolve(item(), { resolution: "REBOOKED", reason: "done", by: alice }, later);
    expect(resolved.slaDueAt).toBeNull();
    expect(breachSla(resolved, later)).toBeUndefined();
  });
});

describe("claim, assign, take, escalate", () => {
  it("claim gives the item to the caller; a repeat by the holder changes nothing", () => {
    const claimed = claim(item(), alice, later);
    expect(claimed).toMatchObject({ state: "ASSIGNED", assignedTo: alice, version: 2 });
    expect(claim(claimed, alice, later)).toBe(claimed);
  });

  it("a second operator's claim is refused with the holder (spec 3.5)", () => {
    const error = refusal(() => claim(claim(item(), alice, later), bob, later));
    expect(error).toMatchObject({
      kind: "conflict",
      code: "review-item-assigned",
      details: { assignedTo: alice },
    });
  });

  it("a supervisor's assign reassigns whoever held it", () => {
    expect(assign(claim(item(), alice, later), bob, later)).toMatchObject({
      assignedTo: bob,
      state: "ASSIGNED",
    });
  });

  it("an action claims an unheld item, is refused on another operator's, and lets a supervisor take over", () => {
    expect(takeForAction(item(), { by: alice, mayTakeOver: false }, later).assignedTo).toBe(alice);
    const held = claim(item(), alice, later);
    expect(refusal(() => takeForAction(held, { by: bob, mayTakeOver: false }, later)).code).toBe(
      "review-item-assigned",
    );
    expect(takeForAction(held, { by: bob, mayTakeOver: true }, later).assignedTo).toBe(bob);
  });

  it("escalation raises the priority, releases the assignee and stays ESCALATED when taken again", () => {
    const escalated = escalate(claim(item(), alice, later), later);
    expect(escalated).toMatchObject({ state: "ESCALATED", priority: "HIGH", assignedTo: null });
    expect(escalated.slaDueAt).toBe(new Date(later.getTime() + SLA_MS.HIGH).toISOString());
    expect(claim(escalated, bob, later)).toMatchObject({ state: "ESCALATED", assignedTo: bob });
  });

  it("nothing moves a resolved item", () => {
    const resolved = resolve(item(), { resolution: "REBOOKED", reason: " by hand ", by: alice }, later);
    expect(resolved.resolution).toEqual({
      resolution: "REBOOKED",
      reason: "by hand",
      by: alice,
      at: later.toISOString(),
    });
    for (const move of [
      () => claim(resolved, alice, later),
      () => assign(resolved, bob, later),
      () => escalate(resolved, later),
      () => resolve(resolved, { resolution: "X", reason: "again", by: alice }, later),
      () => takeForAction(resolved, { by: alice, mayTakeOver: true }, later),
    ]) {
      expect(refusal(move).code).toBe("review-item-resolved");
    }
    expect(withRecommendations(resolved, [], later)).toBe(resolved);
  });
});

describe("rebooking", () => {
  const request = {
    kind: "rebook" as const,
    hotelUrn: "urn:hotel:H9",
    providerOfferId: null,
    requestedBy: alice,
    reason: "free rooms",
  };

  it("asks for every affected group still without a room, one request at a time", () => {
    const asked = requestRebooking(item(), request, later);
    expect(asked.rebooking!.groups).toEqual([
      { groupId: "G1", status: "REQUESTED" },
      { groupId: "G2", status: "REQUESTED" },
    ]);
    expect(refusal(() => requestRebooking(asked, request, later)).code).toBe("rebooking-in-progress");
  });

  it("records booking's answers; a repeated answer changes nothing; all booked means done", () => {
    const asked = requestRebooking(item(), request, later);
    const one = recordBookingAnswer(
      asked,
      { groupId: "G1", booked: true, reservationUrn: "urn:reservation:r1" },
      later,
    );
    expect(one.bookedGroups).toEqual(["G1"]);
    expect(everyGroupBooked(one)).toBe(false);
    expect(recordBookingAnswer(one, { groupId: "G1", booked: true }, later)).toBe(one);
    const two = recordBookingAnswer(one, { groupId: "G2", booked: true }, later);
    expect(everyGroupBooked(two)).toBe(true);
  });

  it("a refusal joins attemptedHotels and the next request asks only for the groups still without a room", () => {
    const asked = requestRebooking(item(), request, later);
    const answered = recordBookingAnswer(
      recordBookingAnswer(asked, { groupId: "G1", booked: true }, later),
      { groupId: "G2", booked: false, vendorErrorCode: "RATE_NOT_AVAILABLE" },
      later,
    );
    expect(answered.attemptedHotels).toEqual([
      { hotelUrn: "urn:hotel:H9", reason: "rebook-failed", providerError: "RATE_NOT_AVAILABLE" },
    ]);
    expect(groupsToBook(answered)).toEqual(["G2"]);
    const again = requestRebooking(answered, { ...request, hotelUrn: "urn:hotel:H10" }, later);
    expect(again.rebooking!.groups).toEqual([{ groupId: "G2", status: "REQUESTED" }]);
  });

  it("refuses when every group is booked already", () => {
    const booked = recordBookingAnswer(
      recordBookingAnswer(requestRebooking(item(), request, later), { groupId: "G1", booked: true }, later),
      { groupId: "G2", booked: true },
      later,
    );
    expect(refusal(() => requestRebooking(booked, request, later)).code).toBe("nothing-to-rebook");
  });
});

it("a split group is replaced by its parts among the affected groups", () => {
  expect(replaceSplitGroup(item(), "G1", ["G1-1", "G1-2"], later).affectedGroups).toEqual([
    "G1-1",
    "G1-2",
    "G2",
  ]);
});

describe("review item URNs", () => {
  // Items are stored under these URNs: each caller's parts must keep giving the same URN.
  const caseUrn = "urn:case:0b7c6c3e-5d0a-4e7f-9a43-1f1b2c3d4e5f";

  it("derives a case's item from its URN, category, sorted groups and occurrence", () => {
    expect(reviewItemUrnFor(caseUrn, "POLICY_VIOLATION", "G1", "G2", "")).toBe(
      "urn:review-item:7e505e5d-ac29-b3f2-f631-b42af1e188b9",
    );
    expect(reviewItemUrnFor(caseUrn, "POLICY_VIOLATION", "G1", "G2", "2")).toBe(
      "urn:review-item:a01cbddd-4e5b-b46c-3fd4-6ff5e87b68bc",
    );
    expect(reviewItemUrnFor(caseUrn, "ALLOCATION_FAILED", "0")).toBe(
      "urn:review-item:21a68e6e-b3a2-a2f9-6651-53ec0a57be2b",
    );
  });

  it("derives booking's item from the case URN and the cause", () => {
    expect(reviewItemUrnFor("review-item", caseUrn, "urn:wave:w-1#PARTIAL_FULFILLMENT")).toBe(
      "urn:review-item:5eeb5c80-8198-f0ce-93fd-9e16d902951a",
    );
    expect(reviewItemUrnFor("review-item", caseUrn, "cancelled:r-1")).toBe(
      "urn:review-item:05c5a117-94b6-c8a8-5e2c-e7c955b53786",
    );
  });

  it("derives a requested item from the event's type and id", () => {
    expect(reviewItemUrnFor("review-item.requested", "evt-1")).toBe(
      "urn:review-item:9c932480-3abf-7bf9-d82c-569cca65b95c",
    );
  });
});
