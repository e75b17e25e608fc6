import { reservationNotFound } from "../../domain/booking/reservation-lifecycle.js";
import { DomainError } from "../../domain/domain-error.js";
import {
  parseReservationUrn,
  type Reservation,
  reservationIdOfVoucher,
  urnNames,
} from "../../domain/reservation.js";
import { parseUrn } from "../../domain/urn.js";
import { type VoucherTransport, voucherViewOf, type VoucherView } from "../../domain/voucher.js";
import type { OperatorPrincipal, PartnerPrincipal, Principal } from "../principals.js";
import { assertAirport, assertTenant } from "../authorization.js";
import type { FindOptions, Page } from "../../runtime/document-store.js";
import { CaseChanges } from "../cases/case-changes.js";
import { ReservationIndex } from "./reservation-index.js";
import { voucherPage } from "./voucher-pages.js";
import { inject, injectable } from "tsyringe";

/**
 * What a partner with `bookings.read` sees of a reservation (spec 4.3: a booking is a
 * reservation): the stay and its state, the guests by name, not how it was paid, what it cost or
 * how the booking got there.
 */
export type PartnerBooking = Pick<
  Reservation,
  | "urn"
  | "caseUrn"
  | "groupId"
  | "status"
  | "vendor"
  | "confirmationNumber"
  | "checkIn"
  | "checkOut"
  | "rooms"
  | "createdAt"
  | "updatedAt"
> & {
  hotel: { hotelUrn: string; name: string; address: string };
  guests: { passengerUrn: string; name: string }[];
  voucherUrn: string;
};

/** What a partner with `vouchers.read` sees: the voucher as the passenger received it, nothing more. */
export type PartnerVoucher = Omit<VoucherView, "verificationCode" | "qrPayload">;

/**
 * The transport block of a reservation's voucher (spec 2.8): the ground-transport area answers it
 * (src/app/transport/voucher-transport.ts); the routes hand it in, so booking does not depend on it.
 */
export type VoucherLegs = (reservation: Reservation) => Promise<VoucherTransport[]>;

/**
 * Booking reads on every surface (spec 4.1, 4.3). A reservation URN is found by its id and vendor
 * whatever its status segment says; tenants are checked on every read (403 across tenants) and an
 * airport-scoped operator reads its airport's reservations only.
 */
@injectable()
export class ReservationReads {
  constructor(
    @inject(ReservationIndex) private readonly index: ReservationIndex,
    @inject(CaseChanges) private readonly cases: CaseChanges,
  ) {}

  async caseReservations(
    principal: OperatorPrincipal,
    caseUrn: string,
    page: FindOptions,
  ): Promise<Page<Reservation>> {
    const snapshot = await this.cases.snapshot(caseUrn, principal);
    return this.index.casePage(snapshot.case.tenant, snapshot.case.urn, page);
  }

  async reservation(principal: Principal, urn: string): Promise<Reservation> {
    const ref = parseReservationUrn(urn);
    const reservation = ref && (await this.index.get(ref.id));
    if (!ref || !reservation || !urnNames(ref, reservation)) throw reservationNotFound(urn);
    assertTenant(principal, reservation.tenant);
    if (principal.surface === "operator") assertAirport(principal, reservation.airport);
    return reservation;
  }

  async voucherHtml(principal: OperatorPrincipal, urn: string, legsOf: VoucherLegs): Promise<string> {
    const reservation = await this.reservation(principal, urn);
    return voucherPage(reservation, await legsOf(reservation));
  }

  async partnerBooking(principal: PartnerPrincipal, urn: string): Promise<PartnerBooking> {
    return partnerBookingOf(await this.reservation(principal, urn));
  }

  async partnerVoucher(
    principal: PartnerPrincipal,
    voucherUrn: string,
    legsOf: VoucherLegs,
  ): Promise<PartnerVoucher> {
    const id = reservationIdOfVoucher(voucherUrn);
    const reservation = id && (await this.index.get(id));
    if (!reservation) throw new DomainError("not-found", "voucher", `No voucher ${voucherUrn}`);
    assertTenant(principal, reservation.tenant);
    return partnerVoucherOf(reservation, await legsOf(reservation));
  }

  async passengerVouchers(
    principal: PartnerPrincipal,
    passengerUrn: string,
    page: FindOptions,
    legsOf: VoucherLegs,
  ): Promise<Page<PartnerVoucher>> {
    // A passenger id is unique within a tenant's manifests only: the list is the caller's tenant's.
    const passengerId = parseUrn(passengerUrn, "passenger")?.id;
    if (!passengerId) return { items: [], nextCursor: null, hasMore: false };
    const found = await this.index.passengerPage(principal.tenant, passengerId, page);
    const items = await Promise.all(found.items.map(async (r) => partnerVoucherOf(r, await legsOf(r))));
    return { ...found, items };
  }
}

export function partnerBookingOf(reservation: Reservation): PartnerBooking {
  return {
    urn: reservation.urn,
    caseUrn: reservation.caseUrn,
    groupId: reservation.groupId,
    status: reservation.status,
    vendor: reservation.vendor,
    confirmationNumber: reservation.confirmationNumber,
    hotel: {
      hotelUrn: reservation.hotel.hotelUrn,
      name: reservation.hotel.name,
      address: reservation.hotel.address,
    },
    checkIn: reservation.checkIn,
    checkOut: reservation.checkOut,
    rooms: reservation.rooms,
    guests: reservation.guests.map((g) => ({ passengerUrn: `urn:passenger:${g.passengerId}`, name: g.name })),
    voucherUrn: reservation.voucher.urn,
    createdAt: reservation.createdAt,
    updatedAt: reservation.updatedAt,
  };
}

/**
 * The verification code is left out: it proves the bearer holds the voucher the passenger was
 * given, so it stays with the passenger and the hotel.
 */
export function partnerVoucherOf(
  reservation: Reservation,
  transport: readonly VoucherTransport[] = [],
): PartnerVoucher {
  const { verificationCode, qrPayload, ...view } = voucherViewOf(reservation, transport);
  return view;
}
