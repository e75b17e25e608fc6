import { describe, expect, it } from "vitest";
import { ReviewItemActor } from "../../actors/ReviewItemActor.js";
import { REVIEW_ITEM_EVENT } from "../../src/domain/events/review-item.js";
import { DomainError } from "../../src/domain/domain-error.js";
import type { NewReviewItem } from "../../src/domain/review-item.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";
import { settle } from "../../src/runtime/clock.js";
import { startActorStage } from "./actor-stage.js";

const tenant = "urn:airline:ZX";
const correlationUrn = "urn:trace:test";
const MINUTE = 60_000;

async function setup() {
  const { clock, runtime, events } = await startActorStage(ReviewItemActor, tenant);
  const actors: ActorRuntime = runtime;
  const open = (overrides: Partial<NewReviewItem> = {}, id = "item-1") =>
    actors.invoke(ReviewItemActor, id, "open", {
      urn: `urn:review-item:${id}`,
      caseUrn: "urn:case:c1",
      tenant,
      airport: "JFK",
      category: "PARTIAL_FULFILLMENT",
      affectedGroups: ["G1", "G2"],
      reason: "two groups without a room",
      raisedBy: "booking",
      raisedAt: new Date(clock.now()).toISOString(),
      correlationUrn,
      ...overrides,
    });
  const ofType = (type: string) => events.filter((e) => e.type === type);
  return { clock, actors, events, open, ofType };
}

