import { inject, injectable } from "tsyringe";
import { BookingActor, holdingReservation } from "../../../actors/BookingActor.js";
import type { CaseRecord } from "../../domain/case.js";
import type { SubCaseView } from "../../domain/events/sub-case.js";
import { type PassengerLanguage, passengerLanguage } from "../../domain/languages.js";
import { parseReservationUrn, type Reservation } from "../../domain/reservation.js";
import { subCaseUrnFor } from "../../domain/sub-case.js";
import type { ActorRuntime } from "../../runtime/actor-runtime.js";
import { TOKENS } from "../../runtime/tokens.js";
import { CaseChanges, caseRefOf } from "../cases/case-changes.js";
import type { PassengerPrincipal } from "../principals.js";
import { findSubCase } from "../sub-cases/find-sub-case.js";
import { type PassengerProfile, passengerProfile } from "./passenger-profile.js";

/** What the compensation saga offers the group (the sub-case's `offer`); null before it has. */
export type SubCaseOffer = NonNullable<SubCaseView["offer"]>;

/** The passenger's answer to the offer (the sub-case's `answer`). */
export type SubCaseAnswer = NonNullable<SubCaseView["answer"]>;

/**
 * Everything a passenger route answers from, read once per request (spec 4.4: "a denormalized
 * snapshot, one read per request"): the case and the session's group in it, the group's sub-case,
 * and the group's reservations. The three reads go out together; the case and group come from the
 * session, never from the request, and a group no longer in the case is refused (404) by
 * `passengerProfile` before anything else is looked at.
 */
export interface PassengerSnapshot {
  session: PassengerPrincipal;
  case: CaseRecord;
  profile: PassengerProfile;
  /** The language the passenger's texts are written in (the manifest's preference, else English). */
  language: PassengerLanguage;
  subCase: SubCaseView;
  offer: SubCaseOffer | null;
  answer: SubCaseAnswer | null;
  /** The reservation that houses the group now, if any. */
  holding: Reservation | undefined;
  /** The reservation the offer names, when there is an offer and it is known to booking. */
  offered: Reservation | undefined;
}

@injectable()
export class PassengerSnapshots {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly cases: CaseChanges,
  ) {}

  async of(session: PassengerPrincipal): Promise<PassengerSnapshot> {
    const caseId = caseRefOf(session.caseUrn).id;
    const [caseSnapshot, subCase, ledger] = await Promise.all([
      this.cases.snapshot(session.caseUrn, session),
      findSubCase(this.actors, subCaseUrnFor(session.caseUrn, session.groupId)),
      this.actors.invoke(BookingActor, caseId, "groupLedger", [session.groupId]),
    ]);
    const profile = passengerProfile(caseSnapshot, session);
    const { offer, answer } = subCase as SubCaseView & {
      offer?: SubCaseOffer | null;
      answer?: SubCaseAnswer | null;
    };
    const offeredId = offer ? parseReservationUrn(offer.reservationUrn)?.id : undefined;
    const offered = offeredId ? ledger?.reservations[offeredId] : undefined;
    return {
      session,
      case: caseSnapshot.case,
      profile,
      language: passengerLanguage(profile.language),
      subCase,
      offer,
      answer,
      holding: ledger && holdingReservation(ledger, session.groupId),
      offered: offered?.groupId === session.groupId ? offered : undefined,
    };
  }
}
