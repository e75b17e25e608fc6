import { inject, injectable } from "tsyringe";
import { CaseActor, type CaseSnapshot } from "../../../actors/CaseActor.js";
import { caseNotFound, type PassengerGroup } from "../../domain/case.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
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
import { policyCurrencyOf } from "../../domain/policy/policy-currency.js";
import type { Policy } from "../../domain/policy/policy.js";
import { passengerTier, type Tier } from "../../domain/policy/tiers.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { assertTenant } from "../authorization.js";
import { CaseChanges, caseRefOf } from "./case-changes.js";
import { type Airport, airportByCode, type Directory } from "../directory.js";
import { PolicyIndex } from "../policies/policy-index.js";
import type { Principal } from "../principals.js";
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

/** What a case contributes to the evaluation, the same for every read of one case version. */
interface CaseFacts {
  version: number;
  tenant: string;
  airport: string;
  facts: Omit<DisruptionFacts, "policy">;
  /** Each group's passengers' tiers, in manifest order. */
  groups: { id: string; tiers: Tier[] }[];
  /** Evaluations of these facts by policy (URN and version, or none): a policy's rules change with its version. */
  evaluations: Map<string, Entitlements>;
  /**
   * The whole case's view under the policies it was evaluated under (their keys, general policy
   * first): the same object while neither the case nor a policy changes, so a reader can tell.
   */
  whole?: { policies: string; view: CaseEntitlementsView };
}

/** Case versions whose facts are kept; the oldest goes first. */
const KEPT_CASES = 1000;

/**
 * Gathers the facts of a case for the entitlements evaluation: the airports (country and
 * coordinates from the directory), the airline's licence country, the disruption's kind and cause
 * (the pushed disruption, else the flight's status), the new departure (the case's next flight),
 * whether a night's stay is needed (the stay rules a wave applies), and the policy with its
 * currency. A fact the service does not know is passed as unknown; the evaluation says what it
 * then assumes.
 *
 * The facts of a case change only with its version, so they are kept per version: a passenger's
 * offer then reads the case's small outline rather than the whole manifest. The policies are read
 * on every evaluation, so an activated or patched policy shows at once.
 */
@injectable()
export class CaseEntitlements {
  private readonly kept = new Map<string, CaseFacts>();

  constructor(
    @inject(TOKENS.directory) private readonly directory: Directory,
    @inject(PolicyIndex) private readonly policies: PolicyIndex,
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly cases: CaseChanges,
  ) {}

  /**
   * The case's entitlements, with the meal allowance of every tier its passengers travel in: the
   * same object as the last time while the case's version and its policies' versions are the
   * same, so it is read-only.
   */
  async of(snapshot: DeepReadonly<CaseSnapshot>): Promise<DeepReadonly<CaseEntitlementsView>> {
    const facts = await this.factsOfSnapshot(snapshot);
    const { policies, view } = await this.evaluate(facts, facts.groups);
    if (facts.whole?.policies !== policies) facts.whole = { policies, view };
    return facts.whole.view;
  }

  /**
   * The entitlements of a caller's group in a case, read from the case's outline while the kept
   * facts are of its current version (the passenger's offer).
   */
  async ofGroupInCase(caller: Principal, caseUrn: string, groupId: string): Promise<CaseEntitlementsView> {
    const facts = await this.factsOfCurrent(caseUrn, caller);
    return (
      await this.evaluate(
        facts,
        facts.groups.filter((g) => g.id === groupId),
      )
    ).view;
  }

  /**
   * The meal card's amount for a group (spec 2.7: one card per case and group, shared by the
   * group): the sum of each passenger's meal allowance for their tier and the wait. Zero when no
   * meal is owed; undefined when no amount is known.
   */
  async groupMealAllowance(caseUrn: string, groupId: string): Promise<Money | undefined> {
    const facts = await this.factsOfCurrent(caseUrn);
    const group = facts.groups.filter((g) => g.id === groupId);
    return (await this.evaluate(facts, group)).view.groups[0]?.amount ?? undefined;
  }

  /**
   * The facts of the case's current version, from its outline while the kept ones are of it; the
   * whole case is read only when it changed. With `caller`, the caller's tenant is checked first.
   */
  private async factsOfCurrent(caseUrn: string, caller?: Principal): Promise<CaseFacts> {
    const { id, urn } = caseRefOf(caseUrn);
    const outline = await this.actors.invoke(CaseActor, id, "outline");
    if (!outline) throw caseNotFound(id);
    if (caller) assertTenant(caller, outline.tenant);
    const kept = this.kept.get(urn);
    return kept && kept.version === outline.version
      ? kept
      : this.factsOfSnapshot(await this.cases.snapshot(urn, caller));
  }

