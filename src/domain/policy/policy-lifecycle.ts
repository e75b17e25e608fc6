import { DomainError } from "../domain-error.js";
import type { Policy, PolicyStatus } from "./policy.js";
import { policyContextKey } from "./policy-context.js";

/**
 * The policy state machine (spec 3.2): created DRAFT (no effect), activated to ACTIVE, deactivated
 * to ARCHIVED, and an ARCHIVED policy activated again is a rollback. Every function returns
 * before/after snapshots because each change is audited with both.
 */

export interface PolicyChange {
  before: Policy;
  after: Policy;
}

export interface Activation {
  activated: PolicyChange;
  /** The policies of the same context that were active until now; the caller stores all atomically. */
  archived: PolicyChange[];
  /** False when the policy was already ACTIVE: nothing to store or audit. */
  changed: boolean;
}

/**
 * Activates a DRAFT or ARCHIVED policy. `activePolicies` may hold every active policy of the
 * tenant: only those of the same context (and not this policy) are archived.
 */
export function activate(policy: Policy, activePolicies: readonly Policy[], now: Date): Activation {
  if (policy.status === "ACTIVE") {
    return { activated: { before: policy, after: policy }, archived: [], changed: false };
  }
  const key = policyContextKey(policy);
  const archived = activePolicies
    .filter(
      (other) => other.status === "ACTIVE" && other.urn !== policy.urn && policyContextKey(other) === key,
    )
    .map((other) => moved(other, "ARCHIVED", now));
  return { activated: moved(policy, "ACTIVE", now), archived, changed: true };
}

/** ACTIVE to ARCHIVED; repeating it on an ARCHIVED policy changes nothing. */
export function deactivate(policy: Policy, now: Date): PolicyChange & { changed: boolean } {
  if (policy.status === "ARCHIVED") return { before: policy, after: policy, changed: false };
  if (policy.status !== "ACTIVE") {
    throw new DomainError(
      "conflict",
      "policy-not-active",
      `Policy ${policy.urn} is ${policy.status}, not ACTIVE`,
      {
        status: policy.status,
      },
    );
  }
  return { ...moved(policy, "ARCHIVED", now), changed: true };
}

function moved(policy: Policy, status: PolicyStatus, now: Date): PolicyChange {
  return { before: policy, after: { ...policy, status, updatedAt: now.toISOString() } };
}
