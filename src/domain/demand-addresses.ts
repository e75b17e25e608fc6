import { CASE_ID_PATTERN, numberedUrns } from "./numbered-urn.js";
import { parseUrn } from "./urn.js";

const demands = numberedUrns("demand", CASE_ID_PATTERN);

/**
 * Demand lives in the DemandActor of its case (actor id = case id), and a demand URN carries the
 * case id so approval finds the actor from the URN alone: `urn:demand:<case id>.<number>`.
 */
export function demandUrn(caseId: string, number: number): string {
  return demands.urnOf(caseId, number);
}

export interface DemandAddress {
  caseId: string;
  number: number;
}

/** Undefined for a URN that no demand can have (it is then simply not found). */
export function demandAddress(urn: string): DemandAddress | undefined {
  const address = demands.addressOf(urn);
  return address && { caseId: address.actorId, number: address.number };
}

/** The case id of a case URN in either form of spec 2, or undefined. */
export function caseIdOf(caseUrn: string): string | undefined {
  const parsed = parseUrn(caseUrn, "case");
  return parsed && Object.keys(parsed.attributes).length === 0 ? parsed.id : undefined;
}
