import type { WaveAllocation } from "../../domain/allocation/wave-allocation.js";
import type { DeepReadonly } from "../../domain/deep-readonly.js";
import { inject, injectable } from "tsyringe";
import type { Doc, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import {
  latestWaveOf,
  type RankingVerdict,
  type WaveDocument,
  type WaveHotelRecord,
  type WaveOfferRecord,
  WAVES_COLLECTION,
} from "../allocation/wave-documents.js";

/**
 * Booking's reads of the completed waves allocation stores (src/app/allocation/wave-documents.ts):
 * views derived from the stored document, holding only what booking reads, so that allocation
 * stays free to add fields and a wave written by a test or an older release, without the rest,
 * still books.
 */

type Alternative = WaveAllocation["alternatives"][number];

/** Another offer for the allocated hotel; booking tries it when the first is refused. */
export type BookingAlternative = Pick<Alternative, "vendor" | "providerOfferId"> &
  Partial<Pick<Alternative, "nightlyRate">>;

/** What booking books for one group (spec 2.6), from the wave or an override event. */
export type BookingAllocation = Pick<
  WaveAllocation,
  "groupId" | "hotelUrn" | "vendor" | "providerOfferId" | "rooms" | "nights" | "checkIn" | "checkOut" | "cost"
> & {
  /** Other offers for the same hotel, cheapest first. */
  alternatives?: BookingAlternative[];
  /** Set when a supervisor chose the hotel (wave override). */
  override?: Pick<NonNullable<WaveAllocation["override"]>, "by" | "reason">;
};

/** A hotel the wave considered, with the payments each of its offers took when the wave ran. */
export type BookingWaveHotel = Pick<WaveHotelRecord, "hotelUrn" | "name" | "address"> & {
  offers: Pick<WaveOfferRecord, "provider" | "providerOfferId" | "payments">[];
};

/** A completed wave as booking reads it. */
export type BookingWave = Doc &
  Pick<WaveDocument, "tenant" | "caseUrn" | "demandUrn" | "status" | "createdAt"> & {
    /** Null for a wave written without a policy: booking then pays as the case's current policy says. */
    policyUrn: WaveDocument["policyUrn"] | null;
    policyVersion: WaveDocument["policyVersion"] | null;
    allocations: BookingAllocation[];
    rankingInputs: RankingVerdict[];
    /** Absent from waves written before verdicts named classes of groups. */
    rankingClasses?: WaveDocument["rankingClasses"];
    unallocated: { groupId: string; reason: string }[];
    /** Absent from waves that recorded no hotel details. */
    hotels?: BookingWaveHotel[];
    /** The case's wave number; the latest wave has the highest. */
    sequence?: number;
  };

@injectable()
export class WaveReader {
  constructor(@inject(TOKENS.documents) private readonly store: DocumentStore) {}

  /**
   * Booking only reads a wave (allocation writes it), so it is handed the stored document, not a
   * copy: read-only.
   */
  get(waveUrn: string): Promise<DeepReadonly<BookingWave> | undefined> {
    return this.store.collection<BookingWave>(WAVES_COLLECTION).peek(waveUrn);
  }

  /** The case's most recent wave, if allocation has run for it; read-only, as `get`'s. */
  latest(tenant: string, caseUrn: string): Promise<DeepReadonly<BookingWave> | undefined> {
    return latestWaveOf<BookingWave>(this.store, tenant, caseUrn);
  }
}
