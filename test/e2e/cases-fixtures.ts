import { businessGroup, cancelledFlight, nextFlight } from "../support/disruption.js";

/** Bodies and helpers shared by the case end-to-end tests. */
export const ZX = "urn:airline:ZX";

export function declaration(externalEventId: string, overrides: Record<string, unknown> = {}) {
  return {
    externalEventId,
    flight: cancelledFlight(),
    nextFlight: nextFlight(),
    passengerGroups: [
      {
        id: "ABC123",
        pnr: "ABC123",
        passengers: [
          {
            id: "p1",
            firstName: "Ana",
            lastName: "Rivera",
            tier: "ECONOMY",
            contact: { email: "ana@example.com" },
          },
          { id: "p2", firstName: "Luis", lastName: "Rivera", tier: "ECONOMY" },
        ],
      },
      businessGroup(),
    ],
    ...overrides,
  };
}

export function push(externalEventId: string, overrides: Record<string, unknown> = {}) {
  return {
    externalEventId,
    airlineUrn: ZX,
    flight: {
      iataDesignator: "ZX200",
      originAirport: "BOS",
      destinationAirport: "LHR",
      scheduledDeparture: "2026-11-21T22:00:00Z",
    },
    disruption: { type: "CANCELLED", reason: "WEATHER", decidedAt: "2026-11-21T18:00:00Z" },
    passengers: [
      {
        pnr: "QWE123",
        lastName: "Smith",
        cabinClass: "ECONOMY",
        loyaltyTier: "STANDARD",
        contact: { email: "s@example.com", phone: "+14155550101", language: "en" },
      },
      { pnr: "QWE123", lastName: "Smith", cabinClass: "ECONOMY", loyaltyTier: "STANDARD" },
      { pnr: "RTY456", lastName: "Jones", cabinClass: "BUSINESS", loyaltyTier: "GOLD" },
    ],
    nextFlight: { iataDesignator: "ZX202", scheduledDeparture: "2026-11-22T20:00:00Z" },
    ...overrides,
  };
}

export async function json(response: Response) {
  return (await response.json()) as Record<string, any>;
}
