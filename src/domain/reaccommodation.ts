import { type CaseRecord, type NextFlight, type RecordedChange, revised } from "./case.js";
import { assertCaseOpen } from "./case-lifecycle.js";
import type { ReservationRecord } from "./case-reservations.js";
import { DomainError } from "./domain-error.js";
import type { PolicyBuffers } from "./policy/policy.js";

/**
 * The stay plan recomputed when a case's next flight changes (PATCH /cases/{urn}/reaccommodate):
 * per group, extend or shorten the reservation, rebook it, mark the group LOCAL_RESIDENT, or leave
 * it as it is. All reasoning is in the airport's local time, given as a fixed UTC offset (a daylight
 * saving change during the stay is not modelled).
 *
 * The rules:
 * - The passengers wait from the disrupted departure (they go to the hotel from there) until they
 *   must leave for the airport: the new departure minus `airportLeadMinutes`.
 * - A hotel night is a night the wait touches: night D (check-in date D) is needed when the wait
 *   overlaps the small hours of the next day, 00:00 to `nightEndsAt` (06:00).
 * - There is an overnight gap when at least one night is needed and the wait lasts at least
 *   `minimumGapMinutes` (6 hours). Without one, passengers need no hotel: LOCAL_RESIDENT.
 * - The needed nights give the stay: check-in on the first night, check-out the day after the last.
 *   A reservation starting on another night no longer fits and is rebooked (only the check-out end
 *   of a booking can be moved); otherwise a later check-out extends it and an earlier one shortens it.
 * - The policy buffers ask the hotel for an early check-in when the passengers arrive before the
 *   standard check-in time, and a late check-out when they leave after the standard check-out time,
 *   each at most by the buffer. They never add a night: a passenger leaving in the evening waits
 *   after check-out rather than paying for a night not slept.
 */

export interface StayRules {
  /** Local "HH:MM". */
  checkInTime: string;
  checkOutTime: string;
  nightEndsAt: string;
  airportLeadMinutes: number;
  minimumGapMinutes: number;
}

export const DEFAULT_STAY_RULES: Readonly<StayRules> = {
  checkInTime: "15:00",
  checkOutTime: "12:00",
  nightEndsAt: "06:00",
  airportLeadMinutes: 180,
  minimumGapMinutes: 360,
};

export interface Stay {
  reservationUrn?: string;
  /** Local dates, YYYY-MM-DD. */
  checkIn: string;
  checkOut: string;
}

export interface GroupStay {
  groupId: string;
  /** Absent when the group has no reservation yet. */
  stay?: Stay;
}

export interface ReaccommodationInput {
  groups: readonly GroupStay[];
  /** ISO timestamps. */
  disruptedDeparture: string;
  nextDeparture: string;
  utcOffsetMinutes: number;
  buffers: PolicyBuffers;
  rules?: Partial<StayRules>;
}

export type StayDecision = "extend" | "shorten" | "rebook" | "local-resident" | "unchanged";

export interface GroupStayPlan {
  groupId: string;
  decision: StayDecision;
  reservationUrn?: string;
  /** The stay the group should have; absent for local-resident. */
  checkIn?: string;
  checkOut?: string;
  reason: string;
  /** ISO timestamps to request from the hotel, within the policy buffers. */
  earlyCheckInFrom?: string;
  lateCheckoutUntil?: string;
}

