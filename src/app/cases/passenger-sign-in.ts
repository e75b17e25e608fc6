import type { CaseStatus } from "../../domain/case.js";

/**
 * What the case projection tells passenger sign-in (spec 5.2); the passenger identity implements
 * both ports over its own collections.
 */

/** One passenger's way in: a PNR and last name leading to the group of one case. */
export interface PassengerLogin {
  tenant: string;
  pnr: string;
  lastName: string;
  caseUrn: string;
  groupId: string;
  caseStatus: CaseStatus;
}

/** Where PNR login looks passengers up (the passenger directory). */
export interface PassengerLogins {
  upsert(login: PassengerLogin): Promise<void>;
}

/** The passenger tokens of a case end when it closes; after a reopen, new ones are accepted. */
export interface CaseTokenRevocations {
  revokeCase(caseUrn: string, at: Date): Promise<void>;
  caseReopened(caseUrn: string): Promise<void>;
  isClosed(caseUrn: string): Promise<boolean>;
}
