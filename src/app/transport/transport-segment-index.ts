import { inject, injectable } from "tsyringe";
import type { TransportSegment } from "../../domain/transport/transport-segment.js";
import type { DocumentCollection, DocumentStore } from "../../runtime/document-store.js";
import { TOKENS } from "../../runtime/tokens.js";
import { indexedCollection } from "../indexed-collection.js";
import { type RevisionedDoc, writeRevisioned } from "../revisioned-index.js";

export const TRANSPORT_SEGMENTS_COLLECTION = "transport-segments";

/** One document per segment (`_id` = its URN), with the ride id on top for the provider's callbacks. */
interface SegmentDocument extends TransportSegment, RevisionedDoc {
  rideId: string | null;
}

/**
 * The queryable copy of every TransportSegmentActor: a case's or a group's legs, the legs sharing
 * a ride. The actors stay the authority; each turn's segment is copied here as it returns, under
 * its version, so the copy only moves forward.
 */
@injectable()
export class TransportSegmentIndex {
  private readonly documents: DocumentCollection<SegmentDocument>;

  constructor(@inject(TOKENS.documents) store: DocumentStore) {
    this.documents = indexedCollection(store, TRANSPORT_SEGMENTS_COLLECTION, [
      { keys: { tenant: 1, caseUrn: 1, groupId: 1 } },
      { keys: { rideId: 1 } },
    ]);
  }

  async record(segment: TransportSegment): Promise<void> {
    await writeRevisioned(this.documents, [
      { ...segment, _id: segment.urn, revision: segment.version, rideId: segment.ride?.rideId ?? null },
    ]);
  }

  /** A case's segments (of one group when named), by group then direction. */
  async ofCase(tenant: string, caseUrn: string, groupId?: string): Promise<TransportSegment[]> {
    const found = await this.documents.findAll(
      { tenant, caseUrn, ...(groupId !== undefined ? { groupId } : {}) },
      { sort: { groupId: 1, direction: 1 } },
    );
    return found.map(toSegment);
  }

  /** The segments riding in one provider ride (a shuttle run carries several groups). */
  async ofRide(rideId: string): Promise<TransportSegment[]> {
    return (await this.documents.findAll({ rideId })).map(toSegment);
  }
}

function toSegment({ _id, revision, rideId, ...segment }: SegmentDocument): TransportSegment {
  return segment;
}
