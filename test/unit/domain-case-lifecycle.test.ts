import { describe, expect, it } from "vitest";
import type { CaseRecord } from "../../src/domain/case.js";
import {
  assertCaseOpen,
  close,
  closeWhenCheckedOut,
  recordedMove,
  reopen,
  returnToFlow,
  SYSTEM_ACTOR,
  toManualReview,
} from "../../src/domain/case-lifecycle.js";
import type { ServiceRole } from "../../src/domain/roles.js";
import { caseIn, later as t1 } from "./case-fixture.js";
import { refusal } from "../support/refusal.js";

const who = { by: "urn:user:op-1", reason: "storm over" };

describe("case transitions (spec 3.3)", () => {
  it.each([
    ["no matching policy", "OPEN", (r: CaseRecord) => toManualReview(r, who, t1), "MANUAL_REVIEW", []],
    ["review item resolved", "MANUAL_REVIEW", (r: CaseRecord) => returnToFlow(r, who, t1), "OPEN", []],
    [
      "operator closes an open case",
      "OPEN",
      (r: CaseRecord) => close(r, { ...who, role: "AIRPORT_OPERATOR" }, t1),
      "CLOSED",
      ["revoke-passenger-tokens"],
    ],
    [
      "supervisor closes a case in review",
      "MANUAL_REVIEW",
      (r: CaseRecord) => close(r, { ...who, role: "OPS_SUPERVISOR" }, t1),
      "CLOSED",
      ["revoke-passenger-tokens"],
    ],
    [
      "admin closes",
      "OPEN",
      (r: CaseRecord) => close(r, { ...who, role: "ADMIN" }, t1),
      "CLOSED",
      ["revoke-passenger-tokens"],
    ],
    ["admin reopens", "CLOSED", (r: CaseRecord) => reopen(r, { ...who, role: "ADMIN" }, t1), "OPEN", []],
  ] as const)("%s: %s → %s", (_name, from, move, to, effects) => {
    const before = caseIn(from);
    const transition = move(before);
    expect(transition).toMatchObject({ from, to, changed: true, effects });
    expect(transition.record).toMatchObject({
      status: to,
      version: before.version + 1,
      updatedAt: t1.toISOString(),
      statusChange: { from, to, reason: "storm over", by: "urn:user:op-1", at: t1.toISOString() },
    });
  });

  it.each([
    ["manual review again", "MANUAL_REVIEW", (r: CaseRecord) => toManualReview(r, who, t1)],
    ["return to flow when already in flow", "OPEN", (r: CaseRecord) => returnToFlow(r, who, t1)],
  ] as const)("%s changes nothing", (_name, status, move) => {
    const before = caseIn(status);
    expect(move(before)).toEqual({ record: before, from: status, to: status, changed: false, effects: [] });
  });

  it.each(["FINANCE_AUDIT", "INTEGRATION"] as const)("%s cannot close", (role: ServiceRole) => {
    expect(refusal(() => close(caseIn("OPEN"), { ...who, role }, t1))).toMatchObject({
      kind: "forbidden",
      code: "role-required",
    });
  });

  it("closing needs a reason", () => {
    expect(refusal(() => close(caseIn("OPEN"), { by: "u", reason: " ", role: "ADMIN" }, t1)).code).toBe(
      "reason-required",
    );
  });

  it.each(["OPS_SUPERVISOR", "AIRPORT_OPERATOR"] as const)("%s cannot reopen", (role) => {
    expect(refusal(() => reopen(caseIn("CLOSED"), { ...who, role }, t1)).code).toBe("role-required");
  });

  it("reopening needs a closed case and takes a default reason", () => {
    expect(refusal(() => reopen(caseIn("OPEN"), { by: "u", role: "ADMIN" }, t1)).code).toBe(
      "case-not-closed",
    );
    expect(reopen(caseIn("CLOSED"), { by: "u", role: "ADMIN" }, t1).record.statusChange?.reason).toBe(
      "reopened by ADMIN",
    );
  });
});

describe("after CLOSED every change is refused", () => {
  it.each([
    ["manual review", (r: CaseRecord) => toManualReview(r, who, t1)],
    ["return to flow", (r: CaseRecord) => returnToFlow(r, who, t1)],
    ["close again", (r: CaseRecord) => close(r, { ...who, role: "ADMIN" }, t1)],
    ["any other change", (r: CaseRecord) => assertCaseOpen(r)],
  ])("%s", (_name, change) => {
    expect(refusal(() => change(caseIn("CLOSED")))).toMatchObject({
      kind: "conflict",
      code: "case-closed",
      details: { caseUrn: caseIn("CLOSED").urn },
    });
  });

  it("an open case passes the guard", () => {
    expect(() => assertCaseOpen(caseIn("MANUAL_REVIEW"))).not.toThrow();
  });
});

describe("automatic close when every reservation is checked out", () => {
  it.each([
    ["all checked out", "OPEN", ["CHECKED_OUT", "CHECKED_OUT"], true],
    ["all checked out while in review", "MANUAL_REVIEW", ["CHECKED_OUT"], true],
    ["one still staying", "OPEN", ["CHECKED_OUT", "CONFIRMED"], false],
    ["no reservations", "OPEN", [], false],
    ["already closed", "CLOSED", ["CHECKED_OUT"], false],
  ] as const)("%s", (_name, status, statuses, closes) => {
    const transition = closeWhenCheckedOut(
      caseIn(status),
      statuses.map((s) => ({ status: s })),
      t1,
    );
    if (!closes) {
      expect(transition).toBeUndefined();
      return;
    }
    expect(transition).toMatchObject({
      to: "CLOSED",
      changed: true,
      effects: ["revoke-passenger-tokens"],
      record: { status: "CLOSED", statusChange: { by: SYSTEM_ACTOR } },
    });
  });
});

describe("the audit entry of a move", () => {
  it("records who moved the case, the reason stored with the move, and the status before and after", () => {
    const transition = toManualReview(caseIn("OPEN"), { by: "urn:user:op-1", reason: " no policy " }, t1);
    expect(recordedMove(transition, "case.manual-review", { by: "urn:user:op-1" })).toEqual({
      action: "case.manual-review",
      by: "urn:user:op-1",
      reason: "no policy",
      before: { status: "OPEN" },
      after: { status: "MANUAL_REVIEW" },
    });
  });

  it("falls back to the acting reason, then to none, for a record without a status change", () => {
    const transition = returnToFlow(caseIn("OPEN"), who, t1);
    expect(recordedMove(transition, "case.returned-to-flow", { by: "u", reason: "why" }).reason).toBe("why");
    expect(recordedMove(transition, "case.returned-to-flow", { by: "u" }).reason).toBe("");
  });
});
