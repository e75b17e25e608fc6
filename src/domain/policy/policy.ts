import { DomainError } from "../domain-error.js";
import { TIERS, type Tier } from "./tiers.js";

/**
 * A policy: the versioned rule set that says which hotels are acceptable and how demand and
 * allocation behave for one context (spec 2.4). This file holds the shape, its vocabularies and the
 * defaults; the JSON Schema of the request bodies lives beside it in `policy-schema.ts`.
 */

/** The normalized amenity tags a policy may require (spec 2.4 constraints.requiredAmenities). */
export const AMENITIES = [
  "24H_RECEPTION",
  "AIRPORT_SHUTTLE",
  "WHEELCHAIR_ACCESSIBLE",
  "FREE_BREAKFAST",
] as const;
export type Amenity = (typeof AMENITIES)[number];

/** How a hotel can be paid (spec 2.4 acceptedPayments): a guarantee to the airline's account, or a card. */
export const PAYMENT_METHODS = ["GUARANTEE", "CARD"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const POLICY_MODES = ["BATCH", "ON_DEMAND"] as const;
export type PolicyMode = (typeof POLICY_MODES)[number];

export const POLICY_STATUSES = ["DRAFT", "ACTIVE", "ARCHIVED"] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

/** SHUTTLE and PRIVATE_CAR are the values the spec shows; TAXI covers the ride-provider route (4.1). */
export const TRANSPORT_MODES = ["SHUTTLE", "PRIVATE_CAR", "TAXI"] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];

/** A context field set to this (or left out) matches every airport or airline. */
export const ANY = "*";

export interface PolicyContext {
  /** IATA airport code, or `*`. */
  airport: string;
  /** Airline code, or `*`. */
  airline: string;
}

/**
 * What a hotel offer must satisfy to be acceptable (spec 2.4). The allocation gates read it with
 * every field optional: an absent field does not gate.
 */
export interface PolicyConstraints {
  /** 1 to 5; when set, unrated properties are excluded too. */
  minStars?: number;
  /** Great-circle distance from the airport. */
  maxDistanceKm?: number;
  /** Major units of the policy's currency; vendor rates are converted before comparing. */
  maxNightlyRate?: number;
  requiredAmenities: Amenity[];
  excludedChains: string[];
  /** Default [GUARANTEE] (POLICY_DEFAULTS). */
  acceptedPayments: PaymentMethod[];
  /** Inventory vendors allowed for this context; absent or empty means every vendor the tenant has. */
  allowProviders?: string[];
}

export interface PolicyBuffers {
  lateCheckoutMinutes: number;
  earlyCheckInMinutes: number;
}

/** How allocation weighs cost, distance and consolidation (spec 2.4 allocationWeights, 2.6). */
export interface AllocationWeights {
  cost: number;
  distance: number;
  consolidation: number;
}

export interface PolicyTransport {
  mode: TransportMode;
  perTier: Partial<Record<Tier, TransportMode>>;
  minutesBeforePickup?: number;
  shuttleCapacity?: number;
  /**
   * Whether a passenger may ask for a ride (spec 4.4 `POST /v1/me/transport/request`, "only when
   * policy allows"); absent means no.
   */
  passengerMayRequest?: boolean;
  /**
   * Whether the compensation saga books each group's rides with its offer; absent means yes. An
   * airline that pools its rides by hand sets false and uses the case-wide transfer request.
   */
  ridesWithOffer?: boolean;
}

/**
 * What the airline pays for meals and refreshments while its passengers wait. The regulations owe
 * meals "in a reasonable relation to the waiting time" without an amount, so the amount is the
 * airline's: per meal, per tier, and one meal for every started `minutesPerMeal` of waiting. The
 * entitlements (src/domain/entitlements) turn it into the meal allowance, the meal card's amount.
 */
