import { fromMajor, type Money, money, times } from "../money.js";
import { DEFAULT_MINUTES_PER_MEAL, type PolicyMealAllowance } from "../policy/policy.js";
import { TIERS, type Tier } from "../policy/tiers.js";

/**
 * The meal allowance: what a passenger's meals and refreshments are worth while the group waits,
 * which becomes the amount of the group's meal card (spec 2.7). The regimes say when meals are owed
 * (`evaluation.ts`) and never how much; the amount per meal is the airline policy's
 * (`PolicyMealAllowance`), else the service default below.
 */

/**
 * Per-meal amounts used when the policy sets none, in minor units, for the currencies of the demo
 * airports. They are the service's defaults, not any regulation's (none fixes an amount); an airline
 * sets its own with the policy's `mealAllowance`.
 */
export const DEFAULT_MEAL_AMOUNT_MINOR: Readonly<Record<string, number>> = {
  EUR: 1500,
  GBP: 1200,
  USD: 1500,
  BRL: 5000,
};

export interface TierMealAllowance {
  tier: Tier;
  perMeal: Money;
  /** perMeal times the meals the wait covers; zero when no meal is owed. */
  amount: Money;
}

export interface MealAllowance {
  /** Whether a regime (or the airline policy) owes meals for this wait. */
  owed: boolean;
  /** Meals the wait covers; zero when none is owed. */
  meals: number;
  minutesPerMeal: number;
  /** The policy's currency; null when the departure airport's currency is unknown. */
  currency: string | null;
  /** Every tier's allowance; empty when no amount is known (no policy amount, no default). */
  perTier: TierMealAllowance[];
  source: string;
}

export interface MealAllowanceInput {
  owed: boolean;
  /** Null while the passengers have no new departure: one meal. */
  waitingMinutes: number | null;
  currency: string | null;
  policy: { urn: string; version: number; mealAllowance?: PolicyMealAllowance } | null;
}

/** Meals a wait covers: one per started `minutesPerMeal`, at least one. */
export function mealsForWait(waitingMinutes: number | null, minutesPerMeal: number): number {
  if (waitingMinutes === null || waitingMinutes <= 0) return 1;
  return Math.ceil(waitingMinutes / minutesPerMeal);
}

export function mealAllowanceFor(input: MealAllowanceInput): MealAllowance {
  const allowance = input.policy?.mealAllowance;
  const minutesPerMeal = allowance?.minutesPerMeal ?? DEFAULT_MINUTES_PER_MEAL;
  const meals = input.owed ? mealsForWait(input.waitingMinutes, minutesPerMeal) : 0;
  const base = { owed: input.owed, meals, minutesPerMeal, currency: input.currency };
  const { currency } = input;
  if (!currency) {
    return { ...base, perTier: [], source: "no amount: the departure airport's currency is unknown" };
  }
  const perMealOf = perMealAmounts(allowance, currency);
  if (!perMealOf) {
    return {
      ...base,
      perTier: [],
      source: `no amount: the policy sets no mealAllowance and the service has no default in ${currency}`,
    };
  }
  return {
    ...base,
    perTier: TIERS.map((tier) => ({ tier, perMeal: perMealOf(tier), amount: times(perMealOf(tier), meals) })),
    source:
      allowance && input.policy
        ? `airline policy ${input.policy.urn} (version ${input.policy.version}), mealAllowance`
        : `service default per meal in ${currency} (no regulation fixes an amount; a policy sets its own with mealAllowance)`,
  };
}

function perMealAmounts(
  allowance: PolicyMealAllowance | undefined,
  currency: string,
): ((tier: Tier) => Money) | undefined {
  if (allowance) return (tier) => fromMajor(allowance.perTier?.[tier] ?? allowance.amount, currency);
  const minor = DEFAULT_MEAL_AMOUNT_MINOR[currency];
  return minor === undefined ? undefined : () => money(minor, currency);
}

/**
 * The meal card's amount for a passenger of `tier`: the tier's allowance for the wait, zero when no
 * meal is owed, undefined when no amount is known. A passenger without a known tier gets the
 * ECONOMY allowance (the policy's base amount unless it names ECONOMY).
 */
export function mealAllowance(allowance: MealAllowance, tier: Tier | undefined): Money | undefined {
  return allowance.perTier.find((entry) => entry.tier === (tier ?? "ECONOMY"))?.amount;
}
