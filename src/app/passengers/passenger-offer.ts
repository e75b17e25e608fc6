import { DrillCases } from "../cases/drill-cases.js";
import { inject, injectable } from "tsyringe";
import { DomainError } from "../../domain/domain-error.js";
import { nightsBetween, type Reservation, type ReservationStatus } from "../../domain/reservation.js";
import type { SubCaseStatus } from "../../domain/sub-case.js";
import { type VoucherTransport, voucherViewOf } from "../../domain/voucher.js";
import { qrImageOf, voucherPage } from "../booking/voucher-pages.js";
import { CaseEntitlements, type CaseEntitlementsView } from "../cases/case-entitlements.js";
import { VoucherTransports } from "../transport/voucher-transport.js";
import { WalletReads } from "../wallet/wallet-reads.js";
import { HotelCatalogIndex } from "../hotels/hotel-catalog.js";
import type { PassengerPrincipal } from "../principals.js";
import { AnswerOffer } from "../sub-cases/answer-offer.js";
import { caseRefOf } from "../cases/case-changes.js";
import { OfferCache } from "./offer-cache.js";
import { type PassengerSnapshot, PassengerSnapshots, type SubCaseAnswer } from "./passenger-snapshot.js";

/** Where the passenger's printable voucher is, on the passenger host. */
export const PASSENGER_VOUCHER_PATH = "/v1/me/voucher";
/** Where a passenger reads the group's meal card (spec 4.4 `/v1/me/wallet`). */
export const PASSENGER_WALLET_PATH = "/v1/me/wallet";

/**
 * `GET /v1/me/offer` (spec 4.4): where the group's compensation stands (the sub-case's status and
 * the passenger's answer, the deadline to answer by) and, once the saga has made an offer, what it
 * is: the hotel (with its coordinates when the hotel catalog knows it), the stay, the voucher with
 * its QR code, the transport legs and the wallet card link.
 *
 * `offer` is null until the sub-case carries an offer: a booked room is not yet an offer, since the
 * saga confirms the stay and issues the voucher before it asks the passenger. The transport legs are
 * the group's booked rides to and from that hotel (the voucher's transport block, spec 2.8), an
 * empty list while none is booked; the wallet card link is null while no card is issued.
 */
export interface PassengerOffer {
  caseUrn: string;
  subCaseUrn: string;
  groupId: string;
  /** The sub-case's status: the offer's state (OFFER_READY waits for the passenger's answer). */
  status: SubCaseStatus;
  answer: SubCaseAnswer | null;
  /** ISO 8601: the deadline to answer by, when the offer has one. */
  answerBy: string | null;
  offer: OfferedStay | null;
  /**
   * What the group is owed whatever the offer: the care of each passenger-rights regime covering
   * the flight and the group's meal allowance (src/domain/entitlements).
   */
  entitlements: CaseEntitlementsView;
  /** True when the case is a drill (spec 4.2): the offer is a rehearsal, no room is the passenger's. */
  drill: boolean;
}

export interface OfferedStay {
  reservationUrn: string;
  reservationStatus: ReservationStatus;
  hotel: {
    hotelUrn: string;
    name: string;
    address: string;
    coordinates: { lat: number; lon: number } | null;
  };
  checkIn: string;
  checkOut: string;
  nights: number;
  rooms: number;
  voucher: {
    voucherUrn: string;
    validity: "VALID" | "VOID";
    verificationCode: string;
    /** The voucher's QR code (what the hotel scans) as an SVG data URI. */
    qrCode: string;
    /** The printable voucher page, in the passenger's language. */
    printableUrl: string;
  };
  transport: VoucherTransport[];
  walletCardUrl: string | null;
}

@injectable()
export class PassengerOffers {
  constructor(
    @inject(PassengerSnapshots) private readonly snapshots: PassengerSnapshots,
    @inject(HotelCatalogIndex) private readonly hotels: HotelCatalogIndex,
    @inject(AnswerOffer) private readonly answers: AnswerOffer,
    @inject(CaseEntitlements) private readonly entitlements: CaseEntitlements,
    @inject(VoucherTransports) private readonly transport: VoucherTransports,
    @inject(WalletReads) private readonly wallets: WalletReads,
    @inject(DrillCases) private readonly drills: DrillCases,
    @inject(OfferCache) private readonly cache: OfferCache<PassengerOffer>,
  ) {}

