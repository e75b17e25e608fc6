import type { AtcCode, FlightState } from "./flight-state.js";
import type { Policy } from "./policy/policy.js";

/**
 * The flight predictor behind `disruption.detected` (spec 6.1, 6.3): how likely a flight is to end
 * in a disruption that strands its passengers (cancellation, diversion or a delay past the night),
 * from what one flight-state message says. Deterministic: the same message gives the same answer.
 *
 * A logistic score: each input adds log-odds to a base, and the probability is the logistic of the
 * sum, so strong signals saturate towards 1 rather than adding past it. Inputs and weights:
 * - status: CANCELLED is certain (1); DIVERTED +3; DELAYED +0.5; DEPARTED and ARRIVED are past
 *   the point of disruption (0);
 * - delayMinutes: +0.8 per hour, counted up to 6 hours;
 * - weatherCodes (METAR present weather at the origin): severe groups (thunderstorm, freezing
 *   precipitation, heavy snow, hail, squalls, funnel cloud, volcanic ash, dust or sand storm) +1.5
 *   each, other obstructions or snow (fog, snow, blowing snow, ice pellets) +0.6 each, light
 *   groups (`-`) count half; at most two groups count;
 * - atcCodes: GROUND_STOP +2.5, GROUND_DELAY_PROGRAM +1.2, STAFFING +0.8, FLOW_RESTRICTION +0.6;
 * - history: +2 x the share of recent flights of this number that were disrupted (with at least
 *   five flights to go by).
 */

export type DisruptionCause = "CANCELLED" | "DIVERTED" | "DELAY" | "WEATHER" | "ATC" | "HISTORY";

export interface PredictionReason {
  cause: DisruptionCause;
  /** What the message said, e.g. `TS`, `GROUND_STOP`, `180 min`. */
  detail: string;
  /** Log-odds this input added. */
  weight: number;
}

export interface DisruptionPrediction {
  /** From 0 to 1, rounded to three decimals. */
  probability: number;
  /** The inputs that raised it, strongest first. */
  reasons: PredictionReason[];
}

const BASE_LOG_ODDS = -3;
/** The weight reported for a cancellation, which alone makes the probability 1. */
const CERTAIN = 10;
const PER_DELAY_HOUR = 0.8;
const MAX_DELAY_HOURS = 6;
const SEVERE_WEATHER = /^(TS|FZ|GR|GS|SQ|FC|VA|DS|SS|\+SN|\+PL|\+RA)/;
const OTHER_WEATHER = /^(FG|SN|BLSN|PL|SG|IC)/;
const ATC_WEIGHTS: Record<AtcCode, number> = {
  GROUND_STOP: 2.5,
  GROUND_DELAY_PROGRAM: 1.2,
  STAFFING: 0.8,
  FLOW_RESTRICTION: 0.6,
};
const MIN_HISTORY_FLIGHTS = 5;

export function predictDisruption(state: FlightState): DisruptionPrediction {
  const { status } = state.flight;
  if (status === "CANCELLED") {
    return { probability: 1, reasons: [{ cause: "CANCELLED", detail: "CANCELLED", weight: CERTAIN }] };
  }
  if (status === "DEPARTED" || status === "ARRIVED") return { probability: 0, reasons: [] };

  const reasons: PredictionReason[] = [];
  if (status === "DIVERTED") reasons.push({ cause: "DIVERTED", detail: "DIVERTED", weight: 3 });
  const delayHours = Math.min(state.delayMinutes, MAX_DELAY_HOURS * 60) / 60;
  const delayWeight = delayHours * PER_DELAY_HOUR + (status === "DELAYED" ? 0.5 : 0);
  if (delayWeight > 0) {
    reasons.push({ cause: "DELAY", detail: `${state.delayMinutes} min`, weight: delayWeight });
  }
  reasons.push(...weatherReasons(state.weatherCodes ?? []));
  for (const code of state.atcCodes ?? []) {
    reasons.push({ cause: "ATC", detail: code, weight: ATC_WEIGHTS[code] });
  }
  const history = state.history;
  if (history && history.flights >= MIN_HISTORY_FLIGHTS && history.disrupted > 0) {
    const share = Math.min(history.disrupted, history.flights) / history.flights;
    reasons.push({ cause: "HISTORY", detail: `${history.disrupted}/${history.flights}`, weight: 2 * share });
  }

  const logOdds = reasons.reduce((sum, reason) => sum + reason.weight, BASE_LOG_ODDS);
  const probability = Math.round(1000 / (1 + Math.exp(-logOdds))) / 1000;
  return { probability, reasons: reasons.map(rounded).sort((a, b) => b.weight - a.weight) };
}

function weatherReasons(codes: readonly string[]): PredictionReason[] {
  const weighed = codes
    .map((code) => {
      const group = code.replace(/^VC/, "").replace(/^-/, "");
      const light = code.startsWith("-");
      const full = SEVERE_WEATHER.test(group) ? 1.5 : OTHER_WEATHER.test(group.replace(/^\+/, "")) ? 0.6 : 0;
      return { cause: "WEATHER" as const, detail: code, weight: light ? full / 2 : full };
    })
    .filter((reason) => reason.weight > 0)
    .sort((a, b) => b.weight - a.weight);
  return weighed.slice(0, 2);
}

function rounded(reason: PredictionReason): PredictionReason {
  return { ...reason, weight: Math.round(reason.weight * 1000) / 1000 };
}

/**
 * Used where the airport's policy sets no `prediction.threshold`, or no policy applies: flag a
 * flight only when a disruption is more likely than not by a clear margin.
 */
export const DEFAULT_PREDICTION_THRESHOLD = 0.7;

/** The threshold and draft rule the policy sets (spec 2.4 `prediction`), defaults filled in. */
export function predictionRules(policy: Pick<Policy, "prediction"> | undefined): {
  threshold: number;
  draftCase: boolean;
} {
  return {
    threshold: policy?.prediction?.threshold ?? DEFAULT_PREDICTION_THRESHOLD,
    draftCase: policy?.prediction?.draftCase ?? false,
  };
}

/** Spec 6.1: flagged when the probability is above the threshold. */
export function flagsDisruption(prediction: DisruptionPrediction, threshold: number): boolean {
  return prediction.probability > threshold;
}
