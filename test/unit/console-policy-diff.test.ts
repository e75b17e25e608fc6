import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../../services/operator-console/src/actions/openapi.js";
import {
  applyPatch,
  editableRules as editableRulesIn,
  patchShapeOf,
  type PolicyRules,
  policyDiff as policyDiffIn,
  sameValue,
  shownValue,
} from "../../services/operator-console/src/policy-diff.js";
import { policyPatchBody, policySchema } from "../../services/policies/policy-schemas.js";

/** The patch shape as the console reads it: the patchPolicy body and response the operator document publishes. */
const shape = patchShapeOf(
  JSON.parse(JSON.stringify(policyPatchBody)) as JsonSchema,
  JSON.parse(JSON.stringify(policySchema)) as JsonSchema,
);
const editableRules = (rules: PolicyRules) => editableRulesIn(rules, shape);
const policyDiff = (before: PolicyRules, after: PolicyRules) => policyDiffIn(before, after, shape);
const carry = (rules: PolicyRules, patch: PolicyRules) => applyPatch(rules, patch, shape);

const policy = {
  urn: "urn:policy:abc.1",
  name: "JFK economy",
  status: "ACTIVE",
  version: 3,
  context: { airport: "JFK", airline: "ZX" },
  tiers: ["ECONOMY"],
  constraints: { minStars: 3, maxDistanceKm: 20, requiredAmenities: ["AIRPORT_SHUTTLE"] },
  buffers: { lateCheckoutMinutes: 0, earlyCheckInMinutes: 0 },
  mode: "ON_DEMAND",
  autoApproveDemand: true,
  allocationWeights: { cost: 0.6, distance: 0.25, consolidation: 0.15 },
  mealAllowance: { amount: 1500 },
};

describe("the console's policy diff", () => {
  it("reads the patchable fields from the patch schema: the policy's own, not the request's", () => {
    expect(shape.fields).toContain("name");
    expect(shape.fields).toContain("mealAllowance");
    expect(shape.fields).not.toContain("reason");
    expect(shape.fields).not.toContain("expectedVersion");
    expect(shape.fields).not.toContain("context");
    expect([...shape.merged].sort()).toEqual(["allocationWeights", "buffers", "constraints", "transport"]);
    // Without the document nothing is patchable (the editor says so rather than guessing).
    expect(patchShapeOf({}, {})).toEqual({ fields: [], merged: new Set() });
  });

  it("starts an edit from the patchable fields only", () => {
    const rules = editableRules(policy);
    expect(Object.keys(rules)).not.toContain("urn");
    expect(Object.keys(rules)).not.toContain("context");
    expect(Object.keys(rules)).not.toContain("status");
    expect(rules.constraints).toEqual(policy.constraints);
  });

  it("sends nothing when nothing changed, whatever the member order", () => {
    const edited = {
      ...editableRules(policy),
      constraints: { requiredAmenities: ["AIRPORT_SHUTTLE"], maxDistanceKm: 20, minStars: 3 },
    };
    expect(policyDiff(policy, edited)).toEqual({ patch: {}, changes: [], notPatchable: [] });
  });

  it("merges constraints member by member: a changed member is sent, a removed one is null", () => {
    const edited = {
      ...editableRules(policy),
      constraints: { minStars: 4, requiredAmenities: ["AIRPORT_SHUTTLE"], maxNightlyRate: 180 },
    };
    const { patch, changes } = policyDiff(policy, edited);
    expect(patch).toEqual({ constraints: { minStars: 4, maxDistanceKm: null, maxNightlyRate: 180 } });
    expect(changes).toEqual([
      { path: "constraints.minStars", before: 3, after: 4 },
      { path: "constraints.maxDistanceKm", before: 20, after: undefined },
      { path: "constraints.maxNightlyRate", before: undefined, after: 180 },
    ]);
  });

  it("replaces arrays and scalars whole, and removes a replaced object with null", () => {
    const { mealAllowance: _, ...rest } = editableRules(policy);
    const edited = { ...rest, tiers: ["ECONOMY", "BUSINESS"], mode: "BATCH" };
    const { patch, changes } = policyDiff(policy, edited);
    expect(patch).toEqual({ tiers: ["ECONOMY", "BUSINESS"], mode: "BATCH", mealAllowance: null });
    expect(changes.map((c) => c.path)).toEqual(["tiers", "mode", "mealAllowance"]);
  });

  it("names the fields a patch cannot change instead of sending them", () => {
    const edited = { ...editableRules(policy), context: { airport: "BOS", airline: "ZX" }, status: "DRAFT" };
    const { patch, notPatchable } = policyDiff(policy, edited);
    expect(patch).toEqual({});
    expect(notPatchable).toEqual(["context", "status"]);
  });

  it("compares JSON deeply and shows absent values", () => {
    expect(sameValue({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(shownValue(undefined)).toBe("(none)");
    expect(shownValue(["A"])).toBe('["A"]');
  });

  it("carries an edit onto a newer version: applying the patch is the inverse of the diff", () => {
    const edited = {
      ...editableRules(policy),
      constraints: { minStars: 4, requiredAmenities: ["AIRPORT_SHUTTLE"] },
      mode: "BATCH",
    };
    const { patch } = policyDiff(policy, edited);
    expect(carry(editableRules(policy), patch)).toEqual(edited);
    // Someone renamed the policy meanwhile: the rename stays, the operator's changes go on top.
    const newer: PolicyRules = { ...editableRules(policy), name: "JFK economy (renamed)" };
    const carried = carry(newer, patch);
    expect(carried).toMatchObject({ name: "JFK economy (renamed)", mode: "BATCH" });
    expect(policyDiff(newer, carried).patch).toEqual(patch);
    const { mealAllowance: _, ...withoutAllowance } = newer;
    expect(carry(newer, { mealAllowance: null })).toEqual(withoutAllowance);
  });
});
