import { inject, injectable } from "tsyringe";
import type { CaseSnapshot } from "../../../actors/CaseActor.js";
import type { PassengerGroup } from "../../domain/case.js";
import { DomainError } from "../../domain/domain-error.js";
import { disruptionCause, disruptionKind } from "../../domain/entitlements/disruption-cause.js";
import {
  type AirportFacts,
  type DisruptionFacts,
  type Entitlements,
  evaluateEntitlements,
} from "../../domain/entitlements/evaluation.js";
import type { TierMealAllowance } from "../../domain/entitlements/meal-allowance.js";
import { type Money, plus } from "../../domain/money.js";
import { passengerTier, type Tier } from "../../domain/policy/tiers.js";
import { TOKENS } from "../../runtime/tokens.js";
import { policyCurrencyOf } from "../../domain/policy/policy-currency.js";
import { type Airport, airportByCode, type Directory } from "../directory.js";
import { PolicyIndex } from "../policies/policy-index.js";
import { utcOffsetMinutesAt } from "../stays/airport-time.js";
import { stayNeedsOf } from "../stays/wave-stays.js";

/** A group's meal allowance: the sum of its passengers', the amount of the group's meal card (spec 2.7). */
export interface GroupMealAllowance {
  groupId: string;
  /** Null when no amount is known (no policy amount and no default in the currency). */
  amount: Money | null;
}

/**
 * What the passengers of a case are owed (src/domain/entitlements), as the operator's case read
 * and the passenger's offer show it: the care of every regime covering the flight, evaluated under
 * the policy of the departure airport, with the meal allowance of each tier present under that
 * tier's policy, and each group's total.
 */
export interface CaseEntitlementsView extends Entitlements {
  groups: GroupMealAllowance[];
}

/**
 * Gathers the facts of a case for the entitlements evaluation: the airports (country and
 * coordinates from the directory), the airline's licence country, the disruption's kind and cause
 * (the pushed disruption, else the flight's status), the new departure (the case's next flight),
 * whether a night's stay is needed (the stay rules a wave applies), and the policy with its
 * currency. A fact the service does not know is passed as unknown; the evaluation says what it
 * then assumes.
 */
@injectable()
export class CaseEntitlements {
  constructor(
    @inject(TOKENS.directory) private readonly directory: Directory,
    @inject(PolicyIndex) private readonly policies: PolicyIndex,
  ) {}

  /** The case's entitlements, with the meal allowance of every tier its passengers travel in. */
  async of(snapshot: CaseSnapshot): Promise<CaseEntitlementsView> {
    return this.forGroups(snapshot, snapshot.case.passengerGroups);
  }

  /** The entitlements as one group sees them: its tiers' meal allowances and its total. */
  async ofGroup(snapshot: CaseSnapshot, groupId: string): Promise<CaseEntitlementsView> {
    return this.forGroups(
      snapshot,
      snapshot.case.passengerGroups.filter((g) => g.id === groupId),
    );
  }

  /**
   * The meal card's amount for a group (spec 2.7: one card per case and group, shared by the
   * group): the sum of each passenger's meal allowance for their tier and the wait. Zero when no
   * meal is owed; undefined when no amount is known.
   */
  async groupMealAllowance(snapshot: CaseSnapshot, groupId: string): Promise<Money | undefined> {
    return (await this.ofGroup(snapshot, groupId)).groups[0]?.amount ?? undefined;
  }

  private async forGroups(
    snapshot: CaseSnapshot,
    groups: readonly PassengerGroup[],
  ): Promise<CaseEntitlementsView> {
    const facts = await this.factsOf(snapshot);
    const airport = snapshot.case.flight.origin;
    const tiers = [...new Set(groups.flatMap((g) => g.passengers.map(tierOf)))];
    const [general, ...perTier] = await Promise.all([
      this.policies.resolve(snapshot.case.tenant, { airport }),
      ...tiers.map((tier) => this.policies.resolve(snapshot.case.tenant, { airport, tier })),
    ]);
    const evaluation = evaluateEntitlements({ ...facts, policy: policyFacts(general) });
    const byTier = new Map<Tier, TierMealAllowance | undefined>(
      tiers.map((tier, i) => {
        const underTierPolicy = evaluateEntitlements({ ...facts, policy: policyFacts(perTier[i]) });
        return [tier, underTierPolicy.mealAllowance.perTier.find((entry) => entry.tier === tier)];
      }),
    );
    const known = [...byTier.values()].filter((entry): entry is TierMealAllowance => !!entry);
    return {
      ...evaluation,
      mealAllowance: { ...evaluation.mealAllowance, perTier: known },
      groups: groups.map((group) => ({
        groupId: group.id,
        amount: groupTotal(group, byTier),
      })),
    };
  }

  private async factsOf(snapshot: CaseSnapshot): Promise<Omit<DisruptionFacts, "policy">> {
    const { case: record, intake } = snapshot;
    const { flight } = record;
    const [departure, arrival, organization] = await Promise.all([
      airportByCode(this.directory, flight.origin),
      airportByCode(this.directory, flight.destination),
      this.directory.findOrganization(record.tenant),
    ]);
    return {
      departure: airportFacts(flight.origin, departure),
      arrival: airportFacts(flight.destination, arrival),
      carrierCountry: organization?.country ?? null,
      kind: disruptionKind(intake.disruption?.type ?? flight.status),
      cause: disruptionCause(intake.disruption?.reason),
      scheduledDeparture: flight.scheduledDeparture,
      newDeparture: record.nextFlight?.scheduledDeparture ?? null,
      overnight: departure
        ? stayNeedsOf(snapshot, utcOffsetMinutesAt(departure, Date.parse(flight.scheduledDeparture))).stay !==
          undefined
        : snapshot.stayPlan?.overnightGap === true,
      currency: departure ? currencyOf(departure.country) : null,
    };
  }
}

function airportFacts(code: string, airport: Airport | undefined): AirportFacts {
  return airport
    ? { code, country: airport.country, coordinates: { lat: airport.lat, lon: airport.lon } }
    : { code, country: null, coordinates: null };
}

function policyFacts(policy: Awaited<ReturnType<PolicyIndex["resolve"]>>): DisruptionFacts["policy"] {
  if (!policy) return null;
  return {
    urn: policy.urn,
    version: policy.version,
    ...(policy.mealAllowance ? { mealAllowance: policy.mealAllowance } : {}),
  };
}

/** A passenger without a known tier is allowed what ECONOMY is (see `mealAllowance`). */
function tierOf(passenger: PassengerGroup["passengers"][number]): Tier {
  return passengerTier(passenger) ?? "ECONOMY";
}

function groupTotal(group: PassengerGroup, byTier: Map<Tier, TierMealAllowance | undefined>): Money | null {
  let total: Money | undefined;
  for (const passenger of group.passengers) {
    const entry = byTier.get(tierOf(passenger));
    if (!entry) return null;
    total = total ? plus(total, entry.amount) : entry.amount;
  }
  return total ?? null;
}

/** The policy's currency, or null for a country the service has no currency for. */
function currencyOf(country: string): string | null {
  try {
    return policyCurrencyOf(country);
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}