describe("ReviewItemActor", () => {
  it("opens an item once, however often it is asked", async () => {
    const s = await setup();
    const first = await s.open();
    const again = await s.open({ reason: "another delivery" });
    await settle();
    expect(first.created).toBe(true);
    expect(again).toEqual({ item: first.item, created: false });
    expect(s.ofType(REVIEW_ITEM_EVENT.created)).toHaveLength(1);
  });

  it("of ten operators claiming at once exactly one wins; the others learn who holds it", async () => {
    const s = await setup();
    await s.open();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        s.actors.invoke(ReviewItemActor, "item-1", "claim", { by: `urn:user:op-${i}`, correlationUrn }),
      ),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<{ item: { assignedTo: string } }>).value.item.assignedTo;
    expect(lost).toHaveLength(9);
    for (const { reason } of lost) {
      expect(reason).toBeInstanceOf(DomainError);
      expect(reason).toMatchObject({ code: "review-item-assigned", details: { assignedTo: winner } });
    }
  });

  it("breaches its SLA on the clock: priority one level up, a page, and another page after the next window", async () => {
    const s = await setup();
    await s.open();
    await s.clock.advance(59 * MINUTE);
    expect(s.ofType(REVIEW_ITEM_EVENT.slaBreached)).toHaveLength(0);

    await s.clock.advance(1 * MINUTE);
    const [page] = s.ofType(REVIEW_ITEM_EVENT.slaBreached);
    expect(page?.data).toMatchObject({
      urn: "urn:review-item:item-1",
      caseUrn: "urn:case:c1",
      category: "PARTIAL_FULFILLMENT",
      airport: "JFK",
      previousPriority: "MEDIUM",
      priority: "HIGH",
      breachedAt: "2026-11-22T00:00:00.000Z",
      slaDueAt: "2026-11-22T00:15:00.000Z",
    });
    expect((await s.actors.invoke(ReviewItemActor, "item-1", "get"))?.priority).toBe("HIGH");

    await s.clock.advance(15 * MINUTE);
    expect(
      s.ofType(REVIEW_ITEM_EVENT.slaBreached).map((e) => (e.data as { priority: string }).priority),
    ).toEqual(["HIGH", "HIGH"]);
  });

  it("a resolved item no longer pages", async () => {
    const s = await setup();
    await s.open({ category: "BOOKING_FAILED" });
    await s.actors.invoke(ReviewItemActor, "item-1", "resolve", {
      by: "urn:user:sup",
      mayTakeOver: true,
      resolution: "REBOOKED",
      reason: "booked by phone",
      correlationUrn,
    });
    await s.clock.advance(60 * MINUTE);
    expect(s.ofType(REVIEW_ITEM_EVENT.slaBreached)).toHaveLength(0);
    expect(s.ofType(REVIEW_ITEM_EVENT.resolved)[0]?.data).toMatchObject({
      via: "operator",
      resolution: "REBOOKED",
      reason: "booked by phone",
      by: "urn:user:sup",
    });
  });

  it("escalation moves the SLA to the new priority's window", async () => {
    const s = await setup();
    await s.open({ category: "MIXED_TIER_GROUP" });
    await s.clock.advance(10 * MINUTE);
    const { item } = await s.actors.invoke(ReviewItemActor, "item-1", "escalate", {
      by: "urn:user:sup",
      reason: "VIP group",
      correlationUrn,
    });
    expect(item).toMatchObject({
      priority: "MEDIUM",
      state: "ESCALATED",
      slaDueAt: "2026-11-22T00:10:00.000Z",
    });
    await s.clock.advance(59 * MINUTE);
    expect(s.ofType(REVIEW_ITEM_EVENT.slaBreached)).toHaveLength(0);
    await s.clock.advance(1 * MINUTE);
    expect(s.ofType(REVIEW_ITEM_EVENT.slaBreached)).toHaveLength(1);
  });

  it("a rebook asks booking per group and resolves as REBOOKED when booking has booked them all", async () => {
    const s = await setup();
    await s.open();
    const { item, change } = await s.actors.invoke(ReviewItemActor, "item-1", "requestRebooking", {
      by: "urn:user:op",
      mayTakeOver: false,
      kind: "rebook",
      hotelUrn: "urn:hotel:H9",
      reason: "rooms free at H9",
      correlationUrn,
    });
    await settle();
    expect(item.assignedTo).toBe("urn:user:op");
    expect(change).toMatchObject({
      action: "review-item.rebook-requested",
      by: "urn:user:op",
      reason: "rooms free at H9",
    });
    expect(s.ofType("booking.group-requested").map((e) => e.data)).toEqual([
      {
        caseUrn: "urn:case:c1",
        groupId: "G1",
        hotelUrn: "urn:hotel:H9",
        reviewItemUrn: "urn:review-item:item-1",
        requestedBy: "urn:user:op",
      },
      {
        caseUrn: "urn:case:c1",
        groupId: "G2",
        hotelUrn: "urn:hotel:H9",
        reviewItemUrn: "urn:review-item:item-1",
        requestedBy: "urn:user:op",
      },
    ]);

    const answer = (groupId: string) =>
      s.actors.invoke(ReviewItemActor, "item-1", "recordBookingAnswer", {
        groupId,
        booked: true,
        reservationUrn: `urn:reservation:${groupId}`,
        correlationUrn,
      });
    expect((await answer("G1")).item.state).toBe("ASSIGNED");
    const done = await answer("G2");
    expect(done.item).toMatchObject({
      state: "RESOLVED",
      resolution: { resolution: "REBOOKED", reason: "rooms free at H9", by: "urn:user:op" },
      bookedGroups: ["G1", "G2"],
    });
    expect((await answer("G2")).change).toBeUndefined();
    await settle();
    expect(s.ofType(REVIEW_ITEM_EVENT.resolved).map((e) => (e.data as { via: string }).via)).toEqual([
      "booking",
    ]);
  });

  it("an override names the offer; a relaxation asks allocation to run the wave again", async () => {
    const s = await setup();
    await s.open();
    await s.actors.invoke(ReviewItemActor, "item-1", "requestRebooking", {
      by: "urn:user:sup",
      mayTakeOver: true,
      kind: "override",
      hotelUrn: "urn:hotel:H9",
      providerOfferId: "offer-9",
      reason: "contract rate",
      correlationUrn,
    });
    await s.actors.invoke(ReviewItemActor, "item-1", "recordRelaxation", {
      by: "urn:user:sup",
      mayTakeOver: true,
      fields: { maxDistanceKm: 35 },
      reason: "no hotel within 25 km",
      correlationUrn,
    });
    await settle();
    expect(s.ofType("booking.group-requested")[0]?.data).toMatchObject({ providerOfferId: "offer-9" });
    expect(s.ofType("allocation.rerun-requested").map((e) => e.data)).toEqual([
      {
        caseUrn: "urn:case:c1",
        reason: "no hotel within 25 km",
        reviewItemUrn: "urn:review-item:item-1",
        requestedBy: "urn:user:sup",
        fields: { maxDistanceKm: 35 },
      },
    ]);
  });

  it("an unknown item is 404", async () => {
    const s = await setup();
    await expect(
      s.actors.invoke(ReviewItemActor, "nope", "claim", { by: "urn:user:op", correlationUrn }),
    ).rejects.toMatchObject({ kind: "not-found", code: "review-item-not-found" });
  });
});
