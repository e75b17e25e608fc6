import type { BookingReviewRequest, WaveOutcome, WaveSettledData } from "../events/booking.js";
import type { GroupBooking } from "./group-booking.js";
import { type ReviewItemUrnFor, waveReviewRequests } from "./review-request.js";

/**
 * Wave settlement: once every group an allocation wave assigned (spec 2.6) is booked or failed,
 * the wave's outcome, which the demand records (spec 3.1: FULFILLED, or PARTIAL with the review
 * item that explains it). FULFILLED when every group of the wave holds a reservation, PARTIAL when
 * some do, FAILED when none does. The first settlement asks for the review items; a later one (a
 * group re-booked or booked by hand) reports the new outcome under the same items, and one with the
 * same outcome changes nothing.
 */
export interface WaveSettlement {
  waveUrn: string;
  demandUrn: string | null;
  outcome: WaveOutcome;
  roomsBooked: number;
  reviewItemUrns: string[];
  settledAt: string;
}

export interface GroupRooms {
  groupId: string;
  rooms: number;
}

export interface WaveGroups {
  waveUrn: string;
  demandUrn: string | null;
  /** Groups the wave allocated, and those it could not, with the rooms each needs. */
  allocated: GroupRooms[];
  unallocated: GroupRooms[];
}

/** Where the wave's groups stand when it is asked to settle. */
export interface WaveStanding {
  /** The wave's groups that hold a reservation now, whoever booked it. */
  holding: ReadonlySet<string>;
  /** The wave's own booking of each group that has one. */
  bookings: ReadonlyMap<string, GroupBooking>;
  /** The wave's last settlement, when it settled before. */
  previous: WaveSettlement | undefined;
}

export type SettlementDecision =
  /** Some allocated group is neither booked nor failed yet. */
  | { settled: false }
  /** Settled with the outcome it had: nothing to store or announce. */
  | { settled: true; changed: false; settlement: WaveSettlement }
  | {
      settled: true;
      changed: true;
      settlement: WaveSettlement;
      /** The review items to ask for, first settlement only. */
      reviewRequests: BookingReviewRequest[];
      /** The booking.wave-settled payload. */
      event: WaveSettledData;
    };

export function settleWave(
  caseUrn: string,
  wave: WaveGroups,
  standing: WaveStanding,
  now: Date,
  reviewItemUrnFor: ReviewItemUrnFor,
): SettlementDecision {
  const { holding, bookings, previous } = standing;
  const undecided = wave.allocated.some(
    (g) => !holding.has(g.groupId) && bookings.get(g.groupId)?.state !== "FAILED",
  );
  if (undecided) return { settled: false };

  const groups = [...wave.allocated, ...wave.unallocated];
  const booked = groups.filter((g) => holding.has(g.groupId));
  const notBooked = groups.filter((g) => !holding.has(g.groupId));
  const outcome: WaveOutcome =
    notBooked.length === 0 ? "FULFILLED" : booked.length > 0 ? "PARTIAL" : "FAILED";
  if (previous?.outcome === outcome) return { settled: true, changed: false, settlement: previous };

  const reviewRequests = previous
    ? []
    : waveReviewRequests(
        caseUrn,
        {
          waveUrn: wave.waveUrn,
          demandUrn: wave.demandUrn,
          outcome,
          notBooked,
          bookingOf: (groupId) => bookings.get(groupId),
        },
        reviewItemUrnFor,
      );
  const reviewItemUrns = previous ? previous.reviewItemUrns : reviewRequests.map((r) => r.reviewItemUrn);
  const roomsBooked = booked.reduce((sum, g) => sum + g.rooms, 0);
  const settlement: WaveSettlement = {
    waveUrn: wave.waveUrn,
    demandUrn: wave.demandUrn,
    outcome,
    roomsBooked,
    reviewItemUrns,
    settledAt: now.toISOString(),
  };
  const event: WaveSettledData = {
    waveUrn: wave.waveUrn,
    caseUrn,
    demandUrn: wave.demandUrn,
    outcome,
    roomsBooked,
    allGroupsBooked: outcome === "FULFILLED",
    reviewItemUrn: outcome === "FULFILLED" ? null : (reviewItemUrns[0] ?? null),
  };
  return { settled: true, changed: true, settlement, reviewRequests, event };
}
