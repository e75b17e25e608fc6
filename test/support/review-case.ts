import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { topicFor } from "../../src/domain/domain-event.js";
import { reviewItemUrnForRequest } from "../../src/app/manual-review/review-item-addresses.js";
import type { TestPlatform } from "./platform.js";

const ZX = "urn:airline:ZX";

/**
 * A Zephyr Air case at JFK with one group, G1 (Rivera, by e-mail), opened by `supervisor`: what a
 * review item needs to stand on.
 */
export async function openOneGroupCase(t: TestPlatform, supervisor: string, label: string): Promise<string> {
  const response = await t.call("POST", "/v1/cases", supervisor, {
    externalEventId: `${label}-${randomUUID()}`,
    flight: {
      number: "ZX900",
      origin: "JFK",
      destination: "MAD",
      scheduledDeparture: "2026-12-01T22:00:00Z",
      status: "CANCELLED",
    },
    passengerGroups: [
      {
        id: "G1",
        pnr: `${label.slice(0, 3).toUpperCase()}PNR1`,
        passengers: [{ id: "p1", lastName: "Rivera", tier: "ECONOMY", contact: { email: "r@example.com" } }],
      },
    ],
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { urn: string }).urn;
}

/** Raises a review item on G1 of `caseUrn`, as booking does (`review-item.requested`); its URN. */
export async function requestReviewItem(
  t: TestPlatform,
  caseUrn: string,
  category: string,
  at: number,
): Promise<string> {
  const id = `urn:event:${randomUUID()}`;
  await t.platform.runtime.bus.publish(topicFor({ tenant: ZX }), {
    id,
    type: "review-item.requested",
    tenant: ZX,
    occurredAt: new Date(at).toISOString(),
    correlationUrn: "urn:trace:review-item",
    caseUrn,
    data: { caseUrn, category, attemptedHotels: [], affectedGroups: ["G1"], reason: "card refused" },
  });
  return reviewItemUrnForRequest(id);
}