  /** The view of `groups`, and the keys of the policies it was evaluated under (see `policyKey`). */
  private async evaluate(
    caseFacts: CaseFacts,
    groups: readonly CaseFacts["groups"][number][],
  ): Promise<{ policies: string; view: CaseEntitlementsView }> {
    const { tenant, airport } = caseFacts;
    // Loops, not flatMap: a full flight's 150 groups took flatMap about 0.2 ms on every case read.
    const present = new Set<Tier>();
    for (const group of groups) for (const tier of group.tiers) present.add(tier);
    const tiers = [...present];
    const resolved = await this.policies.resolveEach(tenant, airport, [undefined, ...tiers]);
    const policies = resolved.map(policyKey).join(" ");
    const kept = caseFacts.whole;
    if (kept && kept.policies === policies && groups === caseFacts.groups) return kept;
    const [general, ...perTier] = resolved;
    const evaluation = evaluatedUnder(caseFacts, general);
    const byTier = new Map<Tier, TierMealAllowance | undefined>(
      tiers.map((tier, i) => [
        tier,
        evaluatedUnder(caseFacts, perTier[i]).mealAllowance.perTier.find((entry) => entry.tier === tier),
      ]),
    );
    const known = [...byTier.values()].filter((entry): entry is TierMealAllowance => !!entry);
    return {
      policies,
      view: {
        ...evaluation,
        mealAllowance: { ...evaluation.mealAllowance, perTier: known },
        groups: groups.map((group) => ({ groupId: group.id, amount: groupTotal(group.tiers, byTier) })),
      },
    };
  }

  private async factsOfSnapshot(snapshot: DeepReadonly<CaseSnapshot>): Promise<CaseFacts> {
    const { case: record } = snapshot;
    const kept = this.kept.get(record.urn);
    if (kept && kept.version === record.version) return kept;
    const facts: CaseFacts = {
      version: record.version,
      tenant: record.tenant,
      airport: record.flight.origin,
      facts: await this.disruptionFacts(snapshot),
      groups: record.passengerGroups.map(tiersOf),
      evaluations: new Map(),
    };
    this.kept.delete(record.urn);
    this.kept.set(record.urn, facts);
    if (this.kept.size > KEPT_CASES) this.kept.delete(this.kept.keys().next().value as string);
    return facts;
  }

  private async disruptionFacts(snapshot: DeepReadonly<CaseSnapshot>): Promise<CaseFacts["facts"]> {
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

/** The evaluation of a case's facts under a policy, evaluated once per policy version. */
function evaluatedUnder(caseFacts: CaseFacts, policy: Policy | undefined): Entitlements {
  const key = policyKey(policy);
  let evaluation = caseFacts.evaluations.get(key);
  if (!evaluation) {
    evaluation = evaluateEntitlements({ ...caseFacts.facts, policy: policyFacts(policy) });
    caseFacts.evaluations.set(key, evaluation);
  }
  return evaluation;
}

/** A policy's rules change with its version: its URN and version name them (none: the empty key). */
function policyKey(policy: Policy | undefined): string {
  return policy ? `${policy.urn}@${policy.version}` : "";
}

function airportFacts(code: string, airport: Airport | undefined): AirportFacts {
  return airport
    ? { code, country: airport.country, coordinates: { lat: airport.lat, lon: airport.lon } }
    : { code, country: null, coordinates: null };
}

function policyFacts(policy: Policy | undefined): DisruptionFacts["policy"] {
  if (!policy) return null;
  return {
    urn: policy.urn,
    version: policy.version,
    ...(policy.mealAllowance ? { mealAllowance: policy.mealAllowance } : {}),
  };
}

/** A passenger without a known tier is allowed what ECONOMY is (see `mealAllowance`). */
function tiersOf(group: DeepReadonly<PassengerGroup>): CaseFacts["groups"][number] {
  return { id: group.id, tiers: group.passengers.map((p) => passengerTier(p) ?? "ECONOMY") };
}

function groupTotal(tiers: readonly Tier[], byTier: Map<Tier, TierMealAllowance | undefined>): Money | null {
  let total: Money | undefined;
  for (const tier of tiers) {
    const entry = byTier.get(tier);
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
