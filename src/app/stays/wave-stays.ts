import type { CaseSnapshot } from "../../../actors/CaseActor.js";
import type { PassengerGroup } from "../../domain/case.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { roomsNeededFor } from "../../domain/demand.js";
import { passengerTier } from "../../domain/policy/tiers.js";
import { planStays, type StayPlan } from "../../domain/reaccommodation.js";

/** A group a wave must house, with the rooms it needs. */
export interface GroupStayNeed {
  groupId: string;
  rooms: number;
  /** The tier every passenger of the group travels in; MIXED or UNKNOWN otherwise. */
  tier: string;
}

/** The nights the case's passengers need, as local dates; check-out is the morning after the last night. */
export interface WaveStay {
  checkIn: string;
  checkOut: string;
  nights: number;
}

export interface CaseStayNeeds {
  /** Absent when the next departure leaves no overnight gap. */
  stay?: WaveStay;
  groups: GroupStayNeed[];
  /** Groups left out of the wave, and why. */
  skipped: { groupId: string; reason: string }[];
}

/** Reservation statuses that already house a group (spec 3.6). */
const HOUSING_STATUSES = new Set(["CONFIRMED", "CHECKED_IN", "CHECKED_OUT"]);
const DAY_MS = 86_400_000;
const NO_BUFFERS = { earlyCheckInMinutes: 0, lateCheckoutMinutes: 0 };

/**
 * Which groups of a case need rooms, and for which nights. The stay plan of the last
 * reaccommodation decides when there is one; otherwise the plan is computed here from the
 * disrupted departure and the next flight, by the same rules. Without a next flight the passengers
 * are planned as if rebooked 24 hours later: one night. Groups that are local residents, or
 * already hold a confirmed reservation that the plan does not ask to rebook, are left out.
 */
export function stayNeedsOf(snapshot: DeepReadonly<CaseSnapshot>, utcOffsetMinutes: number): CaseStayNeeds {
  const plan = snapshot.stayPlan ?? computedPlan(snapshot, utcOffsetMinutes);
  const housed = new Set(
    snapshot.reservations.filter((r) => HOUSING_STATUSES.has(r.status.toUpperCase())).map((r) => r.groupId),
  );
  const localResidents = new Set(snapshot.localResidentGroups);
  const stay = plan.overnightGap && plan.nights ? withNights(plan.nights) : undefined;
  const needs: CaseStayNeeds = { ...(stay ? { stay } : {}), groups: [], skipped: [] };
  for (const group of snapshot.case.passengerGroups) {
    const decision = plan.groups.find((g) => g.groupId === group.id)?.decision;
    const skip = (reason: string) => needs.skipped.push({ groupId: group.id, reason });
    if (!stay) skip("the next departure leaves no overnight gap");
    else if (localResidents.has(group.id) || decision === "local-resident") skip("local resident");
    else if (housed.has(group.id) && decision !== "rebook") skip("already holds a confirmed reservation");
    else if (group.passengers.length === 0) skip("the group has no passengers");
    else needs.groups.push({ groupId: group.id, rooms: roomsNeededFor(group), tier: groupTier(group) });
  }
  return needs;
}

/**
 * Every group the plan houses stays the same nights (the plan's `nights`); a group whose booked
 * stay differs is rebooked for those nights, so one wave serves them all.
 */
function withNights(nights: { checkIn: string; checkOut: string }): WaveStay {
  return {
    ...nights,
    nights: Math.round((Date.parse(nights.checkOut) - Date.parse(nights.checkIn)) / DAY_MS),
  };
}

function computedPlan(snapshot: DeepReadonly<CaseSnapshot>, utcOffsetMinutes: number): StayPlan {
  const { flight, nextFlight, passengerGroups } = snapshot.case;
  const nextDeparture =
    nextFlight?.scheduledDeparture ?? new Date(Date.parse(flight.scheduledDeparture) + DAY_MS).toISOString();
  return planStays({
    groups: passengerGroups.map((g) => ({ groupId: g.id })),
    disruptedDeparture: flight.scheduledDeparture,
    nextDeparture,
    utcOffsetMinutes,
    buffers: NO_BUFFERS,
  });
}

function groupTier(group: DeepReadonly<PassengerGroup>): string {
  const tiers = new Set(group.passengers.map((p) => passengerTier(p) ?? "UNKNOWN"));
  const [only] = tiers;
  return tiers.size === 1 ? only! : "MIXED";
}
