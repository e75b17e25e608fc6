import { type CaseRecord } from "../../domain/case.js";
import type { Policy } from "../../domain/policy/policy.js";
import { passengerTier } from "../../domain/policy/tiers.js";
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
  const tiers = new Set(record.passengerGroups.flatMap((g) => g.passengers.map((p) => passengerTier(p))));
  const [only] = tiers;
  return index.resolve(record.tenant, {
    airport: record.flight.origin,
    ...(tiers.size === 1 && only !== undefined ? { tier: only } : {}),
  });
}
