import { describe, expect, it } from "vitest";
import {
  agentActionUrnFor,
  approveAction,
  beginExecution,
  EXECUTION_HOLD_MS,
  executingOperator,
  proposeAction,
  recordExecution,
  rejectAction,
} from "../../src/domain/agent/agent-action.js";
import { AGENT_TOOLS, isIrreversible } from "../../src/domain/agent/agent-tools.js";
import {
  applyAdvice,
  classify,
  propose,
  proposalKey,
  splitByTier,
  type TriageSubject,
} from "../../src/domain/agent/triage.js";
import type { Recommendation } from "../../src/domain/review-item.js";
import { MAX_RECOMMENDATIONS } from "../../src/domain/agent/recommendations.js";
import { DomainError } from "../../src/domain/domain-error.js";

const subject = (overrides: Partial<TriageSubject> = {}): TriageSubject => ({
  category: "BOOKING_FAILED",
  affectedGroups: ["G1"],
  attemptedHotels: [],
  ...overrides,
});

const rebook = (hotel: string): Recommendation => ({
  action: "rebook",
  hotelUrn: `urn:hotel:${hotel}`,
  reason: `wave says ${hotel}`,
  source: "agent",
});
const relax: Recommendation = {
  action: "relaxPolicy",
  fields: { maxDistanceKm: 35 },
  reason: "maxDistanceKm alone kept 2 hotels out",
  source: "agent",
};

describe("classify", () => {
  it("a payment refusal anywhere is a payment problem, whatever the category", () => {
    expect(classify(subject({ category: "PAYMENT_FAILED" })).cause).toBe("PAYMENT_REFUSED");
    const refused = classify(
      subject({
        attemptedHotels: [
          { hotelUrn: "urn:hotel:a", reason: "hotel-full" },
          { hotelUrn: "urn:hotel:b", reason: "rebook-failed", providerError: "INVALID_PAYMENT_INFO" },
        ],
      }),
    );
    expect(refused.cause).toBe("PAYMENT_REFUSED");
    expect(refused.evidence.map((e) => e.detail)).toContain(
      "urn:hotel:b refused: rebook-failed (vendor error INVALID_PAYMENT_INFO)",
    );
  });

  it("refusals that all say full are a capacity problem; another vendor code a vendor problem", () => {
    const full = [{ hotelUrn: "urn:hotel:a", reason: "hotel-full", providerError: "NO_AVAILABILITY" }];
    expect(classify(subject({ attemptedHotels: full })).cause).toBe("HOTELS_FULL");
    const rate = [{ hotelUrn: "urn:hotel:a", reason: "rebook-failed", providerError: "RATE_NOT_AVAILABLE" }];
    expect(classify(subject({ attemptedHotels: rate })).cause).toBe("VENDOR_REFUSED");
  });

  it("otherwise the category tells", () => {
    expect(classify(subject({ category: "ALLOCATION_FAILED" })).cause).toBe("NO_COMPLIANT_HOTEL");
    expect(classify(subject({ category: "PARTIAL_FULFILLMENT" })).cause).toBe("PARTIAL_BOOKING");
    expect(classify(subject({ category: "POLICY_VIOLATION" })).cause).toBe("NO_POLICY");
    expect(classify(subject({ category: "MIXED_TIER_GROUP" })).cause).toBe("MIXED_TIERS");
    expect(classify(subject({ category: "DATA_INCOMPLETE" })).cause).toBe("MANIFEST_INCOMPLETE");
    expect(classify(subject({ category: "WALLET_FUNDING_EXHAUSTED" })).cause).toBe("FUNDING_EXHAUSTED");
    expect(classify(subject({ category: "MANUAL_RECONCILIATION" })).cause).toBe("UNWANTED_ROOM");
  });
});

