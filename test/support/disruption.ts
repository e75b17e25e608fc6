import type { Flight, NextFlight, PassengerGroup } from "../../src/domain/case.js";

// Functions, not constants: tests change the bodies they are given (a repeated passenger, say).

/** The disruption the case tests declare: ZX100 from JFK to London, cancelled the evening of 21 November. */
export function cancelledFlight(): Flight {
  return {
    number: "ZX100",
    origin: "JFK",
    destination: "LHR",
    scheduledDeparture: "2026-11-21T22:00:00Z",
    status: "CANCELLED",
  };
}

/** The flight its passengers are rebooked on, the next evening. */
export function nextFlight(): NextFlight {
  return { number: "ZX102", scheduledDeparture: "2026-11-22T18:00:00Z" };
}

/** The second group of that flight: one business passenger reached by phone. */
export function businessGroup(): PassengerGroup {
  return {
    id: "XYZ789",
    pnr: "XYZ789",
    passengers: [{ id: "p3", lastName: "Okafor", tier: "BUSINESS", contact: { phone: "+14155550100" } }],
  };
}
