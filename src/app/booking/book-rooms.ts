import { BookingActor } from "../../../actors/BookingActor.js";
import type { BookingState } from "../../domain/booking/group-booking.js";
import { assertCaseOpen } from "../../domain/case-lifecycle.js";
import { DomainError } from "../../domain/domain-error.js";
import type { OperatorPrincipal } from "../principals.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { CaseChanges, caseRefOf } from "../cases/case-changes.js";
import { WaveReader } from "./wave-reader.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export interface BookRoomsAccepted {
  caseUrn: string;
  waveUrn: string;
  status: "ACCEPTED";
  /** Groups the wave allocated. */
  groups: number;
  /** Where those groups stood when the request was accepted (booking runs after the answer). */
  bookings: Record<BookingState, number>;
  correlationUrn: string;
}

/**
 * POST /v1/cases/{urn}/book-rooms as a composition route: it validates (the case exists, the
 * caller may act on it, it is open, and allocation has produced a wave with something to book),
 * then dispatches to booking through the case's BookingActor, whose outbox carries the request to
 * the booking flow. It answers 202 at once: a wave of many groups takes longer than the 3 s a
 * composition sub-call may, and its outcome shows in the reservations and the demand.
 */
@injectable()
export class BookRooms {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly cases: CaseChanges,
    @inject(WaveReader) private readonly waves: WaveReader,
  ) {}

  async request(
    principal: OperatorPrincipal,
    caseUrn: string,
    correlationUrn: string,
  ): Promise<BookRoomsAccepted> {
    const snapshot = await this.cases.snapshot(caseUrn, principal);
    assertCaseOpen(snapshot.case);
    const wave = await this.waves.latest(snapshot.case.tenant, snapshot.case.urn);
    if (!wave) {
      throw new DomainError(
        "conflict",
        "no-wave",
        "Allocation has not run for this case yet: allocate first",
        {
          caseUrn: snapshot.case.urn,
        },
      );
    }
    if (wave.allocations.length === 0) {
      throw new DomainError("conflict", "nothing-to-book", `Wave ${wave._id} allocated no group`, {
        waveUrn: wave._id,
      });
    }
    const bookings = await this.actors.invoke(BookingActor, caseRefOf(snapshot.case.urn).id, "requestWave", {
      case: {
        tenant: snapshot.case.tenant,
        caseUrn: snapshot.case.urn,
        airport: snapshot.case.flight.origin,
      },
      waveUrn: wave._id,
      groupIds: wave.allocations.map((a) => a.groupId),
      requestedBy: principal.actorUrn,
      correlationUrn,
    });
    return {
      caseUrn: snapshot.case.urn,
      waveUrn: wave._id,
      status: "ACCEPTED",
      groups: wave.allocations.length,
      bookings,
      correlationUrn,
    };
  }
}
