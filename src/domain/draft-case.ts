import type { DraftCase } from "./events/disruption.js";
import type { FlightState } from "./flight-state.js";

/**
 * The draft case of a flagged flight: the case-creation input an operator opens (POST /v1/cases).
 * Its externalEventId names the flight and its scheduled departure, so every message about the same
 * flight drafts the same case, and opening it twice opens one case (spec 2.1: the idempotency key).
 */
export function draftCaseFor(state: Pick<FlightState, "flight">): DraftCase {
  const { number, origin, destination, scheduledDeparture, status } = state.flight;
  return {
    externalEventId: `predicted-${number}-${scheduledDeparture}`,
    flight: { number, origin, destination, scheduledDeparture, status },
    passengerGroups: [],
  };
}
