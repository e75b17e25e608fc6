import { type Coordinates, greatCircleKm } from "../geo.js";
import type { PolicyMealAllowance } from "../policy/policy.js";
import type { DisruptionCause, DisruptionKind } from "./disruption-cause.js";
import { type BandRule, distanceBand, UNKNOWN_DISTANCE_RULE } from "./distance-band.js";
import { type MealAllowance, mealAllowanceFor } from "./meal-allowance.js";
import {
  type CareItemKind,
  type CareRule,
  EU261_COUNTRIES,
  isEuCarrier,
  isUkCarrier,
  REGIME_RULES,
  type Regime,
  type RegimeRules,
  regimeOfCountry,
  UK261_COUNTRIES,
} from "./regimes.js";

/**
 * What each passenger of a disrupted flight is owed: per regime that covers the flight, the care
 * items (meals and refreshments, communications, hotel, transport between airport and hotel) with
 * the rule that owes each, and the meal allowance the meal card carries. Pure: the caller gathers
 * the facts (airports, carrier, times, the policy) and this decides.
 */

export interface AirportFacts {
  /** IATA code. */
  code: string;
  /** ISO 3166-1 alpha-2; null when the airport is not known to the service. */
  country: string | null;
  coordinates: Coordinates | null;
}

export interface DisruptionFacts {
  departure: AirportFacts;
  arrival: AirportFacts;
  /** Country of the operating carrier's licence (EU261/UK261 Art. 2(c)); null when unknown. */
  carrierCountry: string | null;
  kind: DisruptionKind;
  cause: DisruptionCause;
  /** ISO 8601: the disrupted flight's scheduled departure. */
  scheduledDeparture: string;
  /** ISO 8601: the departure the passengers were re-accommodated on; null while they have none. */
  newDeparture: string | null;
  /** Whether the wait makes a night's stay necessary (the stay rules of src/domain/reaccommodation.ts). */
  overnight: boolean;
  /** The currency of the policy's amounts; null when unknown. */
  currency: string | null;
  /** The airline policy that applies at the departure airport, if any. */
  policy: { urn: string; version: number; mealAllowance?: PolicyMealAllowance } | null;
}

export interface CareItem {
  item: CareItemKind;
  owed: boolean;
  /** Minutes of waiting from which the item is owed. */
  fromMinutes: number;
  /** How many, where the rule counts them (two communications under EU261/UK261). */
  count?: number;
  /** Why it is owed or not, in words. */
  reason: string;
  source: string;
}

export interface RegimeEntitlement {
  regime: Regime | "AIRLINE_POLICY";
  name: string;
  source: string;
  /** Why the regime covers this flight. */
  scope: string;
  /** EU261/UK261: the distance band that sets the delay threshold; null elsewhere. */
  distanceBand: (Omit<BandRule, "band"> & { band: BandRule["band"] | null }) | null;
  care: CareItem[];
}

export interface Entitlements {
  departure: string;
  arrival: string;
  /** Great-circle distance, one decimal; null when an airport's coordinates are unknown. */
  distanceKm: number | null;
  disruption: DisruptionKind;
  cause: DisruptionCause;
  /** From the scheduled to the new departure; null while there is no new departure. */
  waitingMinutes: number | null;
  overnight: boolean;
  /** Every regime that covers the flight, then the airline policy when it owes meals of its own. */
  regimes: RegimeEntitlement[];
  mealAllowance: MealAllowance;
}

interface Coverage {
  rules: RegimeRules;
  scope: string;
  /** Both airports in the regime's territory (EU261 "intra-Community"; within the UK). */
  domestic: boolean;
}

/** Regimes whose care is statutory where the passengers wait; they exclude the arrival rules below. */
const STATUTORY_AT_DEPARTURE: ReadonlySet<Regime> = new Set(["EU261", "UK261", "ANAC400"]);

