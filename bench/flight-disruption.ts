/** A full flight as the benches push it (spec 4.3): 300 passengers, two per PNR, every tenth in BUSINESS. */
export const FLIGHT_PASSENGERS = 300;
export const FLIGHT_GROUPS = 150;

export interface FlightDisruption {
  externalEventId: string;
  tenant: string;
  origin: string;
  /** Flight number of the cancelled flight and of the next one. */
  designator: string;
  departure: Date;
  /** The PNR of group `g` (0-based), unique across what one run pushes. */
  pnrOf(group: number): string;
  /** Makes the passengers' e-mail addresses unique across what one run pushes. */
  emailPrefix: string;
}

/** The push body; the next flight leaves a day after the cancelled one. */
export function flightDisruptionPush(flight: FlightDisruption) {
  const passengers = Array.from({ length: FLIGHT_PASSENGERS }, (_, i) => {
    const group = Math.floor(i / (FLIGHT_PASSENGERS / FLIGHT_GROUPS));
    return {
      pnr: flight.pnrOf(group),
      firstName: `Traveller${i}`,
      lastName: `Family${group}`,
      cabinClass: i % 10 === 0 ? "BUSINESS" : "ECONOMY",
      contact: { email: `${flight.emailPrefix}-${i}@example.com` },
    };
  });
  return {
    externalEventId: flight.externalEventId,
    airlineUrn: flight.tenant,
    flight: {
      iataDesignator: flight.designator,
      originAirport: flight.origin,
      destinationAirport: "LHR",
      scheduledDeparture: flight.departure.toISOString(),
    },
    disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: new Date().toISOString() },
    passengers,
    nextFlight: {
      iataDesignator: flight.designator,
      scheduledDeparture: new Date(flight.departure.getTime() + 86_400_000).toISOString(),
    },
  };
}
