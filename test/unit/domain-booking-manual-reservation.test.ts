import { describe, expect, it } from "vitest";
import {
  type ManualReservationRequest,
  manualReservationId,
  recordManualReservation,
} from "../../src/domain/booking/manual-reservation.js";
import { money } from "../../src/domain/money.js";
import { CASE, confirmedReservation, T0, WAVE } from "./group-booking-fixture.js";

const manual: ManualReservationRequest = {
  groupId: "G1",
  waveUrn: WAVE,
  demandUrn: null,
  hotel: { hotelUrn: "urn:hotel:manual", name: "Inn", address: "2 Main St", providerHotelId: null },
  confirmationNumber: "PHONE-1",
  checkIn: "2026-11-21",
  checkOut: "2026-11-22",
  rooms: 1,
  guests: [{ passengerId: "p1", name: "Ada Lovelace" }],
  cost: money(20_000, "USD"),
  reason: "booked by phone",
  bookedBy: "urn:user:operator",
  requestId: "request-1",
  verificationCode: "WXYZ6789",
};

describe("a manual reservation", () => {
  it("derives its id from the case and the request, so a replayed request finds it", () => {
    expect(manualReservationId(CASE.caseUrn, "request-1")).toBe(
      manualReservationId(CASE.caseUrn, "request-1"),
    );
    expect(manualReservationId(CASE.caseUrn, "request-2")).not.toBe(
      manualReservationId(CASE.caseUrn, "request-1"),
    );
    expect(manualReservationId("urn:case:c2", "request-1")).not.toBe(
      manualReservationId(CASE.caseUrn, "request-1"),
    );
  });

  it("is CONFIRMED at vendor manual, paid out of band, with the operator's reason", () => {
    const id = manualReservationId(CASE.caseUrn, "request-1");
    expect(recordManualReservation(CASE, manual, undefined, T0)).toEqual({
      id,
      urn: `urn:reservation:${id}:vendor:manual:status:confirmed`,
      ...CASE,
      groupId: "G1",
      waveUrn: WAVE,
      demandUrn: null,
      status: "CONFIRMED",
      vendor: "manual",
      vendorReservationId: null,
      confirmationNumber: "PHONE-1",
      providerOfferId: null,
      hotel: manual.hotel,
      checkIn: "2026-11-21",
      checkOut: "2026-11-22",
      rooms: 1,
      guests: manual.guests,
      payment: "OUT_OF_BAND",
      cost: manual.cost,
      allocatedCost: null,
      refundable: null,
      cancellationDeadline: null,
      source: "manual",
      attemptedHotels: [],
      voucher: {
        urn: `urn:voucher:${id}`,
        verificationCode: "WXYZ6789",
        issuedAt: T0.toISOString(),
        version: 1,
        amendedAt: null,
      },
      bookedBy: "urn:user:operator",
      reason: "booked by phone",
      replaces: null,
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
      vendorUpdatedAt: null,
    });
  });

  it("is refused for a group that already holds a reservation (spec 3.1)", () => {
    const holding = confirmedReservation();
    expect(() => recordManualReservation(CASE, manual, holding, T0)).toThrow(
      expect.objectContaining({
        kind: "conflict",
        code: "group-already-booked",
        details: { reservationUrn: holding.urn },
      }),
    );
  });
});