/**
 * The regimes covering a flight. The departure airport's own regime always does. EU261 Art. 3(1)(b)
 * adds flights arriving in the EU from outside on an EU carrier, and UK261 Art. 3(1)(b) flights
 * arriving in the UK on a UK or EU carrier, both "unless they received benefits or compensation and
 * were given assistance in that third country": where the departure airport has statutory care
 * (EU261, UK261 or ANAC Res. 400) it is given there, so the arrival rule does not add a second
 * regime. The US DOT commitments are an airline's undertakings, not law, so they do not exclude it.
 */
export function coveringRegimes(
  facts: Pick<DisruptionFacts, "departure" | "arrival" | "carrierCountry">,
): Coverage[] {
  const { departure, arrival, carrierCountry } = facts;
  const covers: Coverage[] = [];
  const atDeparture = regimeOfCountry(departure.country);
  const inEu = (a: AirportFacts) => !!a.country && EU261_COUNTRIES.has(a.country.toUpperCase());
  const inUk = (a: AirportFacts) => !!a.country && UK261_COUNTRIES.has(a.country.toUpperCase());
  if (atDeparture) {
    covers.push({
      rules: REGIME_RULES[atDeparture],
      scope: DEPARTURE_SCOPE[atDeparture],
      domestic: (atDeparture === "EU261" && inEu(arrival)) || (atDeparture === "UK261" && inUk(arrival)),
    });
  }
  const statutory = atDeparture !== undefined && STATUTORY_AT_DEPARTURE.has(atDeparture);
  if (!statutory && inEu(arrival) && isEuCarrier(carrierCountry)) {
    covers.push({
      rules: REGIME_RULES.EU261,
      scope: "arrival at an EU/EEA airport from outside on an EU carrier (Art. 3(1)(b))",
      domestic: false,
    });
  }
  if (!statutory && inUk(arrival) && (isUkCarrier(carrierCountry) || isEuCarrier(carrierCountry))) {
    covers.push({
      rules: REGIME_RULES.UK261,
      scope: "arrival at a UK airport from outside on a UK or EU carrier (Art. 3(1)(b))",
      domestic: false,
    });
  }
  return covers;
}

const DEPARTURE_SCOPE: Readonly<Record<Regime, string>> = {
  EU261: "departure from an airport in the EU, the EEA or Switzerland (Art. 3(1)(a))",
  UK261: "departure from an airport in the United Kingdom (Art. 3(1)(a))",
  ANAC400: "flight disrupted at a Brazilian airport (Art. 1, Art. 26)",
  US_DOT: "departure from a US airport: the carrier's customer service plan (14 CFR 259.5)",
};

export function evaluateEntitlements(facts: DisruptionFacts): Entitlements {
  const distance =
    facts.departure.coordinates && facts.arrival.coordinates
      ? greatCircleKm(facts.departure.coordinates, facts.arrival.coordinates)
      : null;
  const waitingMinutes = waitingMinutesOf(facts.scheduledDeparture, facts.newDeparture);
  const regimes = coveringRegimes(facts).map((coverage) =>
    regimeEntitlement(coverage, distance, waitingMinutes, facts),
  );
  const airlineMeals = airlinePolicyMeals(facts, waitingMinutes);
  if (airlineMeals) regimes.push(airlineMeals);
  const mealsOwed = regimes.some((r) => r.care.some((c) => c.item === "MEALS" && c.owed));
  return {
    departure: facts.departure.code,
    arrival: facts.arrival.code,
    distanceKm: distance === null ? null : Math.round(distance * 10) / 10,
    disruption: facts.kind,
    cause: facts.cause,
    waitingMinutes,
    overnight: facts.overnight,
    regimes,
    mealAllowance: mealAllowanceFor({
      owed: mealsOwed,
      waitingMinutes,
      currency: facts.currency,
      policy: facts.policy,
    }),
  };
}

/** Whole minutes from the scheduled departure to the new one; never negative. */
export function waitingMinutesOf(scheduledDeparture: string, newDeparture: string | null): number | null {
  if (newDeparture === null) return null;
  const from = Date.parse(scheduledDeparture);
  const to = Date.parse(newDeparture);
  if (Number.isNaN(from) || Number.isNaN(to)) return null;
  return Math.max(0, Math.floor((to - from) / 60_000));
}

