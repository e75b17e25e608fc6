import { describe, expect, it } from "vitest";
import {
  amendManifest,
  mergeCaseGroups,
  regroupCase,
  splitCaseGroup,
} from "../../src/domain/case-amendment.js";
import { caseIn, expectRefusal, later } from "./case-fixture.js";

const by = "urn:user:ops-1";
const reason = "travelling together";
describe("regroupCase", () => {
  it("bumps the case, audits the groups before and after, and keeps the PNRs the groups lose", () => {
    const record = caseIn();
    const amendment = regroupCase(
      record,
      {},
      { by, reason, groups: [{ id: "ALL", passengerIds: ["p1", "p2", "p3"] }] },
      later,
    );
    expect(amendment.record).toMatchObject({
      version: record.version + 1,
      updatedAt: later.toISOString(),
      passengerGroups: [{ id: "ALL", passengers: [{ id: "p1" }, { id: "p2" }, { id: "p3" }] }],
    });
    expect(amendment.record.passengerGroups[0]).not.toHaveProperty("pnr");
    expect(amendment.passengerPnrs).toEqual({ p1: "ABC123", p2: "ABC123", p3: "XYZ789" });
    expect(amendment.details).toEqual({});
    expect(amendment.change).toEqual({
      action: "case.regrouped",
      by,
      reason,
      before: {
        groups: [
          { id: "ABC123", passengerIds: ["p1", "p2"] },
          { id: "XYZ789", passengerIds: ["p3"] },
        ],
      },
      after: { groups: [{ id: "ALL", passengerIds: ["p1", "p2", "p3"] }] },
    });
  });

  it("leaves the kept PNRs alone when the groups still carry them", () => {
    const amendment = regroupCase(
      caseIn(),
      {},
      {
        by,
        reason,
        groups: [
          { id: "ABC123", passengerIds: ["p1", "p2"] },
          { id: "XYZ789", passengerIds: ["p3"] },
        ],
      },
      later,
    );
    expect(amendment).not.toHaveProperty("passengerPnrs");
  });

  it("asks again for the review items the new groups call for", () => {
    const record = caseIn("OPEN", {
      passengerGroups: [
        { id: "A", passengers: [{ id: "p1", lastName: "A", tier: "ECONOMY", contact: { email: "a@x" } }] },
        { id: "B", passengers: [{ id: "p2", lastName: "B", tier: "BUSINESS", contact: { email: "b@x" } }] },
      ],
    });
    const amendment = regroupCase(
      record,
      {},
      { by, reason, groups: [{ id: "AB", passengerIds: ["p1", "p2"] }] },
      later,
    );
    expect(amendment.reviewDrafts).toMatchObject([{ category: "MIXED_TIER_GROUP", affectedGroups: ["AB"] }]);
  });

  it("refuses a partition that leaves a passenger out", () => {
    expectRefusal(
      () => regroupCase(caseIn(), {}, { by, reason, groups: [{ id: "A", passengerIds: ["p1"] }] }, later),
      "invalid",
      "passenger-missing",
    );
  });
});

describe("splitCaseGroup and mergeCaseGroups", () => {
  it("splits a group and names the parts in the details and the audit", () => {
    const amendment = splitCaseGroup(
      caseIn(),
      {},
      { by, reason: "two rooms", groupId: "ABC123", into: [["p1"], ["p2"]] },
      later,
    );
    const parts = amendment.details.parts as string[];
    expect(parts).toHaveLength(2);
    expect(amendment.record.passengerGroups.map((g) => g.id)).toEqual([...parts, "XYZ789"]);
    expect(amendment.change).toMatchObject({
      action: "case.group-split",
      by,
      reason: "two rooms",
      after: { parts },
    });
  });

  it("merges groups, keeping each passenger's own PNR apart", () => {
    const amendment = mergeCaseGroups(caseIn(), {}, { by, reason, groupIds: ["ABC123", "XYZ789"] }, later);
    expect(amendment.details).toEqual({ merged: amendment.record.passengerGroups[0]?.id });
    expect(amendment.record.passengerGroups).toHaveLength(1);
    expect(amendment.passengerPnrs).toEqual({ p1: "ABC123", p2: "ABC123", p3: "XYZ789" });
    expect(amendment.change.action).toBe("case.groups-merged");
  });

  it("refuses to split a group the case does not have", () => {
    expectRefusal(
      () => splitCaseGroup(caseIn(), {}, { by, reason, groupId: "NOPE", into: [["p1"], ["p2"]] }, later),
      "not-found",
      "group-not-found",
    );
  });

  it("refuses a merge without a reason", () => {
    expectRefusal(
      () => mergeCaseGroups(caseIn(), {}, { by, reason: " ", groupIds: ["ABC123", "XYZ789"] }, later),
      "invalid",
      "reason-required",
    );
  });
});

