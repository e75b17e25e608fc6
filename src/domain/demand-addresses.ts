import { CASE_ID_PATTERN, type NumberedAddress, numberedUrns } from "./numbered-urn.js";
import { parseUrn } from "./urn.js";

/**
 * Demand lives in the DemandActor of its case (actor id = case id), and a demand URN carries the
 * case id so approval finds the actor from the URN alone: `urn:demand:<case id>.<number>`.
 */
const demands = numberedUrns("demand", "caseId", CASE_ID_PATTERN);

export const demandUrn = demands.urnOf;
export type DemandAddress = NumberedAddress<"caseId">;
export const demandAddress = demands.addressOf;

/** The case id of a case URN in either form of spec 2, or undefined. */
export function caseIdOf(caseUrn: string): string | undefined {
  const parsed = parseUrn(caseUrn, "case");
  return parsed && Object.keys(parsed.attributes).length === 0 ? parsed.id : undefined;
}
