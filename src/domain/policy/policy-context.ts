import { canonicalTiers, type PolicyRules } from "./policy.js";

/**
 * Two policies share a context when they have the same airport, airline and tier set (spec 3.2);
 * only one policy per context is ACTIVE. The key compares tier sets regardless of order.
 */
export function policyContextKey(policy: Pick<PolicyRules, "context" | "tiers">): string {
  const { airport, airline } = policy.context;
  return `${airport}|${airline}|${canonicalTiers(policy.tiers).join(",")}`;
}
