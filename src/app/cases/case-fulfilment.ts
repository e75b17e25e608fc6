import type { CaseSnapshot } from "../../../actors/CaseActor.js";
import { isReviewCategory } from "../../domain/case.js";
import { type DemandSummaryInput, type RoomCount, roomsNeededFor } from "../../domain/demand.js";
import type { Doc, DocumentStore } from "../../runtime/document-store.js";
import { COLLECTIONS, type ReviewItemDocument } from "./case-documents.js";
import { inject, injectable } from "tsyringe";
import { TOKENS } from "../../runtime/tokens.js";

/** What allocation, booking and manual review have achieved for a case, as the demand summary needs it. */
export type CaseFulfilment = Omit<DemandSummaryInput, "groups">;

/**
 * Rooms assigned by allocation waves: one `allocations` document per group and wave,
 * `{tenant, caseUrn, groupId, rooms}`, written by the allocation area. A case no wave has run for
 * has none.
 */
export const ALLOCATIONS_COLLECTION = "allocations";

/** Reservation statuses that hold a confirmed room (spec 3.6: confirmed, then checked in and out). */
const BOOKED_STATUSES = new Set(["CONFIRMED", "CHECKED_IN", "CHECKED_OUT"]);

interface AllocationDoc extends Doc {
  groupId?: unknown;
  rooms?: unknown;
}

/**
 * Reads what the summary sets demand against: rooms allocated (the `allocations` documents), rooms
 * booked (the case's reservations: a group with a confirmed reservation has the rooms it needs)
 * and the case's OPEN manual-review items (the `review-items` documents of the case area).
 */
@injectable()
export class CaseFulfilmentReader {
  constructor(@inject(TOKENS.documents) private readonly store: DocumentStore) {}

  async of(snapshot: Pick<CaseSnapshot, "case" | "reservations">): Promise<CaseFulfilment> {
    const filter = { tenant: snapshot.case.tenant, caseUrn: snapshot.case.urn };
    const [allocations, items] = await Promise.all([
      this.store.collection<AllocationDoc>(ALLOCATIONS_COLLECTION).findAll(filter),
      this.store
        .collection<ReviewItemDocument>(COLLECTIONS.reviewItems)
        .findAll({ ...filter, state: { $ne: "RESOLVED" } }),
    ]);
    return {
      allocations: allocations.flatMap(allocatedRooms),
      bookings: bookedRooms(snapshot),
      openReviewItems: items
        .filter((item) => isReviewCategory(item.category))
        .map((item) => ({ category: item.category, affectedGroups: item.affectedGroups })),
    };
  }
}

function allocatedRooms(doc: AllocationDoc): RoomCount[] {
  return typeof doc.groupId === "string" && typeof doc.rooms === "number" && doc.rooms > 0
    ? [{ groupId: doc.groupId, rooms: doc.rooms }]
    : [];
}

/** Each group with a confirmed reservation counts once, however many reservations it went through. */
function bookedRooms({
  case: record,
  reservations,
}: Pick<CaseSnapshot, "case" | "reservations">): RoomCount[] {
  const booked = new Set(
    reservations.filter((r) => BOOKED_STATUSES.has(r.status.toUpperCase())).map((r) => r.groupId),
  );
  return record.passengerGroups
    .filter((group) => booked.has(group.id))
    .map((group) => ({ groupId: group.id, rooms: roomsNeededFor(group) }));
}
