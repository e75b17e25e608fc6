import { DomainError } from "../domain-error.js";
import { MANUAL_VENDOR, type Reservation, reservationIdFor } from "../reservation.js";
import { createReservation } from "./reservation-lifecycle.js";

/**
 * A reservation an operator made out of band (POST /v1/booking/manual-reservations): paid
 * elsewhere, with no vendor record, and refused for a group that already holds one, since a manual
 * booking adds rooms and never replaces a reservation (spec 3.1).
 */
export interface ManualReservationRequest {
  groupId: string;
  waveUrn: string | null;
  demandUrn: string | null;
  hotel: Reservation["hotel"];
  confirmationNumber: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
  guests: Reservation["guests"];
  cost: Reservation["cost"];
  reason: string;
  bookedBy: string;
  /** Makes the reservation id unique per request. */
  requestId: string;
  verificationCode: string;
}

/** The id is derived from the request, so a replayed request finds the reservation it made. */
export function manualReservationId(caseUrn: string, requestId: string): string {
  return reservationIdFor(caseUrn, MANUAL_VENDOR, requestId);
}

/** The new reservation; `holding` is the reservation that houses the group now, if any. */
export function recordManualReservation(
  bookingCase: Pick<Reservation, "tenant" | "caseUrn" | "airport">,
  request: ManualReservationRequest,
  holding: Reservation | undefined,
  now: Date,
): Reservation {
  if (holding) {
    throw new DomainError(
      "conflict",
      "group-already-booked",
      `Group ${request.groupId} already holds reservation ${holding.urn}`,
      { reservationUrn: holding.urn },
    );
  }
  return createReservation(
    manualReservationId(bookingCase.caseUrn, request.requestId),
    {
      tenant: bookingCase.tenant,
      caseUrn: bookingCase.caseUrn,
      airport: bookingCase.airport,
      groupId: request.groupId,
      waveUrn: request.waveUrn,
      demandUrn: request.demandUrn,
      source: "manual",
      attemptedHotels: [],
      bookedBy: request.bookedBy,
      reason: request.reason,
    },
    {
      vendor: MANUAL_VENDOR,
      vendorReservationId: null,
      confirmationNumber: request.confirmationNumber,
      providerOfferId: null,
      hotel: request.hotel,
      checkIn: request.checkIn,
      checkOut: request.checkOut,
      rooms: request.rooms,
      guests: request.guests,
      payment: "OUT_OF_BAND",
      cost: request.cost,
      allocatedCost: null,
      refundable: null,
      cancellationDeadline: null,
      replaces: null,
      vendorUpdatedAt: null,
    },
    request.verificationCode,
    now,
  );
}
