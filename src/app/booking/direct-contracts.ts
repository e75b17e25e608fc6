import { randomBytes } from "node:crypto";
import { fromMajor, times } from "../../domain/money.js";
import type { Clock } from "../../runtime/clock.js";
import type { DocumentCollection, DocumentStore, Filter } from "../../runtime/document-store.js";
import type { VendorReservation } from "../../vendors/vendor-port.js";
import { DIRECT_CONTRACT_PROVIDER } from "../allocation/wave-offers.js";
import { CONTRACTS_COLLECTION, type ContractDocument } from "../hotels/contracts.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** What to reserve under a contract: the wave's allocation names the contract as its offer. */
export interface DirectReservationRequest {
  tenant: string;
  contractUrn: string;
  /** Local dates; check-out is the morning after the last night. */
  checkIn: string;
  checkOut: string;
  rooms: number;
  guestNames: string[];
}

/** Why a contract did not take the group, as an attempted hotel records it. */
export type DirectRefusal =
  /** Some night of the stay has fewer rooms left under the contract than the group needs. */
  | { reason: "contract-exhausted"; providerError: "CONTRACT_ROOMS_EXHAUSTED" }
  /** The contract is gone, or no longer covers every night of the stay. */
  | { reason: "contract-not-covering"; providerError: "CONTRACT_NOT_COVERING" };

export type DirectReservationOutcome =
  | { kind: "reserved"; reservation: VendorReservation; hotelName: string }
  | ({ kind: "refused" } & DirectRefusal);

/** The nights a direct reservation holds, to give them back on cancellation. */
export interface DirectReservationRef {
  /** The contract URN (the reservation's providerOfferId). */
  contractUrn: string;
  /** The reservation's vendorReservationId. */
  holdId: string;
}

/**
 * Rounds of read-then-conditional-update before giving up; each lost round means another booking
 * or a change of terms landed in between, so a few are plenty.
 */
const MAX_ROUNDS = 5;
const DAY_MS = 86_400_000;

/**
 * Direct reservations against the airline's own hotel contracts: no vendor is called, the rooms
 * come out of the contract's allotment in the `contracts` collection. Each reservation takes its
 * rooms for every night of the stay in one conditional update, which only applies while no night
 * would go over `roomsPerNight` and the terms are the ones read: two bookings for the last room
 * cannot both get it, on the in-memory store as on MongoDB. The hold is kept under its id so that
 * a cancellation gives the rooms back exactly once.
 */
@injectable()
export class DirectContracts {
  private readonly contracts: DocumentCollection<ContractDocument>;

  constructor(
    @inject(TOKENS.documents) store: DocumentStore,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {
    this.contracts = store.collection<ContractDocument>(CONTRACTS_COLLECTION);
  }

  async reserve(request: DirectReservationRequest): Promise<DirectReservationOutcome> {
    const nights = nightsOf(request.checkIn, request.checkOut);
    const holdId = `dc${randomBytes(10).toString("hex")}`;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const contract = await this.contracts.findOne({ _id: request.contractUrn, tenant: request.tenant });
      if (!contract || !covers(contract, nights)) {
        return { kind: "refused", reason: "contract-not-covering", providerError: "CONTRACT_NOT_COVERING" };
      }
      // The most rooms a night may already have taken for this group still to fit.
      const limit = contract.roomsPerNight - request.rooms;
      if (limit < 0 || nights.some((night) => (contract.roomsTaken?.[night] ?? 0) > limit)) {
        return { kind: "refused", reason: "contract-exhausted", providerError: "CONTRACT_ROOMS_EXHAUSTED" };
      }
      const at = new Date(this.clock.now()).toISOString();
      const unchanged: Filter = {
        _id: contract._id,
        tenant: request.tenant,
        status: "ACTIVE",
        roomsPerNight: contract.roomsPerNight,
        validFrom: contract.validFrom,
        validTo: contract.validTo,
        [`holds.${holdId}`]: { $exists: false },
      };
      for (const night of nights) unchanged[`roomsTaken.${night}`] = { $not: { $gt: limit } };
      const taken = await this.contracts.updateOne(unchanged, {
        $inc: Object.fromEntries(nights.map((night) => [`roomsTaken.${night}`, request.rooms])),
        $set: { [`holds.${holdId}`]: { rooms: request.rooms, nights, at } },
      });
      if (taken) {
        return {
          kind: "reserved",
          reservation: reservationOf(contract, holdId, request, nights, at),
          hotelName: contract.hotelName,
        };
      }
    }
    throw new Error(`${request.contractUrn} kept changing while its rooms were being taken`);
  }

  /** Gives the reservation's rooms back to the contract; false when it holds none (already released). */
  async release(ref: DirectReservationRef): Promise<boolean> {
    const contract = await this.contracts.get(ref.contractUrn);
    const hold = contract?.holds?.[ref.holdId];
    if (!hold) return false;
    const released = await this.contracts.updateOne(
      { _id: ref.contractUrn, [`holds.${ref.holdId}`]: { $exists: true } },
      {
        $inc: Object.fromEntries(hold.nights.map((night) => [`roomsTaken.${night}`, -hold.rooms])),
        $unset: { [`holds.${ref.holdId}`]: "" },
      },
    );
    return released !== undefined;
  }
}

/** Whether a reservation is a direct one, held against a contract rather than at a vendor. */
export function isDirect(vendor: string): boolean {
  return vendor === DIRECT_CONTRACT_PROVIDER;
}

/** Every night from check-in up to the night before check-out, as local dates. */
function nightsOf(checkIn: string, checkOut: string): string[] {
  const nights: string[] = [];
  for (
    let day = Date.parse(`${checkIn}T00:00:00Z`);
    day < Date.parse(`${checkOut}T00:00:00Z`);
    day += DAY_MS
  ) {
    nights.push(new Date(day).toISOString().slice(0, 10));
  }
  return nights;
}

function covers(contract: ContractDocument, nights: readonly string[]): boolean {
  return (
    contract.status === "ACTIVE" &&
    nights.length > 0 &&
    contract.validFrom <= nights[0]! &&
    contract.validTo >= nights.at(-1)!
  );
}

/**
 * The reservation in the vendors' shape, so booking confirms it like any other. The airline pays
 * the hotel on its account (GUARANTEE) at the contract's rate; the rooms go back to the allotment
 * whenever the reservation is cancelled, so there is no deadline.
 */
function reservationOf(
  contract: ContractDocument,
  holdId: string,
  request: DirectReservationRequest,
  nights: readonly string[],
  at: string,
): VendorReservation {
  return {
    provider: DIRECT_CONTRACT_PROVIDER,
    reservationId: holdId,
    confirmationCode: `DC-${holdId.slice(2, 10).toUpperCase()}`,
    status: "CONFIRMED",
    providerOfferId: contract.urn,
    providerHotelId: contract.hotelUrn,
    checkIn: request.checkIn,
    checkOut: request.checkOut,
    rooms: request.rooms,
    guestNames: request.guestNames,
    payment: "GUARANTEE",
    total: times(fromMajor(contract.nightlyRate, contract.currency), request.rooms * nights.length),
    refundable: true,
    cancellationDeadline: null,
    updatedAt: at,
    // A direct hold is not at a vendor: no vendor lists it, so it needs no client reference.
    clientReference: null,
  };
}
