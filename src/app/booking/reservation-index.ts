import type { DeepReadonly } from "../../domain/deep-readonly.js";
import type { BookingTurn } from "../../../actors/BookingActor.js";
import type { Reservation } from "../../domain/reservation.js";
import type { DocumentCollection, DocumentStore, FindOptions, Page } from "../../runtime/document-store.js";
import { indexedCollection } from "../indexed-collection.js";
import { type RevisionedDoc, writeRevisioned } from "../revisioned-index.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

export const RESERVATIONS_COLLECTION = "reservations";

/** One document per reservation (`_id` = reservation id), with its passengers for voucher lookups. */
export interface ReservationDocument extends Reservation, RevisionedDoc {
  passengerIds: string[];
}

/**
 * The queryable copy of every BookingActor's reservations: the booking reads, the partner voucher
 * reads and reconciliation (which finds a vendor's reservation here) use it. The actors stay the
 * authority; each turn's reservations are copied here as it returns.
 */
@injectable()
export class ReservationIndex {
  private readonly documents: DocumentCollection<ReservationDocument>;

  constructor(@inject(TOKENS.documents) store: DocumentStore) {
    this.documents = indexedCollection(store, RESERVATIONS_COLLECTION, [
      { keys: { tenant: 1, caseUrn: 1, createdAt: 1 } },
      { keys: { tenant: 1, passengerIds: 1, createdAt: 1 } },
      { keys: { tenant: 1, vendor: 1, vendorReservationId: 1 } },
    ]);
  }

  async record(turn: DeepReadonly<BookingTurn>): Promise<void> {
    await writeRevisioned(
      this.documents,
      turn.reservations.map((reservation) => ({
        ...reservation,
        _id: reservation.id,
        revision: turn.revision,
        passengerIds: reservation.guests.map((g) => g.passengerId),
      })),
    );
  }

  async get(id: string): Promise<Reservation | undefined> {
    const found = await this.documents.get(id);
    return found && toReservation(found);
  }

  async byVendorReservation(
    tenant: string,
    vendor: string,
    vendorReservationId: string,
  ): Promise<Reservation | undefined> {
    const found = await this.documents.findOne({ tenant, vendor, vendorReservationId });
    return found && toReservation(found);
  }

  /** A case's reservations, oldest first. */
  async casePage(tenant: string, caseUrn: string, page: FindOptions): Promise<Page<Reservation>> {
    const found = await this.documents.find({ tenant, caseUrn }, { ...page, sort: { createdAt: 1 } });
    return { ...found, items: found.items.map(toReservation) };
  }

  /** Reservations (so vouchers) listing a passenger, oldest first. */
  async passengerPage(tenant: string, passengerId: string, page: FindOptions): Promise<Page<Reservation>> {
    const found = await this.documents.find(
      { tenant, passengerIds: passengerId },
      { ...page, sort: { createdAt: 1 } },
    );
    return { ...found, items: found.items.map(toReservation) };
  }
}

function toReservation({ _id, revision, passengerIds, ...reservation }: ReservationDocument): Reservation {
  return reservation;
}
