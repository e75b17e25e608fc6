import { describe, expect, it } from "vitest";
import {
  assertManifestConsistent,
  nextPassengerId,
  regroup,
  upsertPassengers,
} from "../../src/domain/case-manifest.js";
import type { PassengerGroup } from "../../src/domain/case.js";

const groups: PassengerGroup[] = [
  {
    id: "A",
    pnr: "AAA111",
    passengers: [
      { id: "a1", lastName: "Ames" },
      { id: "a2", lastName: "Ames" },
    ],
  },
  { id: "B", pnr: "BBB222", passengers: [{ id: "b1", lastName: "Bell" }] },
];

describe("regroup", () => {
  it("partitions the case's passengers anew, keeping a PNR the members share", () => {
    expect(
      regroup(groups, [
        { id: "x", passengerIds: ["a1", "a2"] },
        { id: "y", passengerIds: ["b1"], pnr: "ZZZ999" },
      ]),
    ).toEqual([
      { id: "x", pnr: "AAA111", passengers: groups[0]!.passengers },
      { id: "y", pnr: "ZZZ999", passengers: groups[1]!.passengers },
    ]);
    expect(regroup(groups, [{ id: "all", passengerIds: ["a1", "b1", "a2"] }])[0]!.pnr).toBeUndefined();
  });

  it.each([
    ["an unknown passenger", [{ id: "x", passengerIds: ["a1", "a2", "b1", "zz"] }], "unknown-passenger"],
    ["a passenger left out", [{ id: "x", passengerIds: ["a1", "a2"] }], "passenger-missing"],
    [
      "a passenger twice",
      [
        { id: "x", passengerIds: ["a1", "a2"] },
        { id: "y", passengerIds: ["a1", "b1"] },
      ],
      "passenger-repeated",
    ],
    [
      "a group id twice",
      [
        { id: "x", passengerIds: ["a1", "a2"] },
        { id: "x", passengerIds: ["b1"] },
      ],
      "group-repeated",
    ],
  ])("refuses %s", (_what, assignments, code) => {
    expect(() => regroup(groups, assignments)).toThrow(expect.objectContaining({ code }));
  });
});

describe("upsertPassengers", () => {
  it("corrects known passengers in place, adds new ones to their PNR's group or a new group", () => {
    const result = upsertPassengers(groups, [
      { pnr: "AAA111", passenger: { id: "a2", lastName: "Ames-Cole" } },
      { pnr: "BBB222", passenger: { id: "b2", lastName: "Bell" } },
      { pnr: "CCC333", passenger: { id: "c1", lastName: "Cruz" } },
      { pnr: "DDD444", groupId: "A", passenger: { id: "d1", lastName: "Diaz" } },
    ]);
    expect(result).toMatchObject({ added: ["b2", "c1", "d1"], updated: ["a2"], groupsCreated: ["CCC333"] });
    expect(result.groups.map((g) => [g.id, g.pnr, g.passengers.map((p) => p.lastName)])).toEqual([
      ["A", undefined, ["Ames", "Ames-Cole", "Diaz"]],
      ["B", "BBB222", ["Bell", "Bell"]],
      ["CCC333", "CCC333", ["Cruz"]],
    ]);
    expect(groups[0]!.passengers.map((p) => p.lastName)).toEqual(["Ames", "Ames"]);
  });

  it("reads a passenger repeated in one batch as a correction of its first line", () => {
    const result = upsertPassengers(groups, [
      { pnr: "CCC333", passenger: { id: "c1", lastName: "Cruz" } },
      { pnr: "CCC333", passenger: { id: "c1", lastName: "Cruz-Ortiz" } },
    ]);
    expect(result).toMatchObject({ added: ["c1"], updated: ["c1"] });
    expect(result.groups[2]!.passengers).toEqual([{ id: "c1", lastName: "Cruz-Ortiz" }]);
  });
});

describe("nextPassengerId and assertManifestConsistent", () => {
  it("numbers passengers per PNR, skipping ids in use", () => {
    const taken = new Set(["AAA111-1", "AAA111-3"]);
    expect([
      nextPassengerId("AAA111", taken),
      nextPassengerId("AAA111", taken),
      nextPassengerId("BBB222", taken),
    ]).toEqual(["AAA111-2", "AAA111-4", "BBB222-1"]);
  });

  it("refuses an empty group", () => {
    expect(() => assertManifestConsistent([{ id: "E", passengers: [] }])).toThrow(
      expect.objectContaining({ code: "empty-group" }),
    );
  });
});
