import type { DocumentStore } from "../../runtime/document-store.js";
import { NOTIFICATION_COLLECTION } from "../notifications/notification-log.js";

/**
 * Seconds from each case's opening to its first offer notification (template `offer` in the send
 * log), for the cases that have had one; the measure behind the time-to-first-offer KPIs
 * (src/domain/kpi-catalog.ts) and the shadow reports.
 */
export async function secondsToFirstOffer(
  documents: DocumentStore,
  tenant: string,
  cases: readonly { urn: string; openedAt: string }[],
): Promise<Map<string, number>> {
  const seconds = new Map<string, number>();
  if (cases.length === 0) return seconds;
  const offers = await documents
    .collection<{ _id: string; caseUrn: string; createdAt: string }>(NOTIFICATION_COLLECTION)
    .findAll({ tenant, caseUrn: { $in: cases.map((c) => c.urn) }, template: "offer" });
  const firstOffer = new Map<string, number>();
  for (const offer of offers) {
    const at = Date.parse(offer.createdAt);
    firstOffer.set(offer.caseUrn, Math.min(at, firstOffer.get(offer.caseUrn) ?? at));
  }
  for (const c of cases) {
    const offered = firstOffer.get(c.urn);
    if (offered !== undefined) seconds.set(c.urn, Math.max(0, offered - Date.parse(c.openedAt)) / 1000);
  }
  return seconds;
}
