import { inject, injectable } from "tsyringe";
import type { Reservation } from "../../domain/reservation.js";
import type { TransportSegment } from "../../domain/transport/transport-segment.js";
import { type PartnerBooking, partnerBookingOf } from "../booking/reservation-reads.js";
import { ReservationIndex } from "../booking/reservation-index.js";
import { CaseChanges } from "../cases/case-changes.js";
import type { PartnerPrincipal } from "../principals.js";
import { TransportSegmentIndex } from "../transport/transport-segment-index.js";
import { WalletCardIndex, type WalletCardIndexDoc } from "../wallet/wallet-card-index.js";

/** Reservations read per page while gathering a case's hotels (a case holds one per group). */
const PAGE = 200;

/**
 * A ground transport leg as a partner reads it: what a voucher with transport shows (spec 2.8:
 * pickup location and time, vehicle, dispatcher contact) and its state; not the provider's price,
 * its ride id or the driver's name.
 */
export interface PartnerTransportLeg {
  urn: string;
  groupId: string;
  reservationUrn: string;
  direction: TransportSegment["direction"];
  status: TransportSegment["status"];
  scheduledAt: string;
  vehicleType: TransportSegment["vehicleType"];
  passengers: number;
  pickupLocation: string;
  dropoffLocation: string;
  vehicle: string | null;
  dispatcherPhone: string | null;
  etaAt: string | null;
}

/** A wallet card as a partner reads it: which group holds it and its state, never balances or issuer ids. */
export interface PartnerWalletCard {
  urn: string;
  groupId: string;
  status: WalletCardIndexDoc["status"];
  issuedAt: string;
}

export interface CaseServices {
  caseUrn: string;
  /** Every hotel reservation of the case, oldest first, as a partner reads a booking. */
  hotels: PartnerBooking[];
  /** Ground transport segments (spec 2.8), by group then direction. */
  transport: PartnerTransportLeg[];
  /** Virtual prepaid cards (spec 2.7), by group then issue time. */
  walletCards: PartnerWalletCard[];
}

/**
 * `GET /partner/v1/cases/{case_urn}/services` (spec 4.3): what the platform arranged for a case's
 * passengers, read from the areas that keep it: hotel reservations with their vouchers (booking),
 * ground transport segments (transport) and wallet cards (wallet). Each list holds what those
 * areas recorded, and nothing else. This folder sits above those areas so none of them needs
 * another.
 */
@injectable()
export class CaseServiceReads {
  constructor(
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(ReservationIndex) private readonly reservations: ReservationIndex,
    @inject(TransportSegmentIndex) private readonly segments: TransportSegmentIndex,
    @inject(WalletCardIndex) private readonly cards: WalletCardIndex,
  ) {}

  async ofCase(partner: PartnerPrincipal, caseUrn: string): Promise<CaseServices> {
    const snapshot = await this.cases.snapshot(caseUrn, partner);
    const { tenant, urn } = snapshot.case;
    const [reservations, segments, cards] = await Promise.all([
      this.allReservations(tenant, urn),
      this.segments.ofCase(tenant, urn),
      this.cards.ofCase(tenant, urn),
    ]);
    return {
      caseUrn: urn,
      hotels: reservations.map(partnerBookingOf),
      transport: segments.map(partnerTransportLegOf),
      walletCards: cards.map(({ cardUrn, groupId, status, issuedAt }) => ({
        urn: cardUrn,
        groupId,
        status,
        issuedAt,
      })),
    };
  }

  private async allReservations(tenant: string, caseUrn: string): Promise<Reservation[]> {
    const all: Reservation[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.reservations.casePage(tenant, caseUrn, {
        limit: PAGE,
        ...(cursor ? { cursor } : {}),
      });
      all.push(...page.items);
      cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
    } while (cursor);
    return all;
  }
}

function partnerTransportLegOf(segment: TransportSegment): PartnerTransportLeg {
  return {
    urn: segment.urn,
    groupId: segment.groupId,
    reservationUrn: segment.reservationUrn,
    direction: segment.direction,
    status: segment.status,
    scheduledAt: segment.scheduledAt,
    vehicleType: segment.vehicleType,
    passengers: segment.passengers,
    pickupLocation: segment.pickupLocation,
    dropoffLocation: segment.dropoffLocation,
    vehicle: segment.ride?.vehicle ?? null,
    dispatcherPhone: segment.ride?.dispatcherPhone ?? null,
    etaAt: segment.ride?.etaAt ?? null,
  };
}
