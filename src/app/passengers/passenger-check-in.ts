import { inject, injectable } from "tsyringe";
import { BookingActor } from "../../../actors/BookingActor.js";
import type { Reservation } from "../../domain/reservation.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { ReservationIndex } from "../booking/reservation-index.js";
import { caseRefOf } from "../cases/case-changes.js";
import type { PassengerPrincipal } from "../principals.js";
import { PassengerSnapshots } from "./passenger-snapshot.js";

/**
 * `POST /v1/me/check-in` (spec 4.4, "self check-in on arrival at the hotel"): the reservation that
 * houses the session's group becomes CHECKED_IN (reservation.checked-in); checking in again changes
 * nothing. 404 when the group holds no reservation, 409 when its stay was cancelled. The operator
 * reads see it at once: the turn's reservation goes to the reservation index before the answer.
 */
@injectable()
export class PassengerCheckIn {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(PassengerSnapshots) private readonly snapshots: PassengerSnapshots,
    @inject(ReservationIndex) private readonly reservations: ReservationIndex,
  ) {}

  async checkIn(
    session: PassengerPrincipal,
    correlationUrn: string,
  ): Promise<{ reservation: Reservation; changed: boolean }> {
    // The session's group must still be in its case (404 otherwise), as for every passenger route.
    await this.snapshots.of(session);
    const turn = await this.actors.invoke(BookingActor, caseRefOf(session.caseUrn).id, "checkIn", {
      groupId: session.groupId,
      by: session.actorUrn,
      correlationUrn,
    });
    await this.reservations.record(turn);
    return { reservation: turn.reservations[0]!, changed: turn.changed };
  }
}
