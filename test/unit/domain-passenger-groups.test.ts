import { describe, expect, it } from "vitest";
import type { Passenger, PassengerGroup } from "../../src/domain/case.js";
import {
  defaultGroups,
  groupReviewDrafts,
  incompleteGroups,
  mergeGroups,
  mixedTierGroups,
  pnrsApartFromGroups,
  splitGroup,
} from "../../src/domain/passenger-groups.js";
import { refusal } from "../support/refusal.js";

const contact = { email: "lead@example.com" };

function passenger(id: string, extra: Partial<Passenger> = {}): Passenger {
  return { id, lastName: "Rivera", tier: "ECONOMY", ...extra };
}

const family: PassengerGroup = {
  id: "ABC123",
  pnr: "ABC123",
  passengers: [passenger("p1", { contact }), passenger("p2"), passenger("p3"), passenger("p4")],
};
const solo: PassengerGroup = { id: "XYZ789", pnr: "XYZ789", passengers: [passenger("p5", { contact })] };

describe("default grouping", () => {
  it("makes one group per PNR in order of appearance; an explicit group id wins", () => {
    const groups = defaultGroups([
      { pnr: "ABC123", passenger: passenger("p1") },
      { pnr: "XYZ789", passenger: passenger("p2") },
      { pnr: "ABC123", passenger: passenger("p3") },
      { pnr: "ABC123", groupId: "team", passenger: passenger("p4") },
      { pnr: "QQQ111", groupId: "team", passenger: passenger("p5") },
    ]);
    expect(groups.map((g) => [g.id, g.pnr, g.passengers.map((p) => p.id)])).toEqual([
      ["ABC123", "ABC123", ["p1", "p3"]],
      ["XYZ789", "XYZ789", ["p2"]],
      ["team", undefined, ["p4", "p5"]],
    ]);
  });
});

describe("splitGroup", () => {
  it("splits into parts named <id>-n, in place, keeping the PNR and why", () => {
    const { groups, parts } = splitGroup(
      [family, solo],
      "ABC123",
      [["p1", "p2"], ["p3"], ["p4"]],
      " two rooms ",
    );
    expect(groups.map((g) => g.id)).toEqual(["ABC123-1", "ABC123-2", "ABC123-3", "XYZ789"]);
    expect(parts.map((g) => g.passengers.map((p) => p.id))).toEqual([["p1", "p2"], ["p3"], ["p4"]]);
    expect(parts[0]).toMatchObject({
      pnr: "ABC123",
      origin: { kind: "split", from: ["ABC123"], reason: "two rooms" },
    });
  });

  it("skips part names already taken, deterministically", () => {
    const taken: PassengerGroup = { id: "ABC123-1", passengers: [passenger("p9")] };
    const first = splitGroup([family, taken], "ABC123", [["p1"], ["p2", "p3", "p4"]], "r");
    const again = splitGroup([family, taken], "ABC123", [["p1"], ["p2", "p3", "p4"]], "r");
    expect(first.parts.map((g) => g.id)).toEqual(["ABC123-2", "ABC123-3"]);
    expect(again).toEqual(first);
  });

  it.each([
    ["one part", [["p1", "p2", "p3", "p4"]], "split-needs-two-parts"],
    ["an empty part", [["p1", "p2", "p3", "p4"], []], "empty-part"],
    [
      "an unknown passenger",
      [
        ["p1", "p2"],
        ["p3", "p4", "p5"],
      ],
      "unknown-passenger",
    ],
    [
      "a passenger twice",
      [
        ["p1", "p2"],
        ["p2", "p3", "p4"],
      ],
      "passenger-repeated",
    ],
    ["a passenger left out", [["p1", "p2"], ["p3"]], "passenger-missing"],
  ])("refuses %s", (_name, into, code) => {
    expect(refusal(() => splitGroup([family], "ABC123", into, "r"))).toMatchObject({ kind: "invalid", code });
  });

  it("refuses an unknown group and a blank reason", () => {
    expect(refusal(() => splitGroup([family], "NOPE", [["p1"], ["p2"]], "r"))).toMatchObject({
      kind: "not-found",
      code: "group-not-found",
    });
    expect(
      refusal(() =>
        splitGroup(
          [family],
          "ABC123",
          [
            ["p1", "p2"],
            ["p3", "p4"],
          ],
          " ",
        ),
      ).code,
    ).toBe("reason-required");
  });
});

