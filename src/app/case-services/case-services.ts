import { inject, injectable } from "tsyringe";
import type { Reservation } from "../../domain/reservation.js";
import { type PartnerBooking, partnerBookingOf } from "../booking/reservation-reads.js";
import { ReservationIndex } from "../booking/reservation-index.js";
import { CaseChanges } from "../cases/case-changes.js";
import type { PartnerPrincipal } from "../principals.js";

/** Reservations read per page while gathering a case's hotels (a case holds one per group). */
const PAGE = 200;

export interface CaseServices {
  caseUrn: string;
  /** Every hotel reservation of the case, oldest first, as a partner reads a booking. */
  hotels: PartnerBooking[];
  /** Ground transport segments (spec 2.8). */
  transport: object[];
  /** Virtual prepaid cards (spec 2.7). */
  walletCards: object[];
}

/**
 * `GET /partner/v1/cases/{case_urn}/services` (spec 4.3): what the platform arranged for a case's
 * passengers, read from the areas that keep it. Hotels come from the booking area's reservations,
 * with their vouchers. Transport segments and wallet cards are kept by areas of their own, which
 * read into their lists here; until such an area records anything, its list is empty, never made up.
 * This folder sits above booking so those areas, which build on booking, can be read here too.
 */
@injectable()
export class CaseServiceReads {
  constructor(
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(ReservationIndex) private readonly reservations: ReservationIndex,
  ) {}

  async ofCase(partner: PartnerPrincipal, caseUrn: string): Promise<CaseServices> {
    const snapshot = await this.cases.snapshot(caseUrn, partner);
    const { tenant, urn } = snapshot.case;
    return {
      caseUrn: urn,
      hotels: (await this.allReservations(tenant, urn)).map(partnerBookingOf),
      transport: [],
      walletCards: [],
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
