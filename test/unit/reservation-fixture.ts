import { money } from "../../src/domain/money.js";
import { type Reservation, reservationUrn, voucherUrnFor } from "../../src/domain/reservation.js";

/**
 * A CONFIRMED wave reservation with reservation id `id`: group G1 of case c1 at JFK, two rooms for
 * one night at vendor-a, with its voucher issued (spec 3.6); `overrides` set what a test is about.
 */
export function confirmedReservation(id: string, overrides: Partial<Reservation> = {}): Reservation {
  return {
    id,
    urn: reservationUrn(id, "vendor-a", "CONFIRMED"),
    tenant: "urn:airline:ZX",
    caseUrn: "urn:case:c1",
    airport: "JFK",
    groupId: "G1",
    waveUrn: "urn:wave:w1",
    demandUrn: null,
    status: "CONFIRMED",
    vendor: "vendor-a",
    vendorReservationId: "A000001",
    confirmationNumber: "CONF123",
    providerOfferId: "OFFER1",
    hotel: { hotelUrn: "urn:hotel:H1", name: "Skyport", address: "1 Main St", providerHotelId: "H1" },
    checkIn: "2026-11-21",
    checkOut: "2026-11-22",
    rooms: 2,
    guests: [{ passengerId: "p1", name: "Ana Rivera" }],
    payment: "GUARANTEE",
    cost: money(24_000, "USD"),
    allocatedCost: null,
    refundable: true,
    cancellationDeadline: null,
    source: "wave",
    attemptedHotels: [],
    voucher: {
      urn: voucherUrnFor(id),
      verificationCode: "ABCDEFGH",
      issuedAt: "t",
      version: 1,
      amendedAt: null,
    },
    bookedBy: "urn:system:booking",
    reason: null,
    replaces: null,
    createdAt: "2026-11-21T12:00:00.000Z",
    updatedAt: "2026-11-21T12:00:00.000Z",
    vendorUpdatedAt: null,
    ...overrides,
  };
}
