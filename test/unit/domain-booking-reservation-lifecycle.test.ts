import { describe, expect, it } from "vitest";
import * as lifecycle from "../../src/domain/booking/reservation-lifecycle.js";
import { RESERVATION_STATUSES } from "../../src/domain/reservation.js";
import { atMs, CASE, confirmedReservation, draft, T0, WAVE } from "./group-booking-fixture.js";

describe("creating a reservation", () => {
  it("makes it CONFIRMED under the id it is given, its URN and voucher (version 1) minted with it", () => {
    const origin = {
      ...CASE,
      groupId: "G7",
      waveUrn: null,
      demandUrn: null,
      source: "override" as const,
      attemptedHotels: [],
      bookedBy: "urn:user:supervisor",
      reason: null,
    };
    expect(lifecycle.createReservation("r-1", origin, draft, "WXYZ6789", T0)).toEqual({
      ...draft,
      ...origin,
      id: "r-1",
      urn: "urn:reservation:r-1:vendor:vendor-a:status:confirmed",
      status: "CONFIRMED",
      voucher: {
        urn: "urn:voucher:r-1",
        verificationCode: "WXYZ6789",
        issuedAt: T0.toISOString(),
        version: 1,
        amendedAt: null,
      },
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
    });
  });
});

describe("cancelling a reservation", () => {
  it("moves it to CANCELLED, keeping its URN", () => {
    const confirmed = confirmedReservation();
    expect(lifecycle.cancelReservation(confirmed, atMs(60_000))).toEqual({
      reservation: { ...confirmed, status: "CANCELLED", updatedAt: atMs(60_000).toISOString() },
      changed: true,
    });
  });

  it("leaves one already cancelled as it is", () => {
    const cancelled = { ...confirmedReservation(), status: "CANCELLED" as const };
    expect(lifecycle.cancelReservation(cancelled, atMs(60_000))).toEqual({
      reservation: cancelled,
      changed: false,
    });
  });
});

describe("checking a reservation in", () => {
  it("moves a CONFIRMED stay to CHECKED_IN, keeping its URN; again, nothing changes", () => {
    const confirmed = confirmedReservation();
    const { reservation, changed } = lifecycle.checkInReservation(confirmed, atMs(60_000));
    expect(changed).toBe(true);
    expect(reservation).toEqual({
      ...confirmed,
      status: "CHECKED_IN",
      updatedAt: atMs(60_000).toISOString(),
    });
    expect(lifecycle.checkInReservation(reservation, atMs(120_000))).toEqual({ reservation, changed: false });
  });

  it("refuses a cancelled or checked-out stay as a conflict", () => {
    for (const status of ["CANCELLED", "CHECKED_OUT"] as const) {
      expect(() => lifecycle.checkInReservation({ ...confirmedReservation(), status }, T0)).toThrow(
        expect.objectContaining({ kind: "conflict", code: "reservation-not-checkable" }),
      );
    }
  });
});

describe("the reservation that houses a group", () => {
  it("is the group's reservation in a holding status, whatever else is listed", () => {
    const mine = confirmedReservation();
    const other = confirmedReservation({ groupId: "G2", key: `${WAVE}#G2` });
    const holding = RESERVATION_STATUSES.filter((status) =>
      lifecycle.holdingReservationAmong([undefined, other, { ...mine, status }], "G1"),
    );
    expect(holding).toEqual(["CONFIRMED", "CHECKED_IN", "CHECKED_OUT"]);
    expect(lifecycle.holdingReservationAmong([other], "G1")).toBeUndefined();
    expect(lifecycle.holdingReservationAmong([mine, other], "G2")).toBe(other);
  });
});

describe("a reservation's events", () => {
  it("carry the reservation, its voucher and, when cancelled, who cancelled it and why", () => {
    const reservation = confirmedReservation();
    const reservationData = {
      reservationUrn: reservation.urn,
      groupId: "G1",
      status: "CONFIRMED",
      checkIn: draft.checkIn,
      checkOut: draft.checkOut,
      vendor: "vendor-a",
      hotelUrn: "urn:hotel:h1",
      waveUrn: WAVE,
    };
    expect(lifecycle.reservationEventData(reservation)).toEqual(reservationData);
    expect(lifecycle.cancellationEventData(reservation, "hotel", "gone")).toEqual({
      ...reservationData,
      cancelledBy: "hotel",
      reason: "gone",
    });
    expect(lifecycle.voucherEventData(reservation)).toEqual({
      voucherUrn: reservation.voucher.urn,
      reservationUrn: reservation.urn,
      groupId: "G1",
      passengerUrns: ["urn:passenger:p1", "urn:passenger:p2"],
    });
  });

  it("names an unknown reservation as not found", () => {
    expect(lifecycle.reservationNotFound("r-9")).toMatchObject({
      kind: "not-found",
      code: "reservation",
      message: "No reservation r-9",
    });
  });
});
