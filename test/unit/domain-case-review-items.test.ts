import { describe, expect, it } from "vitest";
import { REVIEW_PRIORITY_OF, type ReviewItemDraft } from "../../src/domain/case.js";
import {
  newReviewItems,
  policyViolationDraft,
  type RaisedReviewItem,
} from "../../src/domain/case-review-items.js";
import { caseIn } from "./case-fixture.js";

const at = "2026-11-22T09:00:00.000Z";

function draft(category: ReviewItemDraft["category"], affectedGroups: string[]): ReviewItemDraft {
  return { category, priority: REVIEW_PRIORITY_OF[category], affectedGroups, reason: `${category} reason` };
}

describe("policyViolationDraft (spec 3.3: no policy for the case context)", () => {
  it("names every group of the case when none are given, with the reason trimmed", () => {
    expect(policyViolationDraft(caseIn(), "  no policy for JFK ")).toEqual({
      category: "POLICY_VIOLATION",
      priority: "LOW",
      affectedGroups: ["ABC123", "XYZ789"],
      reason: "no policy for JFK",
    });
  });

  it("names only the groups given", () => {
    expect(policyViolationDraft(caseIn(), "no policy", ["XYZ789"]).affectedGroups).toEqual(["XYZ789"]);
  });
});

describe("newReviewItems: each problem of the same groups is raised once", () => {
  const mixed = draft("MIXED_TIER_GROUP", ["A"]);
  const incomplete = draft("DATA_INCOMPLETE", ["B"]);

  it("raises new drafts in order, stamped with their URN and time", () => {
    const raised = newReviewItems(
      [],
      [
        { urn: "urn:review-item:1", draft: mixed },
        { urn: "urn:review-item:2", draft: incomplete },
      ],
      at,
    );
    expect(raised).toEqual([
      { urn: "urn:review-item:1", raisedAt: at, ...mixed },
      { urn: "urn:review-item:2", raisedAt: at, ...incomplete },
    ]);
    expect(Object.keys(raised[0]!)).toEqual([
      "urn",
      "raisedAt",
      "category",
      "priority",
      "affectedGroups",
      "reason",
    ]);
  });

  it("skips a URN raised before, and a URN repeated in the same batch", () => {
    const existing: RaisedReviewItem[] = [{ urn: "urn:review-item:1", raisedAt: "earlier", ...mixed }];
    const raised = newReviewItems(
      existing,
      [
        { urn: "urn:review-item:1", draft: mixed },
        { urn: "urn:review-item:2", draft: incomplete },
        { urn: "urn:review-item:2", draft: incomplete },
      ],
      at,
    );
    expect(raised.map((item) => item.urn)).toEqual(["urn:review-item:2"]);
  });

  it("raises nothing when there are no drafts", () => {
    expect(newReviewItems([], [], at)).toEqual([]);
  });
});