describe("mergeGroups", () => {
  const other: PassengerGroup = { id: "DEF456", pnr: "DEF456", passengers: [passenger("p6")] };

  it("merges into the first named group, in its place, recording why", () => {
    const { groups, merged } = mergeGroups([family, solo, other], ["XYZ789", "DEF456"], "travel together");
    expect(groups.map((g) => g.id)).toEqual(["ABC123", "XYZ789"]);
    expect(merged).toEqual({
      id: "XYZ789",
      passengers: [solo.passengers[0], other.passengers[0]],
      origin: { kind: "merge", from: ["XYZ789", "DEF456"], reason: "travel together" },
    });
  });

  it("keeps the PNR when all merged groups share it", () => {
    const halves = splitGroup(
      [family],
      "ABC123",
      [
        ["p1", "p2"],
        ["p3", "p4"],
      ],
      "r",
    ).groups;
    const { merged } = mergeGroups(halves, ["ABC123-1", "ABC123-2"], "back together");
    expect(merged).toMatchObject({ id: "ABC123-1", pnr: "ABC123" });
    expect(merged.passengers.map((p) => p.id)).toEqual(["p1", "p2", "p3", "p4"]);
  });

  it.each([
    ["a single group", ["ABC123"], "merge-needs-two-groups"],
    ["a group twice", ["ABC123", "ABC123"], "group-repeated"],
    ["an unknown group", ["ABC123", "NOPE"], "group-not-found"],
  ])("refuses %s", (_name, ids, code) => {
    expect(refusal(() => mergeGroups([family, solo], ids, "r")).code).toBe(code);
  });

  it("needs a reason", () => {
    expect(refusal(() => mergeGroups([family, solo], ["ABC123", "XYZ789"], "")).code).toBe("reason-required");
  });
});

describe("PNRs kept apart from the groups", () => {
  const together: PassengerGroup = { id: "G1", passengers: [...family.passengers, ...solo.passengers] };

  it("needs nothing while every group carries its passengers' PNR", () => {
    expect(pnrsApartFromGroups([], [family, solo], {})).toEqual({});
    expect(pnrsApartFromGroups([family, solo], [family, solo], {})).toEqual({});
  });

  it("keeps each passenger's PNR once the group holding it carries none, and drops it when one does again", () => {
    const apart = pnrsApartFromGroups([family, solo], [together], {});
    expect(apart).toEqual({ p1: "ABC123", p2: "ABC123", p3: "ABC123", p4: "ABC123", p5: "XYZ789" });
    expect(pnrsApartFromGroups([together], [family, { ...solo, pnr: undefined }], apart)).toEqual({
      p5: "XYZ789",
    });
  });

  it("takes PNRs given with the change over what the passengers had", () => {
    const moved = { ...solo, passengers: [...solo.passengers, passenger("p6")] };
    expect(pnrsApartFromGroups([solo], [moved], {}, { p5: "NEW123", p6: "XYZ789" })).toEqual({
      p5: "NEW123",
    });
  });

  it("gives no PNR to a passenger whose group never carried one", () => {
    const unnamed: PassengerGroup = { id: "G2", passengers: [passenger("p7")] };
    expect(pnrsApartFromGroups([unnamed], [unnamed, family], {})).toEqual({});
  });
});

describe("review drafts for groups", () => {
  it("flags a group whose passengers span tiers, cabin class standing in for a missing tier", () => {
    const mixed: PassengerGroup = {
      id: "MIX",
      passengers: [
        passenger("m1", { contact }),
        { id: "m2", lastName: "Okafor", cabinClass: "BUSINESS" },
        passenger("m3", { tier: "BUSINESS" }),
      ],
    };
    expect(mixedTierGroups([family, mixed])).toEqual([
      {
        category: "MIXED_TIER_GROUP",
        priority: "LOW",
        affectedGroups: ["MIX"],
        reason: "Group MIX spans tiers ECONOMY, BUSINESS",
      },
    ]);
  });

  it.each([
    ["a complete group", family, undefined],
    [
      "a missing last name",
      { id: "G", passengers: [passenger("a", { contact, lastName: " " })] },
      "a: lastName",
    ],
    ["a missing tier", { id: "G", passengers: [passenger("a", { contact, tier: undefined })] }, "a: tier"],
    ["an unknown tier", { id: "G", passengers: [passenger("a", { contact, tier: "GOLD" })] }, "a: tier"],
    [
      "a lead without contact",
      { id: "G", passengers: [passenger("a"), passenger("b", { contact })] },
      "a: email or phone",
    ],
    [
      "a lead with a phone only",
      { id: "G", passengers: [passenger("a", { contact: { phone: "+14155550100" } })] },
      undefined,
    ],
    ["no passengers", { id: "G", passengers: [] }, "no passengers"],
  ] as const)("data incomplete: %s", (_name, group, missing) => {
    const drafts = incompleteGroups([group as PassengerGroup]);
    if (missing === undefined) {
      expect(drafts).toEqual([]);
    } else {
      expect(drafts).toEqual([
        {
          category: "DATA_INCOMPLETE",
          priority: "LOW",
          affectedGroups: ["G"],
          reason: expect.stringContaining(missing),
        },
      ]);
    }
  });

  it("lists every group's drafts together", () => {
    const bad: PassengerGroup = {
      id: "BAD",
      passengers: [{ id: "x", lastName: "", tier: "FIRST" }, passenger("y")],
    };
    expect(groupReviewDrafts([family, bad]).map((d) => [d.category, d.affectedGroups])).toEqual([
      ["MIXED_TIER_GROUP", ["BAD"]],
      ["DATA_INCOMPLETE", ["BAD"]],
    ]);
  });
});
