import { randomBytes } from "node:crypto";
import { BookingActor } from "../../../actors/BookingActor.js";
import { assertCaseOpen } from "../../domain/case-lifecycle.js";
import { DomainError } from "../../domain/domain-error.js";
import { money } from "../../domain/money.js";
import { groupNotFound } from "../../domain/passenger-groups.js";
import {
  nightsBetween,
  type Reservation,
  reservationIdFor,
  verificationCodeFrom,
} from "../../domain/reservation.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import type { AuditLog } from "../audit-log.js";
import { CaseChanges, caseRefOf } from "../cases/case-changes.js";
import { BookingSteps } from "./booking-steps.js";
import { ReservationIndex } from "./reservation-index.js";
import { WaveReader } from "./wave-reader.js";
import { randomUuid } from "../../domain/uuid.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface ManualReservationInput {
  caseUrn: string;
  groupId: string;
  hotel: { name: string; address: string; hotelUrn?: string };
  confirmationNumber: string;
  checkIn: string;
  checkOut: string;
  rooms: number;
  cost: { amountMinor: number; currency: string };
  reason: string;
}

/**
 * POST /v1/booking/manual-reservations: an operator booked a group out of band (by phone, at a
 * hotel no vendor lists) and records it. The reservation counts as booked like any other: it is
 * reported to the case, gets a voucher, and may complete the wave's demand. Audited with the
 * reason and the reservation.
 */
@injectable()
export class ManualReservations {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(WaveReader) private readonly waves: WaveReader,
    @inject(ReservationIndex) private readonly index: ReservationIndex,
    @inject(BookingSteps) private readonly steps: BookingSteps,
    @inject(TOKENS.audit) private readonly audit: AuditLog,
  ) {}

  async record(
    principal: OperatorPrincipal,
    input: ManualReservationInput,
    request: { correlationUrn: string; idempotencyKey: string | undefined },
  ): Promise<Reservation> {
    const snapshot = await this.cases.snapshot(input.caseUrn, principal);
    assertCaseOpen(snapshot.case);
    const group = snapshot.case.passengerGroups.find((g) => g.id === input.groupId);
    if (!group) throw groupNotFound(input.groupId);
    if (nightsBetween(input.checkIn, input.checkOut) < 1) {
      throw new DomainError("invalid", "invalid-stay", "checkOut must be at least one night after checkIn");
    }
    const wave = await this.waves.latest(snapshot.case.tenant, snapshot.case.urn);
    const { reservation, ...turn } = await this.actors.invoke(
      BookingActor,
      caseRefOf(snapshot.case.urn).id,
      "recordManual",
      {
        case: {
          tenant: snapshot.case.tenant,
          caseUrn: snapshot.case.urn,
          airport: snapshot.case.flight.origin,
        },
        groupId: group.id,
        waveUrn: wave?._id ?? null,
        demandUrn: wave?.demandUrn ?? null,
        hotel: {
          hotelUrn:
            input.hotel.hotelUrn ??
            `urn:hotel:manual.${reservationIdFor(input.hotel.name, input.hotel.address)}`,
          name: input.hotel.name,
          address: input.hotel.address,
          providerHotelId: null,
        },
        confirmationNumber: input.confirmationNumber,
        checkIn: input.checkIn,
        checkOut: input.checkOut,
        rooms: input.rooms,
        guests: group.passengers.map((p) => ({
          passengerId: p.id,
          name: [p.firstName, p.lastName].filter(Boolean).join(" "),
        })),
        cost: money(input.cost.amountMinor, input.cost.currency),
        reason: input.reason,
        bookedBy: principal.actorUrn,
        requestId: request.idempotencyKey ?? randomUuid(),
        verificationCode: verificationCodeFrom(randomBytes(8)),
        correlationUrn: request.correlationUrn,
      },
    );
    await this.index.record(turn);
    await this.audit.append({
      tenant: reservation.tenant,
      actorUrn: principal.actorUrn,
      action: "booking.manual-reservation",
      entityUrn: reservation.urn,
      caseUrn: reservation.caseUrn,
      correlationUrn: request.correlationUrn,
      reason: input.reason,
      payload: input,
      before: null,
      after: reservation,
    });
    if (wave) await this.steps.settleWave(wave, snapshot, request.correlationUrn);
    return reservation;
  }
}
