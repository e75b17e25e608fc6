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

const CANONICAL_CASE_PREFIX = "urn:case:";

/** The case id of a case URN in either form of spec 2, or undefined. */
export function caseIdOf(caseUrn: string): string | undefined {
  // The canonical form (what sessions and events carry) is read without a parse: every read asks.
  if (
    caseUrn.startsWith(CANONICAL_CASE_PREFIX) &&
    caseUrn.length > CANONICAL_CASE_PREFIX.length &&
    !caseUrn.includes(":", CANONICAL_CASE_PREFIX.length)
  ) {
    return caseUrn.slice(CANONICAL_CASE_PREFIX.length);
  }
  const parsed = parseUrn(caseUrn, "case");
  return parsed && Object.keys(parsed.attributes).length === 0 ? parsed.id : undefined;
}
