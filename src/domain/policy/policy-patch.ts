import { DomainError } from "../domain-error.js";
import {
  canonicalTiers,
  type Policy,
  type PolicyConstraints,
  type PolicyInput,
  type PolicyMealAllowance,
  type PolicyPrediction,
  type PolicyTransport,
  reconcileConsolidation,
} from "./policy.js";
import { policyContextKey } from "./policy-context.js";
import type { PolicyChange } from "./policy-lifecycle.js";

/**
 * The patch body as `policyPatchSchema` accepts it: the create body's fields, each optional, less
 * the context (a policy keeps its context); in constraints and transport, null removes an optional
 * field.
 */
export type PolicyPatch = Partial<
  Pick<
    PolicyInput,
    | "name"
    | "tiers"
    | "buffers"
    | "mode"
    | "autoApproveDemand"
    | "maxAutomaticRoomsPerWave"
    | "incrementalRequiresApproval"
    | "consolidationWeight"
    | "allocationWeights"
  >
> & {
  reason?: string;
  /** The version the caller read: a policy changed since is refused rather than overwritten. */
  expectedVersion?: number;
  constraints?: Nullable<
    Pick<PolicyConstraints, "minStars" | "maxDistanceKm" | "maxNightlyRate" | "allowProviders">
  > &
    Partial<Pick<PolicyConstraints, "requiredAmenities" | "excludedChains" | "acceptedPayments">>;
  transport?: Partial<Pick<PolicyTransport, "mode" | "perTier">> &
    Nullable<
      Pick<
        PolicyTransport,
        "minutesBeforePickup" | "shuttleCapacity" | "passengerMayRequest" | "ridesWithOffer"
      >
    >;
  /** Replaces the whole allowance; null removes it. */
  mealAllowance?: PolicyMealAllowance | null;
  /** Replaces the prediction rules; null removes them. */
  prediction?: PolicyPrediction | null;
};

/** Each field optional, and null where it may be removed. */
type Nullable<T> = { [K in keyof T]?: T[K] | null };

export interface PolicyPatchResult extends PolicyChange {
  reason?: string;
}

/**
 * Applies a patch and bumps the version (spec 2.4). The status is kept: patching an ACTIVE policy
 * changes the live rules, so its tier set may not change there, or two active policies could end
 * up sharing a context; deactivate it first, or create a new policy.
 */
export function patchPolicy(policy: Policy, patch: PolicyPatch, now: Date): PolicyPatchResult {
  const { reason, expectedVersion, ...changes } = patch;
  // Spec 7: a concurrent write is a 409 with the current state; the editor reloads and retries.
  if (expectedVersion !== undefined && expectedVersion !== policy.version) {
    throw new DomainError("conflict", "version-mismatch", `Policy ${policy.urn} changed since it was read`, {
      currentVersion: policy.version,
    });
  }
  if (Object.values(changes).every((value) => value === undefined)) {
    throw new DomainError("invalid", "empty-patch", "The patch changes no field");
  }
  const tiers = changes.tiers ? canonicalTiers(changes.tiers) : policy.tiers;
  if (
    policy.status === "ACTIVE" &&
    policyContextKey({ context: policy.context, tiers }) !== policyContextKey(policy)
  ) {
    throw new DomainError(
      "conflict",
      "active-policy-context-change",
      `Policy ${policy.urn} is ACTIVE: its tier set cannot change`,
      { tiers: policy.tiers },
    );
  }
  const consolidation =
    changes.consolidationWeight !== undefined || changes.allocationWeights?.consolidation !== undefined
      ? reconcileConsolidation(changes.consolidationWeight, changes.allocationWeights?.consolidation)
      : policy.consolidationWeight;

  const { mealAllowance: _previousAllowance, prediction: _previousPrediction, ...kept } = policy;
  const mealAllowance = changes.mealAllowance === undefined ? policy.mealAllowance : changes.mealAllowance;
  const prediction = changes.prediction === undefined ? policy.prediction : changes.prediction;
  const after: Policy = {
    ...kept,
    ...(mealAllowance ? { mealAllowance } : {}),
    ...(prediction ? { prediction } : {}),
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    tiers,
    constraints: mergeRemovable(policy.constraints, changes.constraints),
    buffers: { ...policy.buffers, ...definedOnly(changes.buffers) },
    mode: changes.mode ?? policy.mode,
    autoApproveDemand: changes.autoApproveDemand ?? policy.autoApproveDemand,
    maxAutomaticRoomsPerWave: changes.maxAutomaticRoomsPerWave ?? policy.maxAutomaticRoomsPerWave,
    incrementalRequiresApproval: changes.incrementalRequiresApproval ?? policy.incrementalRequiresApproval,
    consolidationWeight: consolidation,
    allocationWeights: {
      ...policy.allocationWeights,
      ...definedOnly(changes.allocationWeights),
      consolidation,
    },
    transport: mergeRemovable(policy.transport, changes.transport),
    version: policy.version + 1,
    updatedAt: now.toISOString(),
  };
  return { before: policy, after, ...(reason !== undefined ? { reason } : {}) };
}

/** One level of JSON Merge Patch: absent keeps, null removes, a value replaces. */
function mergeRemovable<T extends object>(target: T, patch: object | undefined): T {
  const merged: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return merged as T;
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}
