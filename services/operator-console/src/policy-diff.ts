/**
 * What a policy edit changes, before it is sent: the patch body POST /v1/policies/{urn}/patch takes
 * and the field-by-field changes the operator reviews. The API's patch rules (spec 2.4, the
 * patchPolicy operation of the operator OpenAPI document): objects merge one level deep, arrays and
 * scalars replace, null removes an optional field. Pure: no DOM, no fetch.
 */
import type { JsonSchema } from "./actions/openapi.js";

/** A policy, or the rules of one, as JSON. */
export type PolicyRules = Record<string, unknown>;

/**
 * Which policy fields a patch carries, and which of those it merges member by member. Read from the
 * operator OpenAPI document (patchShapeOf) so the console keeps no list of its own.
 */
export interface PatchShape {
  fields: readonly string[];
  merged: ReadonlySet<string>;
}

/**
 * The shape the patchPolicy operation states: a patchable field is a member of its body that the
 * policy it returns has too (the reason and the expected version are about the request, not the
 * rules); an object member the patch cannot null merges one level deep, one it can null (the meal
 * allowance, the prediction rules) is replaced whole.
 */
export function patchShapeOf(body: JsonSchema, policy: JsonSchema): PatchShape {
  const ofPolicy = policy.properties ?? {};
  const members = Object.entries(body.properties ?? {}).filter(([field]) => field in ofPolicy);
  return {
    fields: members.map(([field]) => field),
    merged: new Set(members.filter(([, schema]) => schema.type === "object").map(([field]) => field)),
  };
}

export interface PolicyChange {
  /** Dotted path, e.g. `constraints.minStars`. */
  path: string;
  /** Undefined where the field was absent. */
  before: unknown;
  /** Undefined where the edit removes the field (the patch sends null). */
  after: unknown;
}

export interface PolicyDiff {
  /** The patch body (without a reason); empty when nothing changes. */
  patch: PolicyRules;
  changes: PolicyChange[];
  /** Fields the edit changed that a patch cannot (the context, the state, the URN...). */
  notPatchable: string[];
}

/** The patchable part of a policy, the starting point of an edit. */
export function editableRules(policy: PolicyRules, shape: PatchShape): PolicyRules {
  const rules: PolicyRules = {};
  for (const field of shape.fields) {
    if (policy[field] !== undefined) rules[field] = policy[field];
  }
  return rules;
}

/** The patch that turns `before` into `after`, and the changes it makes. */
export function policyDiff(before: PolicyRules, after: PolicyRules, shape: PatchShape): PolicyDiff {
  const patch: PolicyRules = {};
  const changes: PolicyChange[] = [];
  for (const field of shape.fields) {
    const was = before[field];
    const now = after[field];
    if (sameValue(was, now)) continue;
    if (shape.merged.has(field) && isObject(now)) {
      const members = memberChanges(isObject(was) ? was : {}, now);
      if (Object.keys(members).length === 0) continue;
      patch[field] = members;
      for (const [member, value] of Object.entries(members)) {
        changes.push({
          path: `${field}.${member}`,
          before: isObject(was) ? was[member] : undefined,
          after: value === null ? undefined : value,
        });
      }
    } else {
      patch[field] = now === undefined ? null : now;
      changes.push({ path: field, before: was, after: now });
    }
  }
  const patchable = new Set(shape.fields);
  const notPatchable = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((field) => !patchable.has(field) && after[field] !== undefined)
    .filter((field) => !sameValue(before[field], after[field]))
    .sort();
  return { patch, changes, notPatchable };
}

/**
 * `rules` with `patch` applied as the API applies it: the inverse of policyDiff, so the changes an
 * operator made to one version can be carried onto a newer one.
 */
export function applyPatch(rules: PolicyRules, patch: PolicyRules, shape: PatchShape): PolicyRules {
  const next: PolicyRules = { ...rules };
  for (const [field, value] of Object.entries(patch)) {
    if (shape.merged.has(field) && isObject(value)) {
      const members: PolicyRules = { ...(isObject(rules[field]) ? rules[field] : {}) };
      for (const [member, memberValue] of Object.entries(value)) {
        if (memberValue === null) delete members[member];
        else members[member] = memberValue;
      }
      next[field] = members;
    } else if (value === null) {
      delete next[field];
    } else {
      next[field] = value;
    }
  }
  return next;
}

/** One level of merge: the members that differ, null for those the edit removed. */
function memberChanges(was: PolicyRules, now: PolicyRules): PolicyRules {
  const members: PolicyRules = {};
  for (const member of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (sameValue(was[member], now[member])) continue;
    members[member] = now[member] === undefined ? null : now[member];
  }
  return members;
}

function isObject(value: unknown): value is PolicyRules {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep equality of JSON values; member order does not count, array order does. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
    );
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => sameValue(a[key], b[key]));
}

/** How a value shows in the diff table: absent, or its JSON. */
export function shownValue(value: unknown): string {
  return value === undefined ? "(none)" : JSON.stringify(value);
}