describe("amendManifest: a spreadsheet upload or a partner amendment", () => {
  const newcomer = {
    pnr: "NEW001",
    passenger: { id: "p9", lastName: "Lee", tier: "ECONOMY", contact: { email: "l@x" } },
  };
  const correction = { pnr: "ABC123", passenger: { id: "p2", lastName: "Rivera-Diaz", tier: "ECONOMY" } };

  it("adds and corrects passengers, with the default reason and the groups created", () => {
    const amendment = amendManifest(
      caseIn(),
      {},
      { by, action: "case.passengers-uploaded", lines: [newcomer, correction] },
      later,
    );
    expect(amendment).toMatchObject({
      added: ["p9"],
      updated: ["p2"],
      details: { added: ["p9"], updated: ["p2"], groupsCreated: ["NEW001"] },
      change: { action: "case.passengers-uploaded", by, reason: "manifest updated" },
    });
    expect(amendment?.details).not.toHaveProperty("nextFlightBefore");
    expect(amendment?.record.passengerGroups.map((g) => g.id)).toEqual(["ABC123", "XYZ789", "NEW001"]);
  });

  it("corrects the next flight and records the one it replaced", () => {
    const record = caseIn();
    const nextFlight = { number: "ZX104", scheduledDeparture: "2026-11-23T08:00:00Z" };
    const amendment = amendManifest(
      record,
      {},
      { by, action: "case.manifest-amended", lines: [], nextFlight, reason: "partner amendment" },
      later,
    );
    expect(amendment?.record.nextFlight).toEqual(nextFlight);
    expect(amendment?.details).toEqual({
      added: [],
      updated: [],
      groupsCreated: [],
      nextFlightBefore: record.nextFlight,
    });
    expect(amendment?.change.reason).toBe("partner amendment");
  });

  it("keeps a line's PNR as the passenger's own when its group carries another", () => {
    const joiner = { pnr: "OTHER9", groupId: "ABC123", passenger: { ...newcomer.passenger, id: "p8" } };
    const amendment = amendManifest(
      caseIn(),
      {},
      { by, action: "case.passengers-uploaded", lines: [joiner] },
      later,
    );
    expect(amendment?.passengerPnrs).toMatchObject({ p8: "OTHER9" });
  });

  it("changes nothing when no line is given and the next flight is what the case holds", () => {
    const record = caseIn();
    expect(
      amendManifest(
        record,
        {},
        { by, action: "case.manifest-amended", lines: [], nextFlight: record.nextFlight },
        later,
      ),
    ).toBeUndefined();
    expect(
      amendManifest(record, {}, { by, action: "case.passengers-uploaded", lines: [] }, later),
    ).toBeUndefined();
  });

  it("takes a line for a passenger already on the case as a correction", () => {
    const record = caseIn();
    const line = { pnr: "XYZ789", passenger: record.passengerGroups[1]!.passengers[0]! };
    const amendment = amendManifest(
      record,
      {},
      { by, action: "case.passengers-uploaded", lines: [line] },
      later,
    );
    expect(amendment).toMatchObject({ added: [], updated: ["p3"] });
  });
});

describe("after CLOSED no amendment is taken", () => {
  it.each([
    ["regroup", () => regroupCase(caseIn("CLOSED"), {}, { by, reason, groups: [] }, later)],
    ["split", () => splitCaseGroup(caseIn("CLOSED"), {}, { by, reason, groupId: "ABC123", into: [] }, later)],
    ["merge", () => mergeCaseGroups(caseIn("CLOSED"), {}, { by, reason, groupIds: [] }, later)],
    [
      "manifest",
      () => amendManifest(caseIn("CLOSED"), {}, { by, action: "case.passengers-uploaded", lines: [] }, later),
    ],
  ])("%s", (_name, amend) => {
    expectRefusal(amend, "conflict", "case-closed");
  });
});
