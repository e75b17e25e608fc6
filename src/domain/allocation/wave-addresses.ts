import { CASE_ID_PATTERN, numberedUrns } from "../numbered-urn.js";

const waves = numberedUrns("wave", CASE_ID_PATTERN);

/**
 * A wave belongs to the WaveActor of its case (actor id = case id), and its URN carries the case
 * id and the case's wave number, so the actor and the case are found from the URN alone:
 * `urn:wave:<case id>.<number>`.
 */
export function waveUrnFor(caseId: string, number: number): string {
  return waves.urnOf(caseId, number);
}

export interface WaveAddress {
  caseId: string;
  number: number;
}

/** Undefined for a URN no wave can have (it is then simply not found). */
export function waveAddress(urn: string): WaveAddress | undefined {
  const address = waves.addressOf(urn);
  return address && { caseId: address.actorId, number: address.number };
}

/** The progress step a wave reports on the operator channel (graph:step:*). */
export function waveStepUrn(waveUrn: string): string {
  return `urn:step:${waveUrn.slice("urn:wave:".length)}.allocation`;
}
