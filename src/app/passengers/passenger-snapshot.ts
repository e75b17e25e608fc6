import { inject, injectable } from "tsyringe";
import { BookingActor, type BookingLedger, holdingReservation } from "../../../actors/BookingActor.js";
import { DomainError } from "../../domain/domain-error.js";
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
import { groupNotFound, type PassengerProfile, passengerProfile } from "./passenger-profile.js";

/** What the compensation saga offers the group (the sub-case's `offer`); null before it has. */
export type SubCaseOffer = NonNullable<SubCaseView["offer"]>;

/** The passenger's answer to the offer (the sub-case's `answer`). */
export type SubCaseAnswer = NonNullable<SubCaseView["answer"]>;

/**
 * What a passenger route answers from, read once per request (spec 4.4: "a denormalized snapshot,
 * one read per request"): the session's group as its sub-case sees it, with the offer and answer,
 * and the group's reservations. The two reads go out together. The case and group come from the
 * session, never from the request; a group that left the case since the session began (merged,
 * split: its sub-case is retired) is refused (404 `group-not-found`), as `GET /v1/me` refuses it.
 * The case's manifest (a full flight's weighs tens of kilobytes) is read only by the routes that
 * need a passenger's details (`withProfile`).
 */
export interface PassengerSnapshot {
  session: PassengerPrincipal;
  subCase: SubCaseView;
  offer: SubCaseOffer | null;
  answer: SubCaseAnswer | null;
  /** The reservation that houses the group now, if any. */
  holding: Reservation | undefined;
  /** The reservation the offer names, when there is an offer and it is known to booking. */
  offered: Reservation | undefined;
}

/** The snapshot with the case and the group's passengers (the voucher's language, the profile). */
export interface PassengerProfileSnapshot extends PassengerSnapshot {
  case: CaseRecord;
  profile: PassengerProfile;
  /** The language the passenger's texts are written in (the manifest's preference, else English). */
  language: PassengerLanguage;
}

@injectable()
export class PassengerSnapshots {
  constructor(
    @inject(TOKENS.actors) private readonly actors: ActorRuntime,
    @inject(CaseChanges) private readonly cases: CaseChanges,
  ) {}

  async of(session: PassengerPrincipal): Promise<PassengerSnapshot> {
    const [subCase, ledger] = await Promise.all([this.subCaseOf(session), this.ledgerOf(session)]);
    return this.snapshotOf(session, subCase, ledger);
  }

  async withProfile(session: PassengerPrincipal): Promise<PassengerProfileSnapshot> {
    const [caseSnapshot, subCase, ledger] = await Promise.all([
      this.cases.snapshot(session.caseUrn, session),
      this.subCaseOf(session),
      this.ledgerOf(session),
    ]);
    const profile = passengerProfile(caseSnapshot, session);
    return {
      ...this.snapshotOf(session, subCase, ledger),
      case: caseSnapshot.case,
      profile,
      language: passengerLanguage(profile.language),
    };
  }

  private snapshotOf(
    session: PassengerPrincipal,
    subCase: SubCaseView,
    ledger: BookingLedger | undefined,
  ): PassengerSnapshot {
    const { offer, answer } = subCase;
    const offeredId = offer ? parseReservationUrn(offer.reservationUrn)?.id : undefined;
    const offered = offeredId ? ledger?.reservations[offeredId] : undefined;
    return {
      session,
      subCase,
      offer,
      answer,
      holding: ledger && holdingReservation(ledger, session.groupId),
      offered: offered?.groupId === session.groupId ? offered : undefined,
    };
  }

  /** The group's sub-case, or 404 `group-not-found` when the group is not (or no longer) in the case. */
  private async subCaseOf(session: PassengerPrincipal): Promise<SubCaseView> {
    const subCase = await findSubCase(this.actors, subCaseUrnFor(session.caseUrn, session.groupId)).catch(
      (error: unknown) => {
        if (error instanceof DomainError && error.kind === "not-found") return undefined;
        throw error;
      },
    );
    if (!subCase || subCase.tenant !== session.tenant || subCase.retiredAt !== null) throw groupNotFound();
    return subCase;
  }

  private ledgerOf(session: PassengerPrincipal): Promise<BookingLedger | undefined> {
    return this.actors.invoke(BookingActor, caseRefOf(session.caseUrn).id, "groupLedger", [session.groupId]);
  }
}
