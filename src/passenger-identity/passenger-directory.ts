/**
 * Where PNR login finds the passenger group a PNR and last name belong to (spec 5.2, path B).
 * The case lifecycle answers it from the case index; DocumentPassengerDirectory answers it from
 * entries seeded by tests and the demo.
 */
import type { CaseStatus } from "../domain/case.js";

export interface PassengerGroupLogin {
  caseUrn: string;
  groupId: string;
  caseStatus: CaseStatus;
}

export interface PassengerDirectory {
  /**
   * The group of `tenant` whose booking `pnr` lists a passenger named `lastName`, compared by
   * `pnrKey` and `lastNameKey`; undefined when there is none.
   */
  findGroupByPnr(tenant: string, pnr: string, lastName: string): Promise<PassengerGroupLogin | undefined>;
}

/** PNRs are record locators: letters and digits, read without case or surrounding blanks. */
export function pnrKey(pnr: string): string {
  return pnr.trim().toUpperCase();
}

/**
 * A last name as passengers type it on a phone: "  MÜLLER" finds "Müller", "Nuñez" finds "NUNEZ".
 * Compatibility decomposition also folds ligatures and full-width letters; inner blanks collapse.
 */
export function lastNameKey(lastName: string): string {
  return lastName.normalize("NFKD").replace(/\p{M}/gu, "").trim().replace(/\s+/g, " ").toLowerCase();
}
