import { randomUUID } from "node:crypto";
import type { Platform } from "../../src/main.js";

/**
 * A completed wave of the case that ranked three hotels for its two groups: `full-one` assigned to
 * the second group (and found full on booking), `spare` losing on score with rooms for both, `far`
 * out of the policy's distance. From it the review queue's agent recommends a rebook to `spare` and a
 * relaxed distance. Created later than any wave allocation may write, so it is the case's latest.
 */
export async function recordRankedWave(
  platform: Pick<Platform, "runtime">,
  tenant: string,
  caseUrn: string,
  groups: readonly [string, string],
): Promise<void> {
  const verdict = (
    hotel: string,
    classId: string | null,
    groupIds: string[] | null,
    reasons: string[],
    score: number | null,
    km: number,
  ) => ({
    classId,
    groupIds,
    hotelUrn: `urn:hotel:${hotel}`,
    provider: "vendor-a",
    providerOfferId: `offer-${hotel}`,
    outcome: reasons[0] === "assigned" ? "selected" : "discarded",
    reasons,
    weightedScore: score,
    normalized: null,
    raw: {
      cost: null,
      nightlyRate: { amountMinor: 12000, currency: "USD" },
      distanceKm: km,
      consolidation: 1,
    },
  });
  await platform.runtime.documents.collection<{ _id: string } & Record<string, unknown>>("waves").put({
    _id: `urn:wave:${randomUUID()}`,
    tenant,
    caseUrn,
    status: "COMPLETED",
    createdAt: "2999-01-01T00:00:00.000Z",
    rankingClasses: [{ classId: "1x1", rooms: 1, nights: 1, groupIds: [...groups] }],
    rankingInputs: [
      verdict("full-one", "1x1", [groups[1]], ["assigned"], 0.2, 2),
      verdict("spare", "1x1", null, ["better-score-elsewhere"], 0.4, 6),
      verdict("far", null, null, ["too-far"], null, 31.2),
    ],
    allocations: [],
    unallocated: [],
  });
}
