import type { Tier } from "./tiers.js";
import { ANY, type Policy } from "./policy.js";

export interface PolicyQuery {
  airport: string;
  airline: string;
  /** Absent: only policies that apply to every tier match. */
  tier?: Tier;
}

/**
 * The ACTIVE policy that applies to a case context (spec 3.2: DRAFT and ARCHIVED policies have no
 * effect), or undefined when none matches (the case then goes to manual review, spec 3.3).
 *
 * A policy matches when its airport and airline are the query's or `*`, and its tier list is empty
 * or holds the query's tier. Among matches the most specific wins, compared field by field:
 *   1. an exact airport beats `*` (airport rules carry the local hotel limits),
 *   2. then a policy listing the tier beats one for every tier, and a shorter tier list beats a
 *      longer one (it was written for fewer passengers),
 *   3. then an exact airline beats `*` (a tenant is one airline, so this rarely decides),
 *   4. then the most recently changed policy, and last the URN, so the answer never depends on
 *      the order policies were loaded in.
 */
export function resolvePolicy(activePolicies: readonly Policy[], query: PolicyQuery): Policy | undefined {
  const matches = activePolicies.filter((policy) => policy.status === "ACTIVE" && applies(policy, query));
  return matches.sort(moreSpecificFirst(query))[0];
}

function applies(policy: Policy, query: PolicyQuery): boolean {
  const { airport, airline } = policy.context;
  return (
    (airport === ANY || airport === query.airport) &&
    (airline === ANY || airline === query.airline) &&
    (policy.tiers.length === 0 || (query.tier !== undefined && policy.tiers.includes(query.tier)))
  );
}

function moreSpecificFirst(query: PolicyQuery) {
  return (a: Policy, b: Policy): number =>
    exact(b.context.airport, query.airport) - exact(a.context.airport, query.airport) ||
    tierRank(a) - tierRank(b) ||
    exact(b.context.airline, query.airline) - exact(a.context.airline, query.airline) ||
    compareText(b.updatedAt, a.updatedAt) ||
    compareText(a.urn, b.urn);
}

function exact(value: string, wanted: string): number {
  return value === wanted ? 1 : 0;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Lower is more specific: a listed tier with few companions first, "every tier" last. */
function tierRank(policy: Policy): number {
  return policy.tiers.length === 0 ? Number.MAX_SAFE_INTEGER : policy.tiers.length;
}
