/** The vendor-side change as booking applies it; booking-reservation.test.ts covers what moves and what is ignored. */
import { describe, expect, it } from "vitest";
import {
  amendedVoucherEventData,
  applyVendorView,
  type VendorView,
} from "../../src/domain/booking/vendor-change.js";
import { money } from "../../src/domain/money.js";
import { atMs, confirmedReservation, draft } from "./group-booking-fixture.js";

const agreed: VendorView = {
  status: "CONFIRMED",
  checkIn: draft.checkIn,
  checkOut: draft.checkOut,
  rooms: draft.rooms,
  total: draft.cost,
  updatedAt: "2026-11-21T14:00:00.000Z",
};

describe("a vendor-side change", () => {
  it("keeps a checked-in reservation checked in when the stay moves", () => {
    const checkedIn = { ...confirmedReservation(), status: "CHECKED_IN" as const };
    const outcome = applyVendorView(checkedIn, { ...agreed, checkOut: "2026-11-23" }, atMs(60_000));
    expect(outcome).toMatchObject({
      reservation: { status: "CHECKED_IN", checkOut: "2026-11-23", voucher: { version: 2 } },
      cancelledByHotel: false,
    });
  });

  it("cancels a checked-in reservation the hotel cancelled", () => {
    const checkedIn = { ...confirmedReservation(), status: "CHECKED_IN" as const };
    const outcome = applyVendorView(checkedIn, { ...agreed, status: "CANCELLED" }, atMs(60_000));
    expect(outcome).toMatchObject({ reservation: { status: "CANCELLED" }, cancelledByHotel: true });
    expect(outcome.changes).toEqual([{ field: "status", before: "CHECKED_IN", after: "CANCELLED" }]);
  });
});

describe("the voucher.amended payload", () => {
  it("carries the voucher, its new version and the fields the vendor changed", () => {
    const outcome = applyVendorView(
      confirmedReservation(),
      { ...agreed, rooms: 3, total: money(36_000, "USD") },
      atMs(60_000),
    );
    const amended = outcome.reservation;
    expect(amendedVoucherEventData(amended, outcome.changes)).toEqual({
      voucherUrn: amended.voucher.urn,
      reservationUrn: amended.urn,
      groupId: "G1",
      passengerUrns: ["urn:passenger:p1", "urn:passenger:p2"],
      version: 2,
      changes: [
        { field: "rooms", before: 2, after: 3 },
        { field: "cost", before: draft.cost, after: money(36_000, "USD") },
      ],
    });
  });
});
