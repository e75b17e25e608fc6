import { reviewItemNotFound } from "../../../actors/ReviewItemActor.js";
import { reviewItemUrnFor } from "../../domain/review-item.js";
import { parseUrn } from "../../domain/urn.js";

/**
 * A review-item URN in either form of spec 2 as the actor id and the canonical URN; 404 for
 * anything else, since no such item can exist.
 */
export function reviewItemRefOf(urn: string): { id: string; urn: string } {
  const parsed = parseUrn(urn, "review-item");
  if (!parsed || Object.keys(parsed.attributes).length > 0) throw reviewItemNotFound(urn);
  return { id: parsed.id, urn: `urn:review-item:${parsed.id}` };
}

/**
 * The item a `review-item.requested` event opens, derived from the event's id: every delivery of
 * the same event lands on the same actor, so the item is opened once.
 */
export function reviewItemUrnForRequest(eventId: string): string {
  return reviewItemUrnFor("review-item.requested", eventId);
}
