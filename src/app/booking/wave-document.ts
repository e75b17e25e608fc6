import type { PaymentMethod } from "../../domain/policy/policy.js";
import type { Money } from "../../domain/money.js";
import type { Doc, DocumentStore } from "../../runtime/document-store.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/**
 * A completed allocation wave as the allocation area stores it (collection `waves`, `_id` = the
 * wave URN) and as booking reads it: only the fields booking needs are typed here.
 */
export const WAVES_COLLECTION = "waves";

export interface WaveAlternative {
  vendor: string;
  providerOfferId: string;
  nightlyRate?: Money;
}

export interface WaveAllocation {
  groupId: string;
  hotelUrn: string;
  vendor: string;
  providerOfferId: string;
  /** Other offers for the same hotel, cheapest first. */
  alternatives?: WaveAlternative[];
  rooms: number;
  nights: number;
  checkIn: string;
  checkOut: string;
  cost: Money;
  /** Set when a supervisor chose the hotel (wave override). */
  override?: { by: string; reason: string };
}

/** One candidate of the wave (spec 2.6 rankingInputs), as allocation persisted it. */
export interface WaveRankingInput {
  /**
   * The groups the verdict is about (groups needing the same rooms for the same nights share a
   * row); null for a verdict on the offer itself (gated out, or a duplicate of another offer).
   */
  groupIds: string[] | null;
  hotelUrn: string;
  provider: string;
  providerOfferId: string;
  /** Penalty per room-night, lower is better; null for offers that took no part. */
  weightedScore: number | null;
  outcome: "selected" | "discarded";
  reasons: string[];
}

/** A hotel the wave considered, with its offers as they were when the wave ran. */
export interface WaveHotel {
  hotelUrn: string;
  name: string;
  address: string;
  offers: { provider: string; providerOfferId: string; payments: PaymentMethod[] }[];
}

export interface WaveDocument extends Doc {
  tenant: string;
  caseUrn: string;
  demandUrn: string | null;
  policyUrn: string | null;
  policyVersion: number | null;
  status: string;
  rankingInputs: WaveRankingInput[];
  allocations: WaveAllocation[];
  unallocated: { groupId: string; reason: string }[];
  /** Absent from waves that recorded no hotel details. */
  hotels?: WaveHotel[];
  /** The case's wave number; the latest wave has the highest. */
  sequence?: number;
  createdAt: string;
}

@injectable()
export class WaveReader {
  constructor(@inject(TOKENS.documents) private readonly store: DocumentStore) {}

  get(waveUrn: string): Promise<WaveDocument | undefined> {
    return this.store.collection<WaveDocument>(WAVES_COLLECTION).get(waveUrn);
  }

  /** The case's most recent wave, if allocation has run for it. */
  latest(tenant: string, caseUrn: string): Promise<WaveDocument | undefined> {
    return this.store
      .collection<WaveDocument>(WAVES_COLLECTION)
      .findOne({ tenant, caseUrn }, { sort: { sequence: -1, createdAt: -1 } });
  }
}