function regimeEntitlement(
  coverage: Coverage,
  distanceKm: number | null,
  waitingMinutes: number | null,
  facts: DisruptionFacts,
): RegimeEntitlement {
  const { rules } = coverage;
  const usesBands = rules.care.some((rule) => rule.delayFrom === "distance-band");
  const band = usesBands
    ? distanceKm === null
      ? { band: null, ...UNKNOWN_DISTANCE_RULE }
      : distanceBand(distanceKm, coverage.domestic)
    : null;
  return {
    regime: rules.regime,
    name: rules.name,
    source: rules.source,
    scope: coverage.scope,
    distanceBand: band,
    care: rules.care.map((rule) =>
      careItem(rule, band?.delayThresholdMinutes ?? 0, rules.onlyControllable, waitingMinutes, facts),
    ),
  };
}

function careItem(
  rule: CareRule,
  bandThreshold: number,
  onlyControllable: boolean,
  waitingMinutes: number | null,
  facts: DisruptionFacts,
): CareItem {
  const threshold = facts.kind === "CANCELLATION" ? rule.cancellationFrom : rule.delayFrom;
  const fromMinutes = threshold === "distance-band" ? bandThreshold : threshold;
  const decided = (owed: boolean, reason: string): CareItem => ({
    item: rule.item,
    owed,
    fromMinutes,
    ...(rule.count !== undefined ? { count: rule.count } : {}),
    reason,
    source: rule.source,
  });
  if (onlyControllable && !facts.cause.controllable) {
    return decided(false, `owed for controllable disruptions only; the cause (${facts.cause.reason}) is not`);
  }
  if (rule.needsOvernight && !facts.overnight) return decided(false, "no overnight stay is necessary");
  if (fromMinutes > 0 && waitingMinutes === null) {
    return decided(false, "the waiting time is known once the passengers have a new departure");
  }
  if (waitingMinutes !== null && waitingMinutes < fromMinutes) {
    return decided(
      false,
      `a wait of ${duration(waitingMinutes)} is under the ${duration(fromMinutes)} it is owed from`,
    );
  }
  return decided(true, owedBecause(rule, fromMinutes, threshold, waitingMinutes, facts.kind));
}

function owedBecause(
  rule: CareRule,
  fromMinutes: number,
  threshold: CareRule["delayFrom"],
  waitingMinutes: number | null,
  kind: DisruptionKind,
): string {
  const reasons: string[] = [];
  if (rule.needsOvernight) reasons.push("a night's stay is necessary");
  if (fromMinutes > 0) {
    reasons.push(
      `a wait of ${duration(waitingMinutes ?? 0)} reaches the ${duration(fromMinutes)} it is owed from`,
    );
  } else if (kind === "CANCELLATION" && threshold !== rule.delayFrom) {
    reasons.push("owed on cancellation whatever the wait");
  }
  return reasons.length > 0 ? reasons.join("; ") : "owed whatever the wait";
}

/** The airline's own meals (its policy on top of the regulations): from `fromMinutes` of waiting. */
function airlinePolicyMeals(
  facts: DisruptionFacts,
  waitingMinutes: number | null,
): RegimeEntitlement | undefined {
  const policy = facts.policy;
  const from = policy?.mealAllowance?.fromMinutes;
  if (!policy || from === undefined) return undefined;
  const rule: CareRule = {
    item: "MEALS",
    delayFrom: from,
    cancellationFrom: from,
    needsOvernight: false,
    source: `airline policy ${policy.urn} (version ${policy.version}), mealAllowance.fromMinutes`,
  };
  return {
    regime: "AIRLINE_POLICY",
    name: "Airline policy",
    source: `airline policy ${policy.urn} (version ${policy.version})`,
    scope: "the policy that applies at the departure airport",
    distanceBand: null,
    care: [careItem(rule, 0, false, waitingMinutes, facts)],
  };
}

/** "2 h 59 min", "3 h", "45 min". */
function duration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