describe("propose", () => {
  it("keeps the recommendations' order of viability, at most three, each with its reason and evidence", () => {
    const proposals = propose(
      subject({ attemptedHotels: [{ hotelUrn: "urn:hotel:full", reason: "hotel-full" }] }),
      [rebook("a"), rebook("b"), relax, rebook("c")],
    );
    expect(proposals).toHaveLength(MAX_RECOMMENDATIONS);
    expect(proposals.map((p) => [p.rank, p.tool, p.arguments])).toEqual([
      [1, "proposeRebook", { hotelUrn: "urn:hotel:a" }],
      [2, "proposeRebook", { hotelUrn: "urn:hotel:b" }],
      [3, "relax", { fields: { maxDistanceKm: 35 } }],
    ]);
    expect(proposals[0]!.evidence).toEqual([
      { source: "wave", detail: "wave says a" },
      { source: "review-item", detail: "already attempted: urn:hotel:full" },
    ]);
    expect(proposals.every((p) => p.reason.length > 0)).toBe(true);
  });

  it("splits a mixed-tier group by tier, before anything else", () => {
    const group = {
      id: "G1",
      passengers: [
        { id: "p1", tier: "ECONOMY" },
        { id: "p2", tier: "BUSINESS" },
        { id: "p3", tier: "ECONOMY" },
      ],
    };
    expect(splitByTier(group)).toEqual([["p1", "p3"], ["p2"]]);
    const [split] = propose(
      subject({ category: "MIXED_TIER_GROUP" }),
      [],
      [group, { id: "other", passengers: [] }],
    );
    expect(split).toMatchObject({ tool: "split", rank: 1, arguments: { into: [["p1", "p3"], ["p2"]] } });
  });

  it("proposes nothing without recommendations, and only tools of the allow-list", () => {
    expect(propose(subject(), [])).toEqual([]);
    const tools = propose(subject(), [rebook("a"), relax]).map((p) => p.tool);
    expect(tools.every((tool) => (AGENT_TOOLS as readonly string[]).includes(tool))).toBe(true);
  });
});

describe("applyAdvice (the language model's re-ranking)", () => {
  const proposals = propose(subject(), [rebook("a"), rebook("b"), relax]);
  const [a, b, r] = proposals.map((p) => proposalKey(p));

  it("reorders and explains the rules' proposals", () => {
    const advised = applyAdvice(proposals, {
      ranked: [
        { key: r, tool: "relax", explanation: "Distance is the real blocker" },
        { key: a, tool: "proposeRebook" },
      ],
    });
    expect(advised.map((p) => [p.rank, proposalKey(p)])).toEqual([
      [1, r],
      [2, a],
      [3, b],
    ]);
    expect(advised[0]!.explanation).toBe("Distance is the real blocker");
  });

  it("drops a tool outside the allow-list and a proposal the rules did not make", () => {
    const advised = applyAdvice(proposals, {
      ranked: [
        { key: "cancelReservation:{}", tool: "cancelReservation", explanation: "cancel it" },
        { key: "notify:{}", tool: "notify" },
        { key: 'proposeRebook:{"hotelUrn":"urn:hotel:invented"}', tool: "proposeRebook" },
        // A known key under another tool's name is not that proposal.
        { key: b, tool: "split" },
        { key: b, tool: "proposeRebook" },
      ],
    });
    expect(advised.map(proposalKey)).toEqual([b, a, r]);
    expect(advised.map((p) => p.tool)).toEqual(["proposeRebook", "proposeRebook", "relax"]);
  });

  it("no advice, or advice of the wrong shape, leaves the rules' order", () => {
    expect(applyAdvice(proposals, undefined)).toEqual(proposals);
    expect(applyAdvice(proposals, { ranked: "nonsense" } as never)).toEqual(proposals);
  });
});

