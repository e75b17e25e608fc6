import { parseUrn } from "../urn.js";

/**
 * A wave belongs to the WaveActor of its case (actor id = case id), and its URN carries the case
 * id and the case's wave number, so the actor and the case are found from the URN alone:
 * `urn:wave:<case id>.<number>`.
 */
export function waveUrnFor(caseId: string, number: number): string {
  return `urn:wave:${caseId}.${number}`;
}

export interface WaveAddress {
  caseId: string;
  number: number;
}

/** Undefined for a URN no wave can have (it is then simply not found). */
export function waveAddress(urn: string): WaveAddress | undefined {
  const parsed = parseUrn(urn, "wave");
  const match = parsed && /^([0-9a-zA-Z-]{1,64})\.([1-9][0-9]{0,8})$/.exec(parsed.id);
  if (!match || Object.keys(parsed.attributes).length > 0) return undefined;
  return { caseId: match[1]!, number: Number(match[2]) };
}

/** The progress step a wave reports on the operator channel (graph:step:*). */
export function waveStepUrn(waveUrn: string): string {
  return `urn:step:${waveUrn.slice("urn:wave:".length)}.allocation`;
}
