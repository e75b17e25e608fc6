import { describe, expect, it } from "vitest";
import { applyVendorView } from "../../src/domain/booking/vendor-change.js";
import { money } from "../../src/domain/money.js";
import {
  nightsBetween,
  parseReservationUrn,
  type Reservation,
  reservationIdFor,
  reservationIdOfVoucher,
  reservationUrn,
  urnNames,
  verificationCodeFrom,
} from "../../src/domain/reservation.js";
import { confirmedReservation } from "./reservation-fixture.js";

function reservation(overrides: Partial<Reservation> = {}): Reservation {
  return confirmedReservation(reservationIdFor("case", "wave#G1"), overrides);
}

describe("reservation URN", () => {
  it("has the form urn:reservation:<id>:vendor:<vendor>:status:<status> with the status in lower case", () => {
    const id = reservationIdFor("urn:case:c1", "urn:wave:w1#G1", "vendor-b", "B000042");
    expect(reservationUrn(id, "vendor-b", "CONFIRMED")).toBe(
      `urn:reservation:${id}:vendor:vendor-b:status:confirmed`,
    );
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("derives the same id from the same parts and another from other parts", () => {
    expect(reservationIdFor("a", "b")).toBe(reservationIdFor("a", "b"));
    expect(reservationIdFor("a", "b")).not.toBe(reservationIdFor("a", "c"));
    expect(reservationIdFor("ab", "c")).not.toBe(reservationIdFor("a", "bc"));
  });

  it("parses the full form, the bare form, and refuses other kinds or unknown segments", () => {
    expect(parseReservationUrn("urn:reservation:r1:vendor:vendor-a:status:confirmed")).toEqual({
      id: "r1",
      vendor: "vendor-a",
      status: "confirmed",
    });
    expect(parseReservationUrn("urn:reservation:r1")).toEqual({ id: "r1" });
    expect(parseReservationUrn("urn:booking:r1")).toBeUndefined();
    expect(parseReservationUrn("urn:reservation:r1:hotel:h1")).toBeUndefined();
    expect(parseReservationUrn("urn:reservation:r1:vendor")).toBeUndefined();
  });

  it("names a reservation whatever its status segment says, but not with another vendor or id", () => {
    const r = reservation();
    const later = `urn:reservation:${r.id}:vendor:vendor-a:status:checked_out`;
    expect(urnNames(parseReservationUrn(later)!, r)).toBe(true);
    expect(urnNames(parseReservationUrn(`urn:reservation:${r.id}`)!, r)).toBe(true);
    expect(
      urnNames(parseReservationUrn(`urn:reservation:${r.id}:vendor:vendor-b:status:confirmed`)!, r),
    ).toBe(false);
    expect(urnNames(parseReservationUrn("urn:reservation:other:vendor:vendor-a:status:confirmed")!, r)).toBe(
      false,
    );
  });

  it("gives one voucher per reservation, under the reservation's id", () => {
    const r = reservation();
    expect(r.voucher.urn).toBe(`urn:voucher:${r.id}`);
    expect(reservationIdOfVoucher(r.voucher.urn)).toBe(r.id);
    expect(reservationIdOfVoucher(`urn:voucher:${r.id}:verification:ABC`)).toBeUndefined();
    expect(reservationIdOfVoucher(`urn:reservation:${r.id}`)).toBeUndefined();
  });
});

describe("verification code", () => {
  it("is eight characters without 0, O, 1 or I", () => {
    const code = verificationCodeFrom(Uint8Array.from([0, 8, 14, 22, 31, 32, 255, 128]));
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(() => verificationCodeFrom(new Uint8Array(4))).toThrow();
  });
});

describe("a vendor-side change", () => {
  const now = new Date("2026-11-21T15:00:00Z");
  const view = {
    status: "CONFIRMED" as const,
    checkIn: "2026-11-21",
    checkOut: "2026-11-22",
    rooms: 2,
    total: money(24_000, "USD"),
    updatedAt: "2026-11-21T14:00:00.000Z",
  };

  it("changes nothing when the vendor agrees", () => {
    const outcome = applyVendorView(reservation(), view, now);
    expect(outcome.changes).toEqual([]);
    expect(outcome.reservation.voucher.version).toBe(1);
  });

  it("follows a moved check-out and its cost, and amends the voucher", () => {
    const outcome = applyVendorView(
      reservation(),
      { ...view, checkOut: "2026-11-23", total: money(48_000, "USD") },
      now,
    );
    expect(outcome.changes).toEqual([
      { field: "checkOut", before: "2026-11-22", after: "2026-11-23" },
      { field: "cost", before: money(24_000, "USD"), after: money(48_000, "USD") },
    ]);
    expect(outcome.reservation).toMatchObject({
      checkOut: "2026-11-23",
      status: "CONFIRMED",
      vendorUpdatedAt: view.updatedAt,
      voucher: { version: 2, amendedAt: now.toISOString() },
    });
    expect(outcome.cancelledByHotel).toBe(false);
  });

  it("marks a hotel-side cancellation", () => {
    const outcome = applyVendorView(reservation(), { ...view, status: "CANCELLED" }, now);
    expect(outcome.cancelledByHotel).toBe(true);
    expect(outcome.reservation.status).toBe("CANCELLED");
    expect(outcome.changes).toEqual([{ field: "status", before: "CONFIRMED", after: "CANCELLED" }]);
  });

  it("ignores a view older than the last one applied, so a change listed again undoes nothing", () => {
    const later = reservation({ checkOut: "2026-11-24", vendorUpdatedAt: "2026-11-21T14:30:00.000Z" });
    expect(applyVendorView(later, { ...view, checkOut: "2026-11-23" }, now).changes).toEqual([]);
    expect(
      applyVendorView(later, { ...view, updatedAt: "2026-11-21T14:30:00.000Z" }, now).changes,
    ).toHaveLength(1);
  });

  it("leaves a reservation the service cancelled alone", () => {
    const cancelled = reservation({ status: "CANCELLED" });
    const outcome = applyVendorView(cancelled, { ...view, status: "CANCELLED", checkOut: "2026-11-25" }, now);
    expect(outcome.changes).toEqual([]);
    expect(outcome.reservation).toBe(cancelled);
  });
});

describe("nights", () => {
  it("counts nights between ISO dates across a month end", () => {
    expect(nightsBetween("2026-11-30", "2026-12-02")).toBe(2);
  });
});
