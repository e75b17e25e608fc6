import { recordRankedWave } from "../support/ranked-wave.js";
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { reviewItemUrnForRequest } from "../../src/app/manual-review/review-item-addresses.js";
import type { ReviewQueueEntry } from "../../src/app/manual-review/review-queue-index.js";
import { topicFor } from "../../src/domain/domain-event.js";
import type { TestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";

const ZX = "urn:airline:ZX";
let cases = 0;

/**
 * A case at JFK whose latest wave had `spare` with rooms and `far` kept out by distance alone, and a
 * PARTIAL_FULFILLMENT item for its second group after the full hotel refused it.
 */
export async function itemWithRecommendations(t: TestPlatform, supervisorToken: string) {
  const n = ++cases;
  const call = (method: string, path: string, body?: unknown) => t.call(method, path, supervisorToken, body);
  const opened = await json(
    await call("POST", "/v1/cases", {
      externalEventId: `exception-agent-e2e-${n}-${randomUUID()}`,
      flight: {
        number: `ZX${700 + n}`,
        origin: "JFK",
        destination: "MAD",
        scheduledDeparture: "2026-12-01T22:00:00Z",
        status: "CANCELLED",
      },
      nextFlight: { number: `ZX${800 + n}`, scheduledDeparture: "2026-12-02T18:00:00Z" },
      passengerGroups: [
        { id: `A${n}`, pnr: `PNRA${n}`, passengers: [{ id: `p${n}a`, lastName: "Rivera", tier: "ECONOMY" }] },
        { id: `B${n}`, pnr: `PNRB${n}`, passengers: [{ id: `p${n}b`, lastName: "Okafor", tier: "ECONOMY" }] },
      ],
    }),
    201,
  );
  const caseUrn = opened.urn as string;
  const groups = [`A${n}`, `B${n}`];
  await recordRankedWave(t.platform, ZX, caseUrn, [groups[0]!, groups[1]!]);
  const id = `urn:event:${randomUUID()}`;
  await t.platform.runtime.bus.publish(topicFor({ tenant: ZX }), {
    id,
    type: "review-item.requested",
    tenant: ZX,
    occurredAt: new Date(t.platform.runtime.clock.now()).toISOString(),
    correlationUrn: "urn:trace:exception-agent-e2e",
    caseUrn,
    data: {
      caseUrn,
      category: "PARTIAL_FULFILLMENT",
      attemptedHotels: [
        { hotelUrn: "urn:hotel:full-one", reason: "hotel-full", providerError: "NO_AVAILABILITY" },
      ],
      affectedGroups: [groups[1]!],
      reason: "no room for the group",
    },
  });
  const itemUrn = reviewItemUrnForRequest(id);
  const items = t.platform.runtime.documents.collection<ReviewQueueEntry>("review-items");
  await expect.poll(() => items.get(itemUrn)).toBeDefined();
  return { caseUrn, itemUrn, groups };
}
