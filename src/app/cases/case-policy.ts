import { type CaseRecord } from "../../domain/case.js";
import type { Policy } from "../../domain/policy/policy.js";
import { caseTier, type Tier } from "../../domain/policy/tiers.js";
import type { PolicyIndex } from "../policies/policy-index.js";

/**
 * The policy that governs a case's demand: the airline's most specific ACTIVE policy for the
 * flight's origin airport. When every passenger travels in one tier, a policy written for that
 * tier applies; a case spanning tiers (or with unknown tiers) uses a policy for every tier, since a
 * policy written for some passengers must not approve rooms for the others.
 */
export function policyForCase(
  index: PolicyIndex,
  record: Pick<CaseRecord, "tenant" | "flight" | "passengerGroups">,
): Promise<Policy | undefined> {
  return policyForScope(index, {
    tenant: record.tenant,
    airport: record.flight.origin,
    tier: caseTier(record.passengerGroups),
  });
}

/** As policyForCase, from what a reader of one group learns of its case (CaseActor.groupView). */
export function policyForScope(
  index: PolicyIndex,
  scope: { tenant: string; airport: string; tier: Tier | null },
): Promise<Policy | undefined> {
  return index.resolve(scope.tenant, { airport: scope.airport, ...(scope.tier ? { tier: scope.tier } : {}) });
}
