import type { Airport } from "../directory.js";

/**
 * Time zones of the airports the service knows by name. A stay is planned in the airport's local
 * time (src/domain/reaccommodation.ts), which needs the airport's offset from UTC at the moment of
 * the disruption, daylight saving included.
 */
const TIME_ZONE_OF_AIRPORT: Readonly<Record<string, string>> = {
  JFK: "America/New_York",
  BOS: "America/New_York",
  ORD: "America/Chicago",
  LHR: "Europe/London",
  MAD: "Europe/Madrid",
  GRU: "America/Sao_Paulo",
};

/**
 * Minutes the airport's local time is ahead of UTC at `at`. An airport without a known time zone
 * falls back to its solar offset (15 degrees of longitude per hour), which puts the night on the
 * right dates everywhere but at the edge of a time zone.
 */
export function utcOffsetMinutesAt(airport: Pick<Airport, "code" | "lon">, at: number): number {
  const zone = TIME_ZONE_OF_AIRPORT[airport.code];
  if (!zone) return Math.round(airport.lon / 15) * 60;
  const parts = wallClockIn(zone).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const localAsUtc = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"));
  const wholeMinute = at - (at % 60_000);
  return Math.round((localAsUtc - wholeMinute) / 60_000);
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one. */
const WALL_CLOCKS = new Map<string, Intl.DateTimeFormat>();

function wallClockIn(zone: string): Intl.DateTimeFormat {
  let format = WALL_CLOCKS.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    WALL_CLOCKS.set(zone, format);
  }
  return format;
}
