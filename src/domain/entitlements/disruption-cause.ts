/**
 * Whether the airline controlled the cause of a disruption, and whether the flight was cancelled or
 * delayed, read from what the case records: the pushed disruption's type and reason (spec 4.3,
 * values seen CANCELLED and WEATHER) or the declared flight's status (spec 2.1).
 *
 * "Controllable" is the US DOT's word: a disruption caused by the airline, e.g. maintenance or crew
 * problems, cleaning of the aircraft, baggage loading, fueling (Airline Customer Service Dashboard,
 * definitions). Weather, air traffic control, security and other events outside the airline's
 * control are not. Only the US DOT commitments depend on it (see `REGIME_RULES.onlyControllable`).
 */

export type DisruptionKind = "CANCELLATION" | "DELAY";

export interface DisruptionCause {
  /** The reason as the case records it, or null when none was given. */
  reason: string | null;
  controllable: boolean;
  /** `reason`: read from the recorded reason; `default`: no (known) reason, so the default holds. */
  decidedBy: "reason" | "default";
}

const UNCONTROLLABLE_REASONS: ReadonlySet<string> = new Set([
  "WEATHER",
  "ATC",
  "AIR_TRAFFIC_CONTROL",
  "SECURITY",
  "POLITICAL",
  "BIRD_STRIKE",
  "MEDICAL",
  "AIRPORT",
  "AIRPORT_CLOSURE",
  "STRIKE",
  "THIRD_PARTY_STRIKE",
  "VOLCANIC_ASH",
  "NATURAL_DISASTER",
]);

const CONTROLLABLE_REASONS: ReadonlySet<string> = new Set([
  "TECHNICAL",
  "MAINTENANCE",
  "CREW",
  "CREW_SHORTAGE",
  "OPERATIONAL",
  "COMMERCIAL",
  "IT",
  "SYSTEMS",
  "CLEANING",
  "BAGGAGE",
  "FUELING",
  "CATERING",
  "AIRLINE_STRIKE",
]);

/**
 * When the case gives no reason, or one not listed above, the disruption counts as controllable:
 * the commitments are the airline's own, and an unstated cause is not shown to be outside its
 * control. The answer says it was a default (`decidedBy`), so an operator can see it.
 */
export const DEFAULT_CONTROLLABLE = true;

export function disruptionCause(reason: string | null | undefined): DisruptionCause {
  const code =
    reason
      ?.trim()
      .toUpperCase()
      .replace(/[\s-]+/g, "_") || null;
  if (code && UNCONTROLLABLE_REASONS.has(code))
    return { reason: reason ?? null, controllable: false, decidedBy: "reason" };
  if (code && CONTROLLABLE_REASONS.has(code))
    return { reason: reason ?? null, controllable: true, decidedBy: "reason" };
  return { reason: reason ?? null, controllable: DEFAULT_CONTROLLABLE, decidedBy: "default" };
}

/**
 * CANCELLED (either spelling) is a cancellation; any other status, or none, counts as a delay: the
 * passengers wait from the scheduled departure until the new one, and the delay thresholds apply.
 */
export function disruptionKind(status: string | null | undefined): DisruptionKind {
  const code = status?.trim().toUpperCase();
  return code === "CANCELLED" || code === "CANCELED" ? "CANCELLATION" : "DELAY";
}
