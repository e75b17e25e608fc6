import { inject, injectable } from "tsyringe";
import { parseReservationUrn, type Reservation } from "../../domain/reservation.js";
import { voucherLegsOf } from "../../domain/transport/segment-views.js";
import type { VoucherTransport } from "../../domain/voucher.js";
import { TransportSegmentIndex } from "./transport-segment-index.js";

/**
 * The transport block of a reservation's voucher (spec 2.8: pickup place and time, vehicle or
 * driver, dispatcher number): the group's booked legs to and from that reservation's hotel.
 */
@injectable()
export class VoucherTransports {
  constructor(@inject(TransportSegmentIndex) private readonly segments: TransportSegmentIndex) {}

  async of(reservation: Reservation): Promise<VoucherTransport[]> {
    const legs = await this.segments.ofCase(reservation.tenant, reservation.caseUrn, reservation.groupId);
    return voucherLegsOf(legs.filter((s) => parseReservationUrn(s.reservationUrn)?.id === reservation.id));
  }
}
