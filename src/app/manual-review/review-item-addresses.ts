import { createHash } from "node:crypto";
import { reviewItemNotFound } from "../../../actors/ReviewItemActor.js";
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
  const digest = createHash("sha256").update(`review-item.requested\u0000${eventId}`).digest("hex");
  return `urn:review-item:${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`;
}
