import type { Flight } from "../case.js";
import type { PredictionReason } from "../disruption-prediction.js";

/**
 * A case ready to open (spec 2.1 case-creation input, the body of POST /v1/cases): the case itself
 * only exists once an operator opens it, as spec 3.3 has cases begin OPEN. No passengers yet: the
 * manifest is uploaded or pushed once the case is opened.
 */
export interface DraftCase {
  externalEventId: string;
  flight: Flight;
  passengerGroups: [];
}

/**
 * `disruption.detected` (spec 6.1): the flight predictor flags a disruption with a probability
 * above the policy's threshold, before any case is opened.
 */
export interface DisruptionDetectedData {
  flight: Flight;
  /** From 0 to 1. */
  probability: number;
  threshold: number;
  /** The strongest cause, e.g. WEATHER. */
  reason: string | null;
  /** Every input that raised the probability, strongest first (src/domain/disruption-prediction.ts). */
  reasons?: PredictionReason[];
  /** The flight-state message that was assessed. */
  messageId?: string;
  /** When the policy says so (`prediction.draftCase`). */
  draftCase?: DraftCase;
}

export interface DisruptionEventDataByType {
  "disruption.detected": DisruptionDetectedData;
}
