import { DomainError } from "../../domain/domain-error.js";
import type { OperatorPrincipal } from "../principals.js";
import { assertAirport, assertTenant } from "../authorization.js";
import type { Clock } from "../../runtime/clock.js";
import type {
  Doc,
  DocumentCollection,
  DocumentStore,
  FindOptions,
  Page,
} from "../../runtime/document-store.js";
import type { AuditLog } from "../audit-log.js";
import type { HotelCatalogIndex } from "./hotel-catalog.js";
import { randomUuid } from "../../domain/uuid.js";
import { indexedCollection } from "../indexed-collection.js";

export const CONTRACTS_COLLECTION = "contracts";

/** A direct deal with one hotel, as a supervisor writes it (POST /v1/contracts). */
export interface ContractTerms {
  hotelUrn: string;
  /** Per room per night, in major units of `currency`. */
  nightlyRate: number;
  currency: string;
  /** Rooms the hotel holds for the airline every night of the validity. */
  roomsPerNight: number;
  /** First and last night covered, YYYY-MM-DD, both included. */
  validFrom: string;
  validTo: string;
  /** Airports whose waves may use the contract. */
  airports: string[];
}

export interface ContractDocument extends Doc, ContractTerms {
  urn: string;
  tenant: string;
  hotelName: string;
  status: "ACTIVE";
  version: number;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedAt: string;
  /** Rooms direct reservations hold, per night (YYYY-MM-DD); booking keeps it (src/app/booking/direct-contracts.ts). */
  roomsTaken?: Record<string, number>;
  /** Each direct reservation's rooms and nights, by its id, so that a cancellation gives them back once. */
  holds?: Record<string, ContractHold>;
}

/** The rooms one direct reservation took from the contract. */
export interface ContractHold {
  rooms: number;
  nights: string[];
  at: string;
}

export interface ContractRequest {
  principal: OperatorPrincipal;
  correlationUrn: string;
  reason?: string;
}

export interface ContractBookOptions {
  store: DocumentStore;
  catalog: HotelCatalogIndex;
  audit: AuditLog;
  clock: Clock;
  /** The airports the tenant serves. */
  airportsOf: (tenant: string) => Promise<string[]>;
  /** Whether waves can convert this currency into a policy's. */
  convertible: (currency: string) => boolean;
}

/**
 * Direct hotel contracts of each airline (the `contracts` collection). A contract takes part in
 * allocation waves like any vendor offer, for the nights and airports it covers, and the wave
 * records what it saved against the market rate of the same hotel.
 */
export class ContractBook {
  private readonly documents: DocumentCollection<ContractDocument>;

  constructor(private readonly options: ContractBookOptions) {
    this.documents = indexedCollection(options.store, CONTRACTS_COLLECTION, [
      { keys: { tenant: 1, status: 1, validTo: 1 } },
    ]);
  }

  /** Creates a contract, or replaces the terms of `urn`; every change is audited with before/after. */
  async save(
    request: ContractRequest,
    terms: ContractTerms,
    urn?: string,
  ): Promise<{ contract: ContractDocument; created: boolean }> {
    const { principal } = request;
    const before = urn ? await this.owned(principal, urn) : undefined;
    const hotelName = await this.validate(principal, terms);
    const now = new Date(this.options.clock.now()).toISOString();
    const changed = { ...terms, hotelName, updatedBy: principal.actorUrn, updatedAt: now };
    let contract: ContractDocument;
    if (before) contract = await this.replaceTerms(before, changed);
    else {
      contract = { ...changed, ...newContract(principal, now) };
      await this.documents.insert(contract);
    }
    await this.options.audit.append({
      tenant: principal.tenant,
      actorUrn: principal.actorUrn,
      action: before ? "contract.update" : "contract.create",
      entityUrn: contract.urn,
      caseUrn: null,
      correlationUrn: request.correlationUrn,
      payload: terms,
      ...(request.reason ? { reason: request.reason } : {}),
      before: before ?? null,
      after: contract,
    });
    return { contract, created: !before };
  }

