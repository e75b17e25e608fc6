import { CASE_ID_PATTERN, type NumberedAddress, numberedUrns } from "../numbered-urn.js";

/**
 * A wave belongs to the WaveActor of its case (actor id = case id), and its URN carries the case
 * id and the case's wave number, so the actor and the case are found from the URN alone:
 * `urn:wave:<case id>.<number>`.
 */
const waves = numberedUrns("wave", "caseId", CASE_ID_PATTERN);

export const waveUrnFor = waves.urnOf;
export type WaveAddress = NumberedAddress<"caseId">;
export const waveAddress = waves.addressOf;

/** The progress step a wave reports on the operator channel (graph:step:*). */
export function waveStepUrn(waveUrn: string): string {
  return `urn:step:${waveUrn.slice("urn:wave:".length)}.allocation`;
}