export interface StayPlan {
  overnightGap: boolean;
  leaveForAirportAt: string;
  /** The stay every group needs, when there is an overnight gap. */
  nights?: { checkIn: string; checkOut: string };
  groups: GroupStayPlan[];
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function planStays(input: ReaccommodationInput): StayPlan {
  const rules = { ...DEFAULT_STAY_RULES, ...input.rules };
  const offset = input.utcOffsetMinutes * MINUTE;
  // Instants shifted to local wall-clock time, so a day boundary is a multiple of DAY.
  const arrival = instant(input.disruptedDeparture, "disruptedDeparture") + offset;
  const leave = instant(input.nextDeparture, "nextDeparture") - rules.airportLeadMinutes * MINUTE + offset;
  const leaveForAirportAt = new Date(leave - offset).toISOString();
  const nightEnds = clock(rules.nightEndsAt, "nightEndsAt");

  const firstMorning = Math.floor((arrival - nightEnds) / DAY) + 1;
  const lastMorning = Math.ceil(leave / DAY) - 1;
  const overnightGap = firstMorning <= lastMorning && leave - arrival >= rules.minimumGapMinutes * MINUTE;

  if (!overnightGap) {
    return {
      overnightGap,
      leaveForAirportAt,
      groups: input.groups.map(({ groupId, stay }) => ({
        groupId,
        decision: "local-resident",
        ...(stay?.reservationUrn ? { reservationUrn: stay.reservationUrn } : {}),
        reason: "the new departure leaves no overnight gap",
      })),
    };
  }

  const checkInDay = firstMorning - 1;
  const checkOutDay = lastMorning;
  const checkIn = dateOf(checkInDay);
  const checkOut = dateOf(checkOutDay);
  const requests = bufferRequests(arrival, leave, checkInDay, checkOutDay, input.buffers, rules, offset);
  const needed = { checkIn, checkOut, ...requests };

  return {
    overnightGap,
    leaveForAirportAt,
    nights: { checkIn, checkOut },
    groups: input.groups.map(({ groupId, stay }): GroupStayPlan => {
      if (!stay) {
        return {
          groupId,
          decision: "unchanged",
          ...needed,
          reason: "no reservation yet: allocation books this stay",
        };
      }
      const base = {
        groupId,
        ...(stay.reservationUrn ? { reservationUrn: stay.reservationUrn } : {}),
        ...needed,
      };
      const bookedIn = day(stay.checkIn, "checkIn");
      const bookedOut = day(stay.checkOut, "checkOut");
      if (bookedIn !== checkInDay) {
        return {
          ...base,
          decision: "rebook",
          reason: `the stay must start on ${checkIn}, the reservation starts on ${stay.checkIn}`,
        };
      }
      if (checkOutDay > bookedOut) {
        return {
          ...base,
          decision: "extend",
          reason: `check-out moves from ${stay.checkOut} to ${checkOut}`,
        };
      }
      if (checkOutDay < bookedOut) {
        return {
          ...base,
          decision: "shorten",
          reason: `check-out moves from ${stay.checkOut} to ${checkOut}`,
        };
      }
      return { ...base, decision: "unchanged", reason: "the reservation still covers every night" };
    }),
  };
}

export interface CaseReaccommodationArgs {
  nextFlight: NextFlight;
  utcOffsetMinutes: number;
  buffers: PolicyBuffers;
  by: string;
  reason?: string;
}

export interface CaseReaccommodation {
  record: CaseRecord;
  plan: StayPlan;
  /** Groups the plan leaves without an overnight gap (spec 2.2). */
  localResidentGroups: string[];
  change: RecordedChange;
}

/**
 * The case's next flight moved: the stay plan is recomputed for every group from its current
 * reservation; groups left without an overnight gap become LOCAL_RESIDENT and groups that need a
 * hotel again stop being so. The booking flow carries out the plan's extend, shorten and rebook.
 */
export function reaccommodateCase(
  record: CaseRecord,
  reservations: readonly ReservationRecord[],
  localResidentsBefore: readonly string[],
  args: CaseReaccommodationArgs,
  now: Date,
): CaseReaccommodation {
  assertCaseOpen(record);
  const plan = planStays({
    groups: record.passengerGroups.map((group) => groupStayOf(group.id, reservations)),
    disruptedDeparture: record.flight.scheduledDeparture,
    nextDeparture: args.nextFlight.scheduledDeparture,
    utcOffsetMinutes: args.utcOffsetMinutes,
    buffers: args.buffers,
  });
  const localResidentGroups = plan.groups
    .filter((g) => g.decision === "local-resident")
    .map((g) => g.groupId);
  return {
    record: revised({ ...record, nextFlight: args.nextFlight }, now),
    plan,
    localResidentGroups,
    change: {
      action: "case.reaccommodated",
      by: args.by,
      ...(args.reason ? { reason: args.reason } : {}),
      before: { nextFlight: record.nextFlight ?? null, localResidentGroups: localResidentsBefore },
      after: { nextFlight: args.nextFlight, localResidentGroups },
    },
  };
}

/** A group's current stay: its latest reservation with known dates that is not cancelled. */
function groupStayOf(groupId: string, reservations: readonly ReservationRecord[]): GroupStay {
  const stay = reservations
    .filter((r) => r.groupId === groupId && r.checkIn && r.checkOut && r.status !== "CANCELLED")
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
  return {
    groupId,
    ...(stay
      ? { stay: { reservationUrn: stay.reservationUrn, checkIn: stay.checkIn!, checkOut: stay.checkOut! } }
      : {}),
  };
}

function bufferRequests(
  arrival: number,
  leave: number,
  checkInDay: number,
  checkOutDay: number,
  buffers: PolicyBuffers,
  rules: StayRules,
  offset: number,
): Pick<GroupStayPlan, "earlyCheckInFrom" | "lateCheckoutUntil"> {
  const standardCheckIn = checkInDay * DAY + clock(rules.checkInTime, "checkInTime");
  const standardCheckOut = checkOutDay * DAY + clock(rules.checkOutTime, "checkOutTime");
  const requests: Pick<GroupStayPlan, "earlyCheckInFrom" | "lateCheckoutUntil"> = {};
  if (buffers.earlyCheckInMinutes > 0 && arrival < standardCheckIn) {
    const from = Math.max(arrival, standardCheckIn - buffers.earlyCheckInMinutes * MINUTE);
    requests.earlyCheckInFrom = new Date(from - offset).toISOString();
  }
  if (buffers.lateCheckoutMinutes > 0 && leave > standardCheckOut) {
    const until = Math.min(leave, standardCheckOut + buffers.lateCheckoutMinutes * MINUTE);
    requests.lateCheckoutUntil = new Date(until - offset).toISOString();
  }
  return requests;
}

function instant(value: string, field: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw new DomainError("invalid", "invalid-timestamp", `${field} is not a timestamp`, { field, value });
  return ms;
}

/** A local date as a day number (days since 1970-01-01). */
function day(date: string, field: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    throw new DomainError("invalid", "invalid-date", `${field} is not a YYYY-MM-DD date`, {
      field,
      value: date,
    });
  }
  return Math.round(instant(`${date}T00:00:00Z`, field) / DAY);
}

function dateOf(dayNumber: number): string {
  return new Date(dayNumber * DAY).toISOString().slice(0, 10);
}

/** "HH:MM" as milliseconds after midnight. */
function clock(value: string, field: string): number {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new DomainError("invalid", "invalid-time", `${field} is not HH:MM`, { field, value });
  return (Number(match[1]) * 60 + Number(match[2])) * MINUTE;
}
