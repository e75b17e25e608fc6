import type { Flight } from "../case.js";

/**
 * `disruption.detected` (spec 6.1): the flight predictor flags a disruption with a probability
 * above the policy's threshold, before any case is opened.
 */
export interface DisruptionDetectedData {
  flight: Flight;
  /** From 0 to 1. */
  probability: number;
  threshold: number;
  /** e.g. WEATHER. */
  reason: string | null;
}

export interface DisruptionEventDataByType {
  "disruption.detected": DisruptionDetectedData;
}