describe("an agent action's states", () => {
  const now = new Date("2026-11-27T12:00:00Z");
  const supervisor = { actorUrn: "urn:user:sup", tenant: "urn:airline:ZX", role: "OPS_SUPERVISOR" as const };
  const other = { actorUrn: "urn:user:other", tenant: "urn:airline:ZX", role: "ADMIN" as const };
  const proposed = (tool: "proposeRebook" | "relax") =>
    proposeAction(
      {
        urn: agentActionUrnFor("urn:airline:ZX", "urn:review-item:1", tool),
        tenant: "urn:airline:ZX",
        caseUrn: "urn:case:1",
        reviewItemUrn: "urn:review-item:1",
        airport: "JFK",
        cause: "HOTELS_FULL",
        tool,
        arguments: {},
        reason: "r",
        evidence: [],
        rank: 1,
      },
      now,
    );
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error instanceof DomainError ? [error.kind, error.code] : error;
    }
    return undefined;
  };

  it("a rebook is irreversible: it runs only once approved, and then as the approver", () => {
    expect(isIrreversible("proposeRebook")).toBe(true);
    expect(isIrreversible("relax")).toBe(false);
    const action = proposed("proposeRebook");
    expect(action).toMatchObject({
      state: "PROPOSED",
      irreversible: true,
      proposedBy: "urn:system:exception-agent",
    });
    expect(refusal(() => executingOperator(action, other))).toEqual([
      "forbidden",
      "agent-action-not-approved",
    ]);
    const approved = approveAction(action, supervisor, "fine", now);
    expect(approved.state).toBe("APPROVED");
    expect(executingOperator(approved, other)).toEqual(supervisor);
    const done = recordExecution(approved, { by: other.actorUrn, as: supervisor.actorUrn, error: null }, now);
    expect(done.state).toBe("EXECUTED");
    expect(refusal(() => executingOperator(done, other))).toEqual(["conflict", "agent-action-decided"]);
    expect(refusal(() => approveAction(done, supervisor, null, now))).toEqual([
      "conflict",
      "agent-action-decided",
    ]);
    expect(refusal(() => rejectAction(done, "urn:user:x", null, now))).toEqual([
      "conflict",
      "agent-action-decided",
    ]);
  });

  it("a reversible action nobody approved runs as the caller; a rejected one never runs nor is approved", () => {
    const action = proposed("relax");
    expect(executingOperator(action, other)).toBe(other);
    const rejected = rejectAction(action, "urn:user:sup", "no", now);
    expect(rejectAction(rejected, "urn:user:sup", "no", now)).toBe(rejected);
    expect(refusal(() => approveAction(rejected, supervisor, null, now))).toEqual([
      "conflict",
      "agent-action-decided",
    ]);
    expect(refusal(() => executingOperator(rejected, other))).toEqual(["conflict", "agent-action-decided"]);
  });

  it("one execution at a time: a second one while the first runs is refused, until the hold lapses", () => {
    const approved = approveAction(proposed("proposeRebook"), supervisor, null, now);
    const first = beginExecution(approved, other, now);
    expect(first.as).toEqual(supervisor);
    expect(refusal(() => beginExecution(first.action, other, now))).toEqual([
      "conflict",
      "agent-action-executing",
    ]);
    const later = new Date(now.getTime() + EXECUTION_HOLD_MS);
    expect(beginExecution(first.action, other, later).as).toEqual(supervisor);
    const done = recordExecution(
      first.action,
      { by: other.actorUrn, as: supervisor.actorUrn, error: null },
      now,
    );
    expect(done.executingSince).toBeNull();
    expect(refusal(() => beginExecution(done, other, later))).toEqual(["conflict", "agent-action-decided"]);
  });

  it("a failed execution is recorded with its refusal", () => {
    const failed = recordExecution(
      proposed("relax"),
      { by: "urn:user:x", as: "urn:user:x", error: { code: "review-item-resolved", message: "resolved" } },
      now,
    );
    expect(failed).toMatchObject({ state: "FAILED", execution: { error: { code: "review-item-resolved" } } });
  });
});