export interface PolicyMealAllowance {
  /** Per meal, in major units of the policy's currency, for every tier `perTier` does not name. */
  amount: number;
  perTier?: Partial<Record<Tier, number>>;
  /**
   * Minutes of waiting from which the airline owes meals even where no regulation does (its policy
   * on top of them); absent: meals only where a regulation owes them.
   */
  fromMinutes?: number;
  /** One meal for every started period of this many minutes of waiting (DEFAULT_MINUTES_PER_MEAL). */
  minutesPerMeal?: number;
  /** Tiers whose meal card loads in scheduled drops (spec 8.2); the others' is loaded in full at issue. */
  scheduledDropTiers?: Tier[];
}

/** One meal for every started six hours of waiting: a wait through the night covers dinner and breakfast. */
export const DEFAULT_MINUTES_PER_MEAL = 360;

/**
 * How the flight predictor acts for this context (spec 6.1 "probability above the policy
 * threshold"): the threshold, and whether a flagged flight also gets a draft case, the case-creation
 * input (spec 2.1) an operator opens with POST /v1/cases.
 */
export interface PolicyPrediction {
  /** From 0 to 1; absent: DEFAULT_PREDICTION_THRESHOLD (src/domain/disruption-prediction.ts). */
  threshold?: number;
  /** Absent means no. */
  draftCase?: boolean;
}

/** Carried by a draft that was synthesized from a description (POST /policies/synthesize). */
export interface PolicyProvenance {
  source: "ai";
  confidence: number;
  prompt: string;
}

/** Everything a policy author decides, defaults filled in. */
export interface PolicyRules {
  name: string;
  context: PolicyContext;
  /** Tier names the policy applies to, in TIERS order; empty means every tier. */
  tiers: Tier[];
  constraints: PolicyConstraints;
  buffers: PolicyBuffers;
  mode: PolicyMode;
  autoApproveDemand: boolean;
  maxAutomaticRoomsPerWave: number;
  incrementalRequiresApproval: boolean;
  consolidationWeight: number;
  allocationWeights: AllocationWeights;
  transport: PolicyTransport;
  mealAllowance?: PolicyMealAllowance;
  prediction?: PolicyPrediction;
  provenance?: PolicyProvenance;
}

export interface Policy extends PolicyRules {
  urn: string;
  version: number;
  status: PolicyStatus;
  createdAt: string;
  updatedAt: string;
}

/** The create body (POST /policies) as `policyCreateSchema` accepts it. */
export interface PolicyInput {
  name: string;
  context: { airport?: string; airline?: string };
  tiers?: Tier[];
  constraints?: Partial<PolicyConstraints>;
  buffers?: Partial<PolicyBuffers>;
  mode?: PolicyMode;
  autoApproveDemand?: boolean;
  maxAutomaticRoomsPerWave?: number;
  incrementalRequiresApproval?: boolean;
  consolidationWeight?: number;
  allocationWeights?: Partial<AllocationWeights>;
  transport?: Partial<PolicyTransport>;
  mealAllowance?: PolicyMealAllowance;
  prediction?: PolicyPrediction;
  provenance?: PolicyProvenance;
}

/** Scoring weights of spec 2.6. */
export const DEFAULT_ALLOCATION_WEIGHTS: Readonly<AllocationWeights> = {
  cost: 0.6,
  distance: 0.25,
  consolidation: 0.15,
};

/**
 * Defaults not given by the spec are the cautious ones: demand waits for a supervisor unless the
 * author turns auto-approval on, no buffers are granted, and waves run as soon as demand is approved
 * because a disruption does not wait for a schedule.
 */
export const POLICY_DEFAULTS = {
  acceptedPayments: ["GUARANTEE"] as PaymentMethod[],
  lateCheckoutMinutes: 0,
  earlyCheckInMinutes: 0,
  mode: "ON_DEMAND" as PolicyMode,
  autoApproveDemand: false,
  maxAutomaticRoomsPerWave: 0,
  incrementalRequiresApproval: false,
  transportMode: "SHUTTLE" as TransportMode,
} as const;

/** Tier lists are kept deduplicated and in TIERS order, so equal sets compare equal. */
export function canonicalTiers(tiers: readonly Tier[]): Tier[] {
  return TIERS.filter((tier) => tiers.includes(tier));
}

