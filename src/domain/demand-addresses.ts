import { parseUrn } from "./urn.js";

/**
 * Demand lives in the DemandActor of its case (actor id = case id), and a demand URN carries the
 * case id so approval finds the actor from the URN alone: `urn:demand:<case id>.<number>`.
 */
export function demandUrn(caseId: string, number: number): string {
  return `urn:demand:${caseId}.${number}`;
}

export interface DemandAddress {
  caseId: string;
  number: number;
}

/** Undefined for a URN that no demand can have (it is then simply not found). */
export function demandAddress(urn: string): DemandAddress | undefined {
  const parsed = parseUrn(urn, "demand");
  const match = parsed && /^([0-9a-zA-Z-]{1,64})\.([1-9][0-9]{0,8})$/.exec(parsed.id);
  if (!match || Object.keys(parsed.attributes).length > 0) return undefined;
  return { caseId: match[1]!, number: Number(match[2]) };
}

/** The case id of a case URN in either form of spec 2, or undefined. */
export function caseIdOf(caseUrn: string): string | undefined {
  const parsed = parseUrn(caseUrn, "case");
  return parsed && Object.keys(parsed.attributes).length === 0 ? parsed.id : undefined;
}
