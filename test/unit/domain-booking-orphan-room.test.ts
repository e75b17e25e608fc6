import { describe, expect, it } from "vitest";
import { cancelsFreely, orphanReview, orphanVerdict } from "../../src/domain/booking/orphan-room.js";
import { vendorBookingKey } from "../../src/domain/booking/vendor-idempotency.js";
import {
  parseVendorBookingReference,
  vendorBookingReference,
  vendorReferencePrefix,
} from "../../src/domain/booking/vendor-reference.js";
import { money } from "../../src/domain/money.js";
import { bookingIn, CASE, claimed, confirmedReservation, plan } from "./group-booking-fixture.js";

const candidate = plan.candidates[0]!;
const keyOf = (attempt: number) => vendorBookingKey(CASE.caseUrn, claimed().key, attempt, candidate);
const room = (attempt: number, reservationId = "RA000009") => ({
  vendor: candidate.vendor,
  reservationId,
  idempotencyKey: keyOf(attempt),
});

describe("the platform's client reference at the vendors", () => {
  it("names the tenant, case, group and key, and reads back only what the platform wrote", () => {
    const parts = { tenant: "urn:airline:ZX", caseId: "c/1", groupId: "G 1", idempotencyKey: keyOf(1) };
    const reference = vendorBookingReference(parts);
    expect(reference.startsWith(vendorReferencePrefix("urn:airline:ZX"))).toBe(true);
    expect(reference.startsWith(vendorReferencePrefix("urn:airline:Z"))).toBe(false);
    expect(parseVendorBookingReference(reference)).toEqual(parts);
    expect(parseVendorBookingReference("WALK-IN-42")).toBeUndefined();
    expect(parseVendorBookingReference("dra/x/y/z")).toBeUndefined();
    expect(parseVendorBookingReference("dra/%E0%A4/c/G1/k")).toBeUndefined();
  });
});

describe("whether a listed room is an orphan", () => {
  it("is held when a reservation records it, whatever its booking says", () => {
    const reservation = confirmedReservation();
    const listed = { ...room(1), reservationId: reservation.vendorReservationId! };
    const group = { bookings: [bookingIn("BOOKED", { attempt: 3 })], reservations: [reservation] };
    expect(orphanVerdict(CASE.caseUrn, group, listed)).toBe("held");
  });

  it("is in flight while a booking books, or waits to book again, in the attempt its key belongs to", () => {
    for (const state of ["BOOKING", "PENDING"] as const) {
      const group = { bookings: [bookingIn(state, { attempt: 2 })], reservations: [] };
      expect(orphanVerdict(CASE.caseUrn, group, room(2))).toBe("in-flight");
      // A claim taken over after its lease started attempt 2: attempt 1's booker cannot confirm.
      expect(orphanVerdict(CASE.caseUrn, group, room(1))).toBe("orphan");
    }
  });

  it("is an orphan once the booking is decided, or when no booking of the group knows the key", () => {
    for (const state of ["BOOKED", "FAILED"] as const) {
      const group = { bookings: [bookingIn(state, { attempt: 1 })], reservations: [] };
      expect(orphanVerdict(CASE.caseUrn, group, room(1))).toBe("orphan");
    }
    expect(orphanVerdict(CASE.caseUrn, { bookings: [], reservations: [] }, room(1))).toBe("orphan");
  });
});

describe("what becomes of an orphan", () => {
  const now = new Date("2026-11-21T12:00:00Z");

  it("is cancelled while its rate cancels for free, else referred", () => {
    expect(cancelsFreely({ refundable: true, cancellationDeadline: "2026-11-21T18:00:00Z" }, now)).toBe(true);
    expect(cancelsFreely({ refundable: true, cancellationDeadline: "2026-11-21T11:59:59Z" }, now)).toBe(
      false,
    );
    expect(cancelsFreely({ refundable: true, cancellationDeadline: null }, now)).toBe(true);
    expect(cancelsFreely({ refundable: false, cancellationDeadline: null }, now)).toBe(false);
  });

  it("is referred as one MANUAL_RECONCILIATION item per room naming the vendor, its booking id and the cost", () => {
    const orphan = {
      ...room(1),
      caseUrn: CASE.caseUrn,
      groupId: "G1",
      confirmationCode: "7QX2K9A",
      total: money(123_45, "EUR"),
      clientReference: "dra/ZX/c1/G1/k",
    };
    const request = orphanReview(orphan, "it was booked at a non-refundable rate");
    expect(request).toMatchObject({
      caseUrn: CASE.caseUrn,
      category: "MANUAL_RECONCILIATION",
      affectedGroups: ["G1"],
    });
    expect(request.reason).toContain("vendor-a holds booking RA000009");
    expect(request.reason).toContain("123.45 EUR");
    expect(orphanReview(orphan, "another reason").reviewItemUrn).toBe(request.reviewItemUrn);
    expect(orphanReview({ ...orphan, reservationId: "RA000010" }, "x").reviewItemUrn).not.toBe(
      request.reviewItemUrn,
    );
  });
});