  /** Contracts still valid today (or later), of the caller's airline; `airport` keeps those covering it. */
  async activePage(
    principal: OperatorPrincipal,
    airport: string | undefined,
    page: FindOptions,
  ): Promise<Page<ContractDocument>> {
    if (airport) assertAirport(principal, airport);
    const scope = airport ?? principal.airport;
    return this.documents.find(
      {
        tenant: principal.tenant,
        status: "ACTIVE",
        validTo: { $gte: this.today() },
        ...(scope ? { airports: scope } : {}),
      },
      { ...page, sort: { validFrom: 1 } },
    );
  }

  /** Contracts a wave at `airport` may use: every night from check-in to check-out is covered. */
  async coveringStay(
    tenant: string,
    airport: string,
    stay: { checkIn: string; lastNight: string },
  ): Promise<ContractDocument[]> {
    return this.documents.findAll({
      tenant,
      status: "ACTIVE",
      airports: airport,
      validFrom: { $lte: stay.checkIn },
      validTo: { $gte: stay.lastNight },
    });
  }

  /**
   * Only the terms change, in place: the rooms booking takes meanwhile (`roomsTaken`, `holds`) are
   * updated by other writers and must not be overwritten with what was read before.
   */
  private async replaceTerms(
    before: ContractDocument,
    changed: Partial<ContractDocument>,
  ): Promise<ContractDocument> {
    const after = await this.documents.updateOne(
      { _id: before._id },
      { $set: changed, $inc: { version: 1 } },
    );
    if (!after) throw new DomainError("not-found", "contract", `No contract ${before.urn}`);
    return after;
  }

  private async owned(principal: OperatorPrincipal, urn: string): Promise<ContractDocument> {
    const found = await this.documents.get(urn);
    if (!found) throw new DomainError("not-found", "contract", `No contract ${urn}`);
    assertTenant(principal, found.tenant);
    for (const airport of found.airports) assertAirport(principal, airport);
    return found;
  }

  /** The hotel's name when the terms hold; a refusal naming the field otherwise. */
  private async validate(principal: OperatorPrincipal, terms: ContractTerms): Promise<string> {
    const served = await this.options.airportsOf(principal.tenant);
    for (const airport of terms.airports) {
      if (!served.includes(airport)) {
        throw new DomainError(
          "unprocessable",
          "airport-not-served",
          `The airline does not serve ${airport}`,
          {
            airport,
          },
        );
      }
      assertAirport(principal, airport);
    }
    if (terms.validTo < terms.validFrom) {
      throw new DomainError("unprocessable", "invalid-validity", "validTo must not be before validFrom", {
        validFrom: terms.validFrom,
        validTo: terms.validTo,
      });
    }
    if (!this.options.convertible(terms.currency)) {
      throw new DomainError(
        "unprocessable",
        "unsupported-currency",
        `Waves cannot convert ${terms.currency}; use a currency of the rate table`,
        { currency: terms.currency },
      );
    }
    const hotel = await this.options.catalog.get(terms.hotelUrn);
    if (!hotel) {
      throw new DomainError(
        "unprocessable",
        "unknown-hotel",
        `${terms.hotelUrn} is not in the hotel catalog`,
        {
          hotelUrn: terms.hotelUrn,
        },
      );
    }
    if (!terms.airports.includes(hotel.airport)) {
      throw new DomainError(
        "unprocessable",
        "hotel-not-at-airport",
        `${hotel.name} is near ${hotel.airport}, which the contract does not list`,
        { hotelUrn: terms.hotelUrn, airport: hotel.airport },
      );
    }
    return hotel.name;
  }

  private today(): string {
    return new Date(this.options.clock.now()).toISOString().slice(0, 10);
  }
}

function newContract(principal: OperatorPrincipal, now: string) {
  const urn = randomUuid("urn:contract:");
  return {
    _id: urn,
    urn,
    tenant: principal.tenant,
    status: "ACTIVE" as const,
    version: 1,
    createdBy: principal.actorUrn,
    createdAt: now,
  };
}
