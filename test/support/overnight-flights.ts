import { utcOffsetMinutesAt } from "../../src/app/stays/airport-time.js";
import type { Airport } from "../../src/app/directory.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The disrupted flight leaves at 21:00 local; the next one 13 hours later, at 10:00 the morning after. */
const DEPARTS_AT = 21 * HOUR;
const NEXT_FLIGHT_AFTER = 13 * HOUR;
/** The disruption is pushed at least this long before the flight. */
const NOTICE = 3 * HOUR;

/**
 * A cancelled flight and its replacement that strand the passengers for exactly one night at the
 * airport, whatever the time of day at `now`: the first 21:00 local departure at least three hours
 * ahead, and the next flight at 10:00 local the morning after. A wave houses passengers only for
 * the nights their wait spans in the airport's local time (src/domain/reaccommodation.ts), so
 * flights a fixed number of hours from now leave no night at some hours of the day: a departure
 * 3 hours ahead with the next flight 22 hours ahead leaves none when it is 03:00 to 05:00 local.
 */
export function overnightFlights(
  airport: Pick<Airport, "code" | "lon">,
  now: number,
): { departure: Date; nextDeparture: Date } {
  const earliest = now + NOTICE;
  const offsetAt = (at: number) => utcOffsetMinutesAt(airport, at) * MINUTE;
  // The instant the airport's clocks show `wallClock` (local time written as if it were UTC).
  const instantAt = (wallClock: number) => wallClock - offsetAt(wallClock - offsetAt(wallClock));
  const today = Math.floor((earliest + offsetAt(earliest)) / DAY) * DAY;
  let departure = instantAt(today + DEPARTS_AT);
  if (departure < earliest) departure = instantAt(today + DAY + DEPARTS_AT);
  return { departure: new Date(departure), nextDeparture: new Date(departure + NEXT_FLIGHT_AFTER) };
}

/**
 * A partner's push (POST /partner/v1/disruptions) of a Zephyr Air flight from `airport` to LHR,
 * cancelled for `reason` and stranding `passengers` for one night (overnightFlights); the next
 * flight's number is the cancelled one's plus two.
 */
export function overnightPush(options: {
  externalEventId: string;
  airport: Pick<Airport, "code" | "lon">;
  flightNumber: number;
  reason: string;
  passengers: readonly Record<string, unknown>[];
  /** When the flights are worked out from (overnightFlights); now unless told. */
  from?: number;
}): Record<string, unknown> {
  const { departure, nextDeparture } = overnightFlights(options.airport, options.from ?? Date.now());
  return {
    externalEventId: options.externalEventId,
    airlineUrn: "urn:airline:ZX",
    flight: {
      iataDesignator: `ZX${options.flightNumber}`,
      originAirport: options.airport.code,
      destinationAirport: "LHR",
      scheduledDeparture: departure.toISOString(),
    },
    disruption: { type: "CANCELLED", reason: options.reason, decidedAt: new Date().toISOString() },
    passengers: options.passengers,
    nextFlight: {
      iataDesignator: `ZX${options.flightNumber + 2}`,
      scheduledDeparture: nextDeparture.toISOString(),
    },
  };
}

/**
 * A stay date `days` after today (UTC, YYYY-MM-DD). The simulated hotels' free cancellation ends at
 * 18:00 UTC on the check-in day (services/vendor-sim/vendor-backend.ts), so a test that cancels a
 * room books a stay far enough ahead that the hour it runs at does not decide the outcome.
 */
export function stayDate(days: number, now = Date.now()): string {
  return new Date(now + days * DAY).toISOString().slice(0, 10);
}
