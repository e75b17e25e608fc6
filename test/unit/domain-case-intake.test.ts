import { describe, expect, it } from "vitest";
import { caseNotFound, caseUrnFor, type Passenger, type PassengerGroup } from "../../src/domain/case.js";
import { receiveDisruption } from "../../src/domain/case-intake.js";
import { caseIn, expectRefusal, opened, opening } from "./case-fixture.js";

describe("receiveDisruption: opening a case (spec 2.1, 4.3)", () => {
  it("opens an OPEN case at version 1 and keeps how the disruption arrived", () => {
    const decision = receiveDisruption(undefined, opening(), opened);
    if (!decision.created) throw new Error("expected a new case");
    expect(decision.record).toMatchObject({
      urn: caseUrnFor("urn:airline:ZX", "evt-1"),
      status: "OPEN",
      version: 1,
      openedAt: opened.toISOString(),
      updatedAt: opened.toISOString(),
    });
    expect(decision.intake).toEqual({
      source: "operator",
      receivedBy: "urn:user:supervisor-1",
      receivedAt: opened.toISOString(),
      correlationUrn: "urn:trace:abc",
    });
    expect(decision.change).toEqual({
      action: "case.opened",
      by: "urn:user:supervisor-1",
      before: null,
      after: { status: "OPEN", groupCount: 2 },
    });
    expect(decision.reviewDrafts).toEqual([]);
  });

  it("keeps a partner's disruption with the intake", () => {
    const disruption = { type: "CANCELLATION", reason: "weather", decidedAt: "2026-11-21T21:00:00Z" };
    const decision = receiveDisruption(
      undefined,
      { ...opening(), intake: { source: "partner", disruption } },
      opened,
    );
    expect(decision.created && decision.intake).toMatchObject({ source: "partner", disruption });
  });

  it("asks for review items for groups spanning tiers or missing data", () => {
    const [family, solo] = opening().passengerGroups as [PassengerGroup, PassengerGroup];
    const [lead, second] = family.passengers as [Passenger, Passenger];
    const command = opening({
      passengerGroups: [
        { ...family, passengers: [lead, { ...second, tier: "BUSINESS" }] },
        { ...solo, passengers: [{ id: "p3", lastName: "Okafor" }] },
      ],
    });
    const decision = receiveDisruption(undefined, command, opened);
    expect(decision.created && decision.reviewDrafts.map((d) => [d.category, d.affectedGroups])).toEqual([
      ["MIXED_TIER_GROUP", ["ABC123"]],
      ["DATA_INCOMPLETE", ["XYZ789"]],
    ]);
  });

  it("answers a replay of the same disruption with the case already open", () => {
    const existing = caseIn("MANUAL_REVIEW");
    expect(receiveDisruption(existing, opening(), opened)).toEqual({ created: false, record: existing });
  });

  it.each([
    ["another tenant", { tenant: "urn:airline:QQ" }],
    ["another disruption", { externalEventId: "evt-2" }],
  ])("refuses %s landing on the same case", (_name, other) => {
    expectRefusal(() => receiveDisruption(caseIn(), opening(other), opened), "conflict", "case-id-collision");
  });

  it.each([
    [
      "a repeated passenger",
      [
        { id: "A", passengers: [{ id: "p1", lastName: "A" }] },
        { id: "B", passengers: [{ id: "p1", lastName: "A" }] },
      ],
      "passenger-repeated",
    ],
    [
      "a repeated group",
      [
        { id: "A", passengers: [{ id: "p1", lastName: "A" }] },
        { id: "A", passengers: [{ id: "p2", lastName: "B" }] },
      ],
      "group-repeated",
    ],
    ["an empty group", [{ id: "A", passengers: [] }], "empty-group"],
  ])("refuses a manifest with %s", (_name, passengerGroups, code) => {
    expectRefusal(() => receiveDisruption(undefined, opening({ passengerGroups }), opened), "invalid", code);
  });
});

describe("caseNotFound", () => {
  it("names the case the id addresses", () => {
    expect(caseNotFound("1234")).toMatchObject({
      kind: "not-found",
      code: "case-not-found",
      details: { caseUrn: "urn:case:1234" },
    });
  });
});