/**
 * `consolidationWeight` and `allocationWeights.consolidation` name the same knob (spec 2.4 lists
 * both). One given alone sets the other; both given must agree.
 */
export function reconcileConsolidation(consolidationWeight?: number, allocationWeight?: number): number {
  if (
    consolidationWeight !== undefined &&
    allocationWeight !== undefined &&
    consolidationWeight !== allocationWeight
  ) {
    throw new DomainError(
      "invalid",
      "consolidation-weight-mismatch",
      "consolidationWeight and allocationWeights.consolidation must be equal when both are given",
      { consolidationWeight, allocationWeightsConsolidation: allocationWeight },
    );
  }
  return consolidationWeight ?? allocationWeight ?? DEFAULT_ALLOCATION_WEIGHTS.consolidation;
}

/** The rules of a create body with every default filled in. */
export function applyDefaults(input: PolicyInput): PolicyRules {
  const constraints = input.constraints ?? {};
  const consolidation = reconcileConsolidation(
    input.consolidationWeight,
    input.allocationWeights?.consolidation,
  );
  const transport = input.transport ?? {};
  return {
    name: input.name,
    context: { airport: input.context.airport ?? ANY, airline: input.context.airline ?? ANY },
    tiers: canonicalTiers(input.tiers ?? []),
    constraints: {
      ...optional("minStars", constraints.minStars),
      ...optional("maxDistanceKm", constraints.maxDistanceKm),
      ...optional("maxNightlyRate", constraints.maxNightlyRate),
      requiredAmenities: [...new Set(constraints.requiredAmenities ?? [])],
      excludedChains: [...new Set(constraints.excludedChains ?? [])],
      acceptedPayments: [...new Set(constraints.acceptedPayments ?? POLICY_DEFAULTS.acceptedPayments)],
      ...optional("allowProviders", constraints.allowProviders && [...new Set(constraints.allowProviders)]),
    },
    buffers: {
      lateCheckoutMinutes: input.buffers?.lateCheckoutMinutes ?? POLICY_DEFAULTS.lateCheckoutMinutes,
      earlyCheckInMinutes: input.buffers?.earlyCheckInMinutes ?? POLICY_DEFAULTS.earlyCheckInMinutes,
    },
    mode: input.mode ?? POLICY_DEFAULTS.mode,
    autoApproveDemand: input.autoApproveDemand ?? POLICY_DEFAULTS.autoApproveDemand,
    maxAutomaticRoomsPerWave: input.maxAutomaticRoomsPerWave ?? POLICY_DEFAULTS.maxAutomaticRoomsPerWave,
    incrementalRequiresApproval:
      input.incrementalRequiresApproval ?? POLICY_DEFAULTS.incrementalRequiresApproval,
    consolidationWeight: consolidation,
    allocationWeights: {
      cost: input.allocationWeights?.cost ?? DEFAULT_ALLOCATION_WEIGHTS.cost,
      distance: input.allocationWeights?.distance ?? DEFAULT_ALLOCATION_WEIGHTS.distance,
      consolidation,
    },
    transport: {
      mode: transport.mode ?? POLICY_DEFAULTS.transportMode,
      perTier: { ...transport.perTier },
      ...optional("minutesBeforePickup", transport.minutesBeforePickup),
      ...optional("shuttleCapacity", transport.shuttleCapacity),
      ...optional("passengerMayRequest", transport.passengerMayRequest),
      ...optional("ridesWithOffer", transport.ridesWithOffer),
    },
    ...optional("mealAllowance", input.mealAllowance),
    ...optional("prediction", input.prediction),
    ...optional("provenance", input.provenance),
  };
}

/** A new policy is a DRAFT at version 1 and has no effect until activated (spec 3.2). */
export function createPolicy(input: PolicyInput, urn: string, now: Date): Policy {
  const at = now.toISOString();
  return { urn, ...applyDefaults(input), version: 1, status: "DRAFT", createdAt: at, updatedAt: at };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
