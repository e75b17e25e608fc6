import { describe, expect, it } from "vitest";
import type { BookingFailure, GroupBooking } from "../../src/domain/booking/group-booking.js";
import {
  settleWave,
  type WaveGroups,
  type WaveSettlement,
  type WaveStanding,
} from "../../src/domain/booking/wave-settlement.js";
import { atMs, bookingIn, CASE, causeUrn, T0, WAVE } from "./group-booking-fixture.js";

const wave: WaveGroups = {
  waveUrn: WAVE,
  demandUrn: "urn:demand:d1",
  allocated: [
    { groupId: "G1", rooms: 2 },
    { groupId: "G2", rooms: 1 },
  ],
  unallocated: [],
};

const refused: BookingFailure = { category: "BOOKING_FAILED", reason: "sold out", vendorErrorCode: null };
const paymentRefused: BookingFailure = {
  category: "PAYMENT_FAILED",
  reason: "card refused",
  vendorErrorCode: "INVALID_PAYMENT_INFO",
};

function failedBooking(groupId: string, failure: BookingFailure): GroupBooking {
  return bookingIn("FAILED", {
    groupId,
    failure,
    attemptedHotels: [{ hotelUrn: `urn:hotel:${groupId}`, reason: "vendor-refused" }],
  });
}

function standing(holding: string[], bookings: GroupBooking[], previous?: WaveSettlement): WaveStanding {
  return {
    holding: new Set(holding),
    bookings: new Map(bookings.map((b) => [b.groupId, b])),
    previous,
  };
}

const settle = (groups: WaveGroups, where: WaveStanding) =>
  settleWave(CASE.caseUrn, groups, where, T0, causeUrn);

describe("settling a wave", () => {
  it("waits while an allocated group is neither booked nor failed", () => {
    expect(settle(wave, standing(["G1"], []))).toEqual({ settled: false });
    expect(settle(wave, standing(["G1"], [bookingIn("PENDING", { groupId: "G2" })]))).toEqual({
      settled: false,
    });
    expect(settle(wave, standing(["G1"], [bookingIn("BOOKING", { groupId: "G2" })]))).toEqual({
      settled: false,
    });
  });

  it("is FULFILLED when every group holds a reservation, whoever booked it, and asks for no review", () => {
    expect(settle(wave, standing(["G1", "G2"], []))).toEqual({
      settled: true,
      changed: true,
      settlement: {
        waveUrn: WAVE,
        demandUrn: "urn:demand:d1",
        outcome: "FULFILLED",
        roomsBooked: 3,
        reviewItemUrns: [],
        settledAt: T0.toISOString(),
      },
      reviewRequests: [],
      event: {
        waveUrn: WAVE,
        caseUrn: CASE.caseUrn,
        demandUrn: "urn:demand:d1",
        outcome: "FULFILLED",
        roomsBooked: 3,
        allGroupsBooked: true,
        reviewItemUrn: null,
      },
    });
  });

  it("is PARTIAL when some groups hold a reservation, counting unallocated groups as not booked", () => {
    const groups = { ...wave, unallocated: [{ groupId: "G3", rooms: 4 }] };
    const decision = settle(groups, standing(["G1"], [failedBooking("G2", refused)]));
    const reviewItemUrn = causeUrn(CASE.caseUrn, `${WAVE}#PARTIAL_FULFILLMENT`);
    expect(decision).toMatchObject({
      settled: true,
      changed: true,
      settlement: { outcome: "PARTIAL", roomsBooked: 2, reviewItemUrns: [reviewItemUrn] },
      reviewRequests: [{ reviewItemUrn, category: "PARTIAL_FULFILLMENT", affectedGroups: ["G2", "G3"] }],
      event: { outcome: "PARTIAL", roomsBooked: 2, allGroupsBooked: false, reviewItemUrn },
    });
  });

  it("is FAILED when no group holds a reservation, asking for BOOKING_FAILED and PAYMENT_FAILED", () => {
    const decision = settle(
      wave,
      standing([], [failedBooking("G1", refused), failedBooking("G2", paymentRefused)]),
    );
    const urns = [
      causeUrn(CASE.caseUrn, `${WAVE}#BOOKING_FAILED`),
      causeUrn(CASE.caseUrn, `${WAVE}#PAYMENT_FAILED`),
    ];
    expect(decision).toMatchObject({
      settlement: { outcome: "FAILED", roomsBooked: 0, reviewItemUrns: urns },
      reviewRequests: [
        { category: "BOOKING_FAILED", affectedGroups: ["G1"] },
        { category: "PAYMENT_FAILED", affectedGroups: ["G2"] },
      ],
      event: { outcome: "FAILED", reviewItemUrn: urns[0] },
    });
  });

  it("settles a wave with nothing allocated at once, as FAILED", () => {
    const nothing = { ...wave, allocated: [], unallocated: [{ groupId: "G1", rooms: 2 }] };
    expect(settle(nothing, standing([], []))).toMatchObject({
      settled: true,
      settlement: { outcome: "FAILED", reviewItemUrns: [] },
      reviewRequests: [],
      event: { reviewItemUrn: null },
    });
  });

  it("changes nothing when it settles again with the same outcome", () => {
    const first = settle(wave, standing(["G1"], [failedBooking("G2", refused)]));
    if (!first.settled) throw new Error("expected a settlement");
    const again = settle(wave, standing(["G1"], [failedBooking("G2", refused)], first.settlement));
    expect(again).toEqual({ settled: true, changed: false, settlement: first.settlement });
  });

  it("reports a new outcome under the first settlement's review items, asking for no new ones", () => {
    const first = settle(wave, standing(["G1"], [failedBooking("G2", refused)]));
    if (!first.settled) throw new Error("expected a settlement");
    const later = settleWave(
      CASE.caseUrn,
      wave,
      standing(["G1", "G2"], [], first.settlement),
      atMs(60_000),
      causeUrn,
    );
    expect(later).toEqual({
      settled: true,
      changed: true,
      settlement: {
        ...first.settlement,
        outcome: "FULFILLED",
        roomsBooked: 3,
        settledAt: atMs(60_000).toISOString(),
      },
      reviewRequests: [],
      event: expect.objectContaining({ outcome: "FULFILLED", allGroupsBooked: true, reviewItemUrn: null }),
    });
    expect(later.settled && later.settlement.reviewItemUrns).toEqual([
      causeUrn(CASE.caseUrn, `${WAVE}#PARTIAL_FULFILLMENT`),
    ]);
  });
});
