import type { PassengerLogin, PassengerLogins } from "../app/cases/passenger-sign-in.js";
import type { CaseStatus } from "../domain/case.js";
import type { Doc, DocumentStore } from "../runtime/document-store.js";
import {
  lastNameKey,
  type PassengerDirectory,
  type PassengerGroupLogin,
  pnrKey,
} from "./passenger-directory.js";

export const PASSENGER_LOGINS_COLLECTION = "passenger-logins";

/** One passenger's way in: a PNR and last name leading to the group of one case. */
export interface PassengerLoginEntry extends Doc {
  tenant: string;
  /** As `pnrKey` reads it. */
  pnr: string;
  /** As `lastNameKey` reads it. */
  lastNameKey: string;
  caseUrn: string;
  groupId: string;
  caseStatus: CaseStatus;
}

/**
 * The passenger directory over a document collection. A PNR may appear in several cases (a booking
 * disrupted twice), so each entry is keyed by case as well; an open case wins over a closed one.
 */
export class DocumentPassengerDirectory implements PassengerDirectory, PassengerLogins {
  constructor(private readonly store: DocumentStore) {}

  private get entries() {
    return this.store.collection<PassengerLoginEntry>(PASSENGER_LOGINS_COLLECTION);
  }

  async findGroupByPnr(
    tenant: string,
    pnr: string,
    lastName: string,
  ): Promise<PassengerGroupLogin | undefined> {
    const matches = await this.entries.findAll(
      { tenant, pnr: pnrKey(pnr), lastNameKey: lastNameKey(lastName) },
      { sort: { _id: 1 } },
    );
    const entry = matches.find((m) => m.caseStatus !== "CLOSED") ?? matches[0];
    return entry && { caseUrn: entry.caseUrn, groupId: entry.groupId, caseStatus: entry.caseStatus };
  }

  /** Adds the entry, or updates the group and case status of the same passenger in the same case. */
  async upsert(login: PassengerLogin): Promise<void> {
    const entry: PassengerLoginEntry = {
      _id: [login.tenant, pnrKey(login.pnr), lastNameKey(login.lastName), login.caseUrn].join("|"),
      tenant: login.tenant,
      pnr: pnrKey(login.pnr),
      lastNameKey: lastNameKey(login.lastName),
      caseUrn: login.caseUrn,
      groupId: login.groupId,
      caseStatus: login.caseStatus,
    };
    await this.entries.put(entry);
  }
}
