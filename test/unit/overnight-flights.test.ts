import { describe, expect, it } from "vitest";
import { utcOffsetMinutesAt } from "../../src/app/stays/airport-time.js";
import { DEMO_AIRLINES, ZEPHYR_AIR } from "../../src/demo/demo-airlines.js";
import { planStays } from "../../src/domain/reaccommodation.js";
import type { Airport } from "../../src/app/directory.js";
import { overnightFlights } from "../support/overnight-flights.js";

const HOUR = 3_600_000;
const AIRPORTS = DEMO_AIRLINES.flatMap((airline) => airline.airports);
const BOSTON = ZEPHYR_AIR.airports.find((a) => a.code === "BOS")!;

/** The nights a wave plans for a case without a stay plan (src/app/stays/wave-stays.ts). */
function stayOf(airport: Airport, departure: Date, nextDeparture: Date) {
  return planStays({
    groups: [{ groupId: "G" }],
    disruptedDeparture: departure.toISOString(),
    nextDeparture: nextDeparture.toISOString(),
    utcOffsetMinutes: utcOffsetMinutesAt(airport, departure.getTime()),
    buffers: { earlyCheckInMinutes: 0, lateCheckoutMinutes: 0 },
  });
}

/** Every quarter hour of a day, as the clock the flights are chosen by. */
function quarterHoursOf(day: string): number[] {
  return Array.from({ length: 96 }, (_, i) => Date.parse(`${day}T00:00:00Z`) + i * 15 * 60_000);
}

describe("flights that strand the end-to-end test's passengers overnight", () => {
  it("the flights it used to push (3 and 22 hours ahead) strand nobody overnight at 04:10 in Boston", () => {
    const now = Date.parse("2026-11-27T09:10:00Z");
    const plan = stayOf(BOSTON, new Date(now + 3 * HOUR), new Date(now + 22 * HOUR));
    expect(plan.overnightGap).toBe(false);
    expect(plan.groups[0]).toMatchObject({ decision: "local-resident" });
  });

  // Winter and summer time, and the days around the clocks changing (US 8 March and 1 November,
  // Europe 29 March and 25 October 2026).
  const days = ["2026-11-27", "2026-07-01", "2026-03-07", "2026-03-28", "2026-10-24", "2026-10-31"];
  it.each(AIRPORTS.map((airport) => [airport.code, airport] as const))(
    "at %s, chosen at any quarter hour, they need exactly one night, the disrupted flight at least 3 hours ahead",
    (_code, airport) => {
      for (const now of days.flatMap(quarterHoursOf)) {
        const { departure, nextDeparture } = overnightFlights(airport, now);
        const at = new Date(now).toISOString();
        expect(departure.getTime() - now, at).toBeGreaterThanOrEqual(3 * HOUR);
        // 24 hours plus the notice, plus one on the night the clocks go back.
        expect(departure.getTime() - now, at).toBeLessThanOrEqual(28 * HOUR);
        const plan = stayOf(airport, departure, nextDeparture);
        expect(plan.overnightGap, at).toBe(true);
        const { checkIn, checkOut } = plan.nights!;
        expect(Date.parse(checkOut) - Date.parse(checkIn), at).toBe(24 * HOUR);
        const localDeparture =
          departure.getTime() + utcOffsetMinutesAt(airport, departure.getTime()) * 60_000;
        expect(checkIn, at).toBe(new Date(localDeparture).toISOString().slice(0, 10));
        expect(new Date(localDeparture).toISOString().slice(11, 16), at).toBe("21:00");
      }
    },
  );
});
