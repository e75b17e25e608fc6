import { describe, expect, it } from "vitest";
import { priorityOf, raisePriority } from "../../src/domain/case-priority.js";
import { caseIn, expectRefusal, later } from "./case-fixture.js";

const partner = { by: "urn:partner:skyhub", reason: "a minister is on board" };

describe("a case's priority (spec 4.3 priority-request)", () => {
  it("opens NORMAL and rises one level per request, recording who asked and why", () => {
    const record = caseIn("OPEN");
    expect(priorityOf(record)).toBe("NORMAL");
    const first = raisePriority(record, partner, later);
    expect(first).toMatchObject({ changed: true, from: "NORMAL", to: "HIGH" });
    expect(first.record).toMatchObject({
      priority: "HIGH",
      priorityRequest: { ...partner, at: later.toISOString(), from: "NORMAL", to: "HIGH" },
      version: record.version + 1,
      updatedAt: later.toISOString(),
    });
    expect(first.change).toEqual({
      action: "case.priority-raised",
      by: partner.by,
      reason: partner.reason,
      before: { priority: "NORMAL" },
      after: { priority: "HIGH" },
    });
    const second = raisePriority(first.record, { ...partner, reason: "connection at risk" }, later);
    expect(second).toMatchObject({ changed: true, from: "HIGH", to: "URGENT" });
  });

  it("changes nothing on an URGENT case", () => {
    const urgent = { ...caseIn("OPEN"), priority: "URGENT" as const };
    const decision = raisePriority(urgent, partner, later);
    expect(decision).toMatchObject({ changed: false, from: "URGENT", to: "URGENT" });
    expect(decision.record).toBe(urgent);
    expect(decision.change).toBeUndefined();
  });

  it("refuses a closed case and a blank reason", () => {
    expectRefusal(() => raisePriority(caseIn("CLOSED"), partner, later), "conflict", "case-closed");
    expectRefusal(
      () => raisePriority(caseIn("OPEN"), { ...partner, reason: "  " }, later),
      "invalid",
      "reason-required",
    );
  });

  it("is raised in a MANUAL_REVIEW case too: the case is open", () => {
    expect(raisePriority(caseIn("MANUAL_REVIEW"), partner, later).to).toBe("HIGH");
  });
});
