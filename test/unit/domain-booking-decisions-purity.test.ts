import { describe, expect, it } from "vitest";
import {
  claimBooking,
  confirmBooking,
  countByState,
  deferBooking,
  heldBy,
  markFailed,
} from "../../src/domain/booking/group-booking.js";
import { recordManualReservation } from "../../src/domain/booking/manual-reservation.js";
import {
  cancelReservation,
  checkInReservation,
  holdingReservationAmong,
} from "../../src/domain/booking/reservation-lifecycle.js";
import {
  hotelCancellationReview,
  overrideFailureReview,
  reviewAnswer,
} from "../../src/domain/booking/review-request.js";
import { applyVendorView } from "../../src/domain/booking/vendor-change.js";
import { settleWave } from "../../src/domain/booking/wave-settlement.js";
import { money } from "../../src/domain/money.js";
import { deepFreeze } from "../support/deep-freeze.js";
import {
  atMs,
  bookingIn,
  CASE,
  causeUrn,
  claimed,
  confirmedReservation,
  draft,
  HOLDER,
  LEASE_MS,
  request,
  round,
  T0,
  WAVE,
} from "./group-booking-fixture.js";

/**
 * BookingActor decides its turns over its stored bookings, reservations and ledger themselves
 * (ActorState.peek), not over copies: the decisions must never change their inputs. Frozen inputs
 * make any change throw, and the inputs must come out as they went in.
 */
const failure = { category: "BOOKING_FAILED" as const, reason: "every offer refused", vendorErrorCode: null };

describe("the booking decisions BookingActor takes over its stored state leave their inputs as they are", () => {
  it("claiming, confirming, failing and deferring a group's booking", () => {
    const held = deepFreeze(claimed());
    const failed = deepFreeze(bookingIn("FAILED", { failure }));
    const bookingCase = deepFreeze({ ...CASE, revision: 3 });
    const before = structuredClone({ held, failed, bookingCase });
    const terms = { token: "token-2", leaseMs: LEASE_MS, holder: HOLDER, groupHoldsReservation: false };

    expect(claimBooking(held, request(), terms, atMs(LEASE_MS + 1)).granted).toBe(true);
    expect(claimBooking(failed, request(), terms, T0)).toEqual({ granted: false, reason: "failed" });
    expect(heldBy(held, "token-1")).toBe(held);
    const confirmed = confirmBooking(
      held,
      bookingCase,
      { ...round(), draft, verificationCode: "ABCD2345" },
      T0,
    );
    expect(confirmed.booking.state).toBe("BOOKED");
    expect(markFailed(held, round(), failure, T0).state).toBe("FAILED");
    expect(deferBooking(held, round(), 3, T0).state).toBe("PENDING");
    expect(deferBooking(held, round(), 0, T0).state).toBe("FAILED");
    expect(countByState([held, failed, undefined])).toMatchObject({ BOOKING: 1, FAILED: 1 });
    expect(overrideFailureReview(CASE.caseUrn, failed, failure, causeUrn).category).toBe("BOOKING_FAILED");
    expect(reviewAnswer(CASE.caseUrn, failed, {}).groupId).toBe("G1");
    expect({ held, failed, bookingCase }).toEqual(before);
  });

  it("cancelling, checking in, recording by hand and following the vendor's view of a reservation", () => {
    const reservation = deepFreeze(confirmedReservation());
    const before = structuredClone(reservation);
    const view = {
      status: "CANCELLED" as const,
      checkIn: reservation.checkIn,
      checkOut: "2026-11-23",
      rooms: 1,
      total: money(12_000, "USD"),
      updatedAt: atMs(1).toISOString(),
    };

    expect(cancelReservation(reservation, T0).changed).toBe(true);
    expect(checkInReservation(reservation, T0).changed).toBe(true);
    expect(holdingReservationAmong([undefined, reservation], "G1")).toBe(reservation);
    expect(applyVendorView(reservation, view, T0).changes).not.toHaveLength(0);
    expect(hotelCancellationReview(CASE.caseUrn, reservation, causeUrn).caseUrn).toBe(CASE.caseUrn);
    expect(() =>
      recordManualReservation(
        CASE,
        {
          groupId: "G1",
          waveUrn: null,
          demandUrn: null,
          hotel: draft.hotel,
          confirmationNumber: "M-1",
          checkIn: draft.checkIn,
          checkOut: draft.checkOut,
          rooms: 1,
          guests: [],
          cost: money(10_000, "USD"),
          reason: "booked by phone",
          bookedBy: "urn:user:operator",
          requestId: "r1",
          verificationCode: "ABCD2345",
        },
        reservation,
        T0,
      ),
    ).toThrow(/already holds/);
    expect(reservation).toEqual(before);
  });

  it("settling a wave, the first time and again", () => {
    const failedBooking = deepFreeze(bookingIn("FAILED", { groupId: "G2", failure }));
    const bookings = new Map([["G2", failedBooking]]);
    const wave = deepFreeze({
      waveUrn: WAVE,
      demandUrn: "urn:demand:d1",
      allocated: [
        { groupId: "G1", rooms: 2 },
        { groupId: "G2", rooms: 1 },
      ],
      unallocated: [],
    });
    const first = settleWave(
      CASE.caseUrn,
      wave,
      { holding: new Set(["G1"]), bookings, previous: undefined },
      T0,
      causeUrn,
    );
    if (!first.settled) throw new Error("the wave did not settle");
    const previous = deepFreeze(first.settlement);
    const before = structuredClone({ failedBooking, wave, previous });

    const again = settleWave(
      CASE.caseUrn,
      wave,
      { holding: new Set(["G1", "G2"]), bookings, previous },
      T0,
      causeUrn,
    );

    expect(again).toMatchObject({ settled: true, changed: true, settlement: { outcome: "FULFILLED" } });
    expect({ failedBooking, wave, previous }).toEqual(before);
  });
});
