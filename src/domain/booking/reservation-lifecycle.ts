import type { DeepReadonly } from "../deep-readonly.js";
import { DomainError } from "../domain-error.js";
import type { ReservationEventData, VoucherIssuedData } from "../events/booking.js";
import { HOLDING_STATUSES, type Reservation, reservationUrn, voucherUrnFor } from "../reservation.js";

/**
 * How a reservation comes to be and ends (spec 1 step 5, 3.6): it is created CONFIRMED with its
 * voucher (version 1) in the same turn, whether a vendor confirmed it or an operator booked it out
 * of band, and it is cancelled once. Its URN is minted at creation and never changes.
 */

/** Whose the reservation is and how it came about. */
export type ReservationOrigin = Pick<
  Reservation,
  | "tenant"
  | "caseUrn"
  | "airport"
  | "groupId"
  | "waveUrn"
  | "demandUrn"
  | "source"
  | "attemptedHotels"
  | "bookedBy"
  | "reason"
>;

/** The stay as it was booked: what the vendor confirmed, or what the operator recorded. */
export type ConfirmedDraft = Omit<
  Reservation,
  keyof ReservationOrigin | "id" | "urn" | "status" | "voucher" | "createdAt" | "updatedAt"
>;

/** A new CONFIRMED reservation under `id`, with its voucher. */
export function createReservation(
  id: string,
  origin: ReservationOrigin,
  stay: ConfirmedDraft,
  verificationCode: string,
  now: Date,
): Reservation {
  const at = now.toISOString();
  return {
    ...stay,
    id,
    urn: reservationUrn(id, stay.vendor, "CONFIRMED"),
    tenant: origin.tenant,
    caseUrn: origin.caseUrn,
    airport: origin.airport,
    groupId: origin.groupId,
    waveUrn: origin.waveUrn,
    demandUrn: origin.demandUrn,
    status: "CONFIRMED",
    source: origin.source,
    attemptedHotels: origin.attemptedHotels,
    voucher: { urn: voucherUrnFor(id), verificationCode, issuedAt: at, version: 1, amendedAt: null },
    bookedBy: origin.bookedBy,
    reason: origin.reason,
    createdAt: at,
    updatedAt: at,
  };
}

/** The service cancelled the reservation (the group moved); one already cancelled stays as it is. */
export function cancelReservation(
  reservation: Reservation,
  now: Date,
): { reservation: Reservation; changed: boolean } {
  if (reservation.status === "CANCELLED") return { reservation, changed: false };
  return {
    reservation: { ...reservation, status: "CANCELLED", updatedAt: now.toISOString() },
    changed: true,
  };
}

/**
 * The passenger checked in at the hotel (spec 4.4 `POST /v1/me/check-in`): a CONFIRMED reservation
 * becomes CHECKED_IN; checking in again changes nothing. A cancelled stay, or one already checked
 * out, cannot be checked into (409).
 */
export function checkInReservation(
  reservation: Reservation,
  now: Date,
): { reservation: Reservation; changed: boolean } {
  if (reservation.status === "CHECKED_IN") return { reservation, changed: false };
  if (reservation.status !== "CONFIRMED") {
    throw new DomainError(
      "conflict",
      "reservation-not-checkable",
      `This reservation is ${reservation.status}: only a confirmed stay can be checked into`,
    );
  }
  return {
    reservation: { ...reservation, status: "CHECKED_IN", updatedAt: now.toISOString() },
    changed: true,
  };
}

/** The reservation among these that houses the group now, if any. */
export function holdingReservationAmong<R extends DeepReadonly<Reservation>>(
  reservations: Iterable<R | undefined>,
  groupId: string,
): R | undefined {
  for (const reservation of reservations) {
    if (reservation?.groupId === groupId && HOLDING_STATUSES.has(reservation.status)) return reservation;
  }
  return undefined;
}

export function reservationNotFound(reference: string): DomainError {
  return new DomainError("not-found", "reservation", `No reservation ${reference}`);
}

/** The reservation as its events (reservation.confirmed, reservation.cancelled) carry it. */
export function reservationEventData(reservation: Reservation): ReservationEventData {
  return {
    reservationUrn: reservation.urn,
    groupId: reservation.groupId,
    status: reservation.status,
    checkIn: reservation.checkIn,
    checkOut: reservation.checkOut,
    vendor: reservation.vendor,
    hotelUrn: reservation.hotel.hotelUrn,
    waveUrn: reservation.waveUrn,
  };
}

/** The reservation.cancelled payload: who cancelled it (a user URN, or `hotel`) and why. */
export function cancellationEventData(
  reservation: Reservation,
  cancelledBy: string,
  reason: string,
): ReservationEventData & { cancelledBy: string; reason: string } {
  return { ...reservationEventData(reservation), cancelledBy, reason };
}

/** The reservation.checked-in payload: who checked in (the passenger session's URN). */
export function checkInEventData(
  reservation: Reservation,
  checkedInBy: string,
): ReservationEventData & { checkedInBy: string } {
  return { ...reservationEventData(reservation), checkedInBy };
}

/** The reservation's voucher as its events (voucher.issued, voucher.amended) carry it. */
export function voucherEventData(reservation: Reservation): VoucherIssuedData {
  return {
    voucherUrn: reservation.voucher.urn,
    reservationUrn: reservation.urn,
    groupId: reservation.groupId,
    passengerUrns: reservation.guests.map((g) => `urn:passenger:${g.passengerId}`),
  };
}
