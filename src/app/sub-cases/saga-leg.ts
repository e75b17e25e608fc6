import type { StepCall, StepOutcome } from "../../workflows/sub-case-saga/model.js";

/**
 * A leg of the sub-case saga owned by another part of the product (the meal card, the ground
 * transport): the step and its undo, both idempotent. A leg that cannot be served (no issuer, the
 * issuer paused, nothing to ride to) completes with the reason in its result rather than failing
 * the run: the passenger's stay does not wait for a meal card or a car, and what a leg could not
 * do is in the run's progress (and, where an operator must act, in the review queue).
 */
export interface SagaLeg {
  run(call: StepCall): Promise<StepOutcome>;
  undo(call: StepCall): Promise<StepOutcome>;
}

/** A leg's completion with what it reports in the run's progress. */
export function legDone(result: Record<string, unknown>): StepOutcome {
  return { done: true, stay: {}, result };
}