  /** The offer as last built for the session's group, unless something changed it since (OfferCache). */
  current(session: PassengerPrincipal): Promise<PassengerOffer> {
    const { tenant, caseUrn, groupId } = session;
    return this.cache.read(tenant, caseRefOf(caseUrn).id, groupId, () => this.built(session));
  }

  /** After a write of the session's own (an answer, a check-in): the offer as it now stands. */
  changed(session: PassengerPrincipal): Promise<PassengerOffer> {
    this.cache.drop(session.tenant, caseRefOf(session.caseUrn).id, session.groupId);
    return this.current(session);
  }

  private async built(session: PassengerPrincipal): Promise<PassengerOffer> {
    const [snapshot, entitlements] = await Promise.all([
      this.snapshots.of(session),
      this.entitlements.ofGroupInCase(session, session.caseUrn, session.groupId),
    ]);
    return this.offerOf(snapshot, entitlements);
  }

  /**
   * `POST /v1/me/offer/accept` (spec 4.4, 3.4): the sub-case becomes RESOLVED. Accepting again is
   * answered as the first accept was; an offer declined, or not made, is a conflict (409).
   */
  async accept(session: PassengerPrincipal, correlationUrn: string): Promise<PassengerOffer> {
    await this.snapshots.of(session);
    await this.answers.accept({ ...this.answerOf(session), correlationUrn });
    return this.changed(session);
  }

  /**
   * `POST /v1/me/offer/decline`: the saga rolls the stay back and the operators are told; an offer
   * already answered, or not made, is a conflict (409).
   */
  async decline(
    session: PassengerPrincipal,
    reason: string,
    correlationUrn: string,
  ): Promise<PassengerOffer> {
    await this.snapshots.of(session);
    await this.answers.decline({ ...this.answerOf(session), correlationUrn, reason });
    return this.changed(session);
  }

  private answerOf(session: PassengerPrincipal) {
    return { caseUrn: session.caseUrn, groupId: session.groupId, by: session.actorUrn };
  }

  /** The offer as a snapshot shows it. */
  async offerOf(snapshot: PassengerSnapshot, entitlements: CaseEntitlementsView): Promise<PassengerOffer> {
    const { subCase, offer, offered } = snapshot;
    return {
      caseUrn: subCase.caseUrn,
      subCaseUrn: subCase.subCaseUrn,
      groupId: subCase.groupId,
      status: subCase.status,
      answer: snapshot.answer,
      answerBy: offer?.answerBy ?? null,
      offer: offer && offered ? await this.stayOf(offered) : null,
      entitlements,
      drill: await this.drills.isDrill(subCase.caseUrn),
    };
  }

  /**
   * `GET /v1/me/voucher`: the printable voucher of the offered stay (or, before an offer, of the
   * stay the group holds) in the passenger's language; 404 while the group has none.
   */
  async voucher(session: PassengerPrincipal): Promise<string> {
    const snapshot = await this.snapshots.withProfile(session);
    const reservation = snapshot.offered ?? snapshot.holding;
    if (!reservation) {
      throw new DomainError(
        "not-found",
        "voucher-not-issued",
        "No hotel voucher has been issued to your group yet; it comes with your offer",
      );
    }
    return voucherPage(reservation, await this.transport.of(reservation), snapshot.language);
  }

  private async stayOf(reservation: Reservation): Promise<OfferedStay> {
    const [catalogHotel, transport, card] = await Promise.all([
      this.hotels.get(reservation.hotel.hotelUrn),
      this.transport.of(reservation),
      this.wallets.cardOfGroup(reservation.caseUrn, reservation.groupId),
    ]);
    const view = voucherViewOf(reservation, transport);
    const qr = await qrImageOf(view.qrPayload);
    return {
      reservationUrn: reservation.urn,
      reservationStatus: reservation.status,
      hotel: {
        hotelUrn: reservation.hotel.hotelUrn,
        name: reservation.hotel.name,
        address: reservation.hotel.address,
        coordinates: catalogHotel ? { lat: catalogHotel.lat, lon: catalogHotel.lon } : null,
      },
      checkIn: reservation.checkIn,
      checkOut: reservation.checkOut,
      nights: nightsBetween(reservation.checkIn, reservation.checkOut),
      rooms: reservation.rooms,
      voucher: {
        voucherUrn: view.voucherUrn,
        validity: view.validity,
        verificationCode: view.verificationCode,
        qrCode: qr.src,
        printableUrl: PASSENGER_VOUCHER_PATH,
      },
      transport: view.transport,
      walletCardUrl: card?.status === "LOADED" ? PASSENGER_WALLET_PATH : null,
    };
  }
}
