/**
 * Orphan rooms: a room a vendor holds under the platform's reference that no reservation records.
 * A node that is alive but slow loses its claim after the lease; another node books the group.
 * When the slow node's booking finishes it gives its room back; when its answer was lost it cannot,
 * and reconciliation finds the room by its reference and cancels it while that is free, else asks
 * an operator for manual reconciliation. A room a reservation records is never touched. The clock
 * never moves unless a test says so.
 */
import { describe, expect, it } from "vitest";
import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import { bookingStepsOf } from "../../services/booking/booking-use-cases.js";
import type { AuditLog } from "../../src/app/audit-log.js";
import { DEFAULT_BOOKING_SETTINGS } from "../../src/app/booking/booking-settings.js";
import type { GroupOrder } from "../../src/app/booking/booking-steps.js";
import { DirectContracts } from "../../src/app/booking/direct-contracts.js";
import { GroupBooker } from "../../src/app/booking/group-booker.js";
import { vendorReferencePrefix } from "../../src/domain/booking/vendor-reference.js";
import { BOOKING_EVENTS, type OrphanCancelledData } from "../../src/domain/events/booking.js";
import type { ReviewItemRequestedData } from "../../src/domain/events/review-item.js";
import type { Incarnation } from "../../src/domain/incarnation.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import { VendorError } from "../../src/vendors/vendor-error.js";
import type { InventoryVendor, InventoryVendors, VendorReservation } from "../../src/vendors/vendor-port.js";
import {
  ACTING,
  allocate,
  type BookingHarness,
  CHECK_IN,
  CHECK_OUT,
  groups,
  guaranteeHotels,
  startBookingHarness,
  waveOf,
  ZX,
} from "./booking-fixture.js";
import { startedEachTest } from "../support/each-test.js";

let h: BookingHarness;

startedEachTest(startBookingHarness, (harness) => {
  h = harness;
});

const NODE_A: Incarnation = { node: "node-a", incarnation: 1 };
const NODE_B: Incarnation = { node: "node-b", incarnation: 1 };

function vendorsOf(): InventoryVendors {
  return h.container.resolve<InventoryVendors>(TOKENS.vendors);
}

function simulatorOf(vendor: string) {
  return h.simulators.byId[vendor as SimulatedVendorId];
}

/** A process of the platform, as `incarnation`, with its own vendors when given. */
function processAs(incarnation: Incarnation, vendors?: InventoryVendors) {
  const replaced = vendors
    ? { vendors, booker: new GroupBooker(vendors, h.container.resolve(DirectContracts)) }
    : {};
  return bookingStepsOf(h.container, { incarnation, ...replaced });
}

/** The vendors of a slow process: `meanwhile` runs after the vendor booked, before the answer comes back. */
function slowVendors(meanwhile: (room: VendorReservation) => Promise<void>): InventoryVendors {
  const vendors = vendorsOf();
  return {
    forTenant: (tenant) =>
      vendors.forTenant(tenant).map(
        (vendor): InventoryVendor => ({
          id: vendor.id,
          search: (request) => vendor.search(request),
          book: async (request) => {
            const room = await vendor.book(request);
            await meanwhile(room);
            return room;
          },
          cancel: (request) => vendor.cancel(request),
          lookup: (id) => vendor.lookup(id),
          reconcile: (since) => vendor.reconcile(since),
          openBookings: (query) => vendor.openBookings(query),
        }),
      ),
  };
}

/** A guarantee hotel whose first offer cancels for free until the evening of arrival. */
function refundableHotel() {
  const hotel = guaranteeHotels(h.hotels).find((candidate) => {
    const offer = candidate.offers[0]!;
    return simulatorOf(offer.provider)
      .backend.search({ airport: "JFK", checkIn: CHECK_IN, checkOut: CHECK_OUT, rooms: 1 })
      .some((o) => o.offerId === offer.providerOfferId && o.refundable);
  });
  if (!hotel) throw new Error("no refundable guarantee hotel in the test inventory");
  return hotel;
}

/** A wave allocating group G1 to a refundable hotel, and the order its booking runs. */
async function oneGroupOrder(name: string): Promise<{ caseUrn: string; order: GroupOrder; vendor: string }> {
  const caseUrn = await h.openCase(name, groups(2));
  const hotel = refundableHotel();
  const waveUrn = await h.completeWave(waveOf(caseUrn, [allocate("G1", hotel, 1)]), false);
  const loaded = await processAs(NODE_A).load({ kind: "wave", waveUrn, acting: ACTING });
  if ("refusal" in loaded) throw new Error(`load refused: ${loaded.refusal.message}`);
  const [group] = loaded.groups;
  if (!group || !("order" in group)) throw new Error("nothing to book");
  return { caseUrn, order: group.order as GroupOrder, vendor: hotel.offers[0]!.provider };
}

/**
 * node-a books the group's room, but its answer comes back after its lease ran out and node-b
 * booked the group; `answer` decides what node-a then gets (the room, or a lost answer).
 */
async function lateFinisher(
  name: string,
  answer: (room: VendorReservation) => VendorReservation,
): Promise<{ caseUrn: string; vendor: string; late: VendorReservation; kept: string }> {
  const { caseUrn, order, vendor } = await oneGroupOrder(name);
  let late: VendorReservation | undefined;
  const slow = slowVendors(async (room) => {
    late ??= room;
    await h.clock.advance(DEFAULT_BOOKING_SETTINGS.claimLeaseMs + 1);
    expect(await processAs(NODE_B).book(order)).toMatchObject({ state: "BOOKED" });
  });
  const wrapped: InventoryVendors = {
    forTenant: (tenant) =>
      slow.forTenant(tenant).map((v) => ({ ...v, book: async (request) => answer(await v.book(request)) })),
  };
  await processAs(NODE_A, wrapped)
    .book(order)
    .catch(() => undefined);
  const [reservation] = Object.values((await h.ledger(caseUrn)).reservations);
  return { caseUrn, vendor, late: late!, kept: reservation!.vendorReservationId! };
}

/** Reconciliation of the vendor now, as its reminder would run it. */
async function poll(vendor: string) {
  await h.booking.reconciliation.schedule(ZX, 15);
  return h.booking.reconciliation.poll(
    ZX,
    vendor,
    new Date(h.clock.now()).toISOString(),
    ACTING.correlationUrn,
  );
}

function statusAtVendor(vendor: string, reservationId: string) {
  return simulatorOf(vendor).backend.lookup(reservationId).status;
}

describe("a booking that finishes after its claim was taken over", () => {
  it("gives its room back: the vendor keeps only the room the group's reservation records", async () => {
    const { caseUrn, vendor, late, kept } = await lateFinisher("late-finisher", (room) => room);
    expect(late.reservationId).not.toBe(kept);
    expect(statusAtVendor(vendor, late.reservationId)).toBe("CANCELLED");
    expect(statusAtVendor(vendor, kept)).toBe("CONFIRMED");
    const reservations = Object.values((await h.ledger(caseUrn)).reservations);
    expect(reservations.map((r) => [r.vendorReservationId, r.status])).toEqual([[kept, "CONFIRMED"]]);
  });
});

describe("reconciliation of orphan rooms", () => {
  const lostAnswer = (room: VendorReservation): VendorReservation => {
    throw new VendorError({ vendor: room.provider, code: "GATEWAY_TIMEOUT", httpStatus: 504 });
  };

  it("cancels a room booked under the platform's reference that no reservation records, once, and leaves the recorded one", async () => {
    const { caseUrn, vendor, late, kept } = await lateFinisher("lost-answer", lostAnswer);
    expect(statusAtVendor(vendor, late.reservationId)).toBe("CONFIRMED");
    expect(late.clientReference?.startsWith(vendorReferencePrefix(ZX))).toBe(true);

    expect(await poll(vendor)).toMatchObject({ orphansCancelled: 1, orphansReferred: 0 });
    expect(statusAtVendor(vendor, late.reservationId)).toBe("CANCELLED");
    expect(statusAtVendor(vendor, kept)).toBe("CONFIRMED");
    await h.until(() => h.eventsOf(BOOKING_EVENTS.orphanCancelled).length === 1, "booking.orphan-cancelled");
    expect(h.eventsOf(BOOKING_EVENTS.orphanCancelled)[0]!.data as OrphanCancelledData).toEqual({
      vendor,
      vendorReservationId: late.reservationId,
      confirmationCode: late.confirmationCode,
      caseUrn,
      groupId: "G1",
      cost: late.total,
      clientReference: late.clientReference,
    });
    const audit = h.container.resolve<AuditLog>(TOKENS.audit);
    expect(await audit.has({ tenant: ZX, action: "booking.orphan-cancel", caseUrn })).toBe(true);

    // Cancelled, it is no longer listed; the recorded room is never listed as an orphan.
    expect(await poll(vendor)).toMatchObject({ orphansCancelled: 0, orphansReferred: 0 });
    expect(h.eventsOf(BOOKING_EVENTS.orphanCancelled)).toHaveLength(1);
    expect(statusAtVendor(vendor, kept)).toBe("CONFIRMED");
  });

  it("asks an operator for manual reconciliation, once, when the orphan no longer cancels for free", async () => {
    const { caseUrn, vendor, late, kept } = await lateFinisher("past-deadline", lostAnswer);
    // Past the free cancellation (18:00 on the day of arrival), the stay not over yet.
    await h.clock.advance(Date.parse(`${CHECK_IN}T19:00:00Z`) - h.clock.now());

    expect(await poll(vendor)).toMatchObject({ orphansCancelled: 0, orphansReferred: 1 });
    expect(await poll(vendor)).toMatchObject({ orphansCancelled: 0, orphansReferred: 0 });
    expect(statusAtVendor(vendor, late.reservationId)).toBe("CONFIRMED");
    expect(statusAtVendor(vendor, kept)).toBe("CONFIRMED");
    await h.until(
      () => h.eventsOf(BOOKING_EVENTS.reviewItemRequested, caseUrn).length === 1,
      "the review request",
    );
    const request = h.eventsOf(BOOKING_EVENTS.reviewItemRequested, caseUrn)[0]!
      .data as ReviewItemRequestedData;
    expect(request).toMatchObject({ category: "MANUAL_RECONCILIATION", caseUrn, affectedGroups: ["G1"] });
    expect(request.reason).toContain(vendor);
    expect(request.reason).toContain(late.reservationId);
    const { amountMinor, currency } = late.total;
    expect(request.reason).toContain(`${(amountMinor / 100).toFixed(2)} ${currency}`);
    expect(request.reason).toContain("free cancellation ended");
    expect(h.eventsOf(BOOKING_EVENTS.orphanCancelled)).toEqual([]);
  });

  it("asks an operator when the vendor refuses to cancel the orphan", async () => {
    const { caseUrn, vendor, late } = await lateFinisher("refused-cancel", lostAnswer);
    simulatorOf(vendor).failNext("NON_REFUNDABLE");
    expect(await poll(vendor)).toMatchObject({ orphansCancelled: 0, orphansReferred: 1 });
    expect(statusAtVendor(vendor, late.reservationId)).toBe("CONFIRMED");
    await h.until(
      () => h.eventsOf(BOOKING_EVENTS.reviewItemRequested, caseUrn).length === 1,
      "the review request",
    );
    const request = h.eventsOf(BOOKING_EVENTS.reviewItemRequested, caseUrn)[0]!
      .data as ReviewItemRequestedData;
    expect(request.reason).toContain("NON_REFUNDABLE");
  });

  it("leaves a room its booker may still confirm: booked, not recorded yet, claim live", async () => {
    const { caseUrn, order, vendor } = await oneGroupOrder("in-flight");
    let during: Awaited<ReturnType<typeof poll>> | undefined;
    const slow = slowVendors(async () => {
      during = await poll(vendor);
    });
    expect(await processAs(NODE_A, slow).book(order)).toMatchObject({ state: "BOOKED" });
    expect(during).toMatchObject({ orphansCancelled: 0, orphansReferred: 0 });
    const [reservation] = Object.values((await h.ledger(caseUrn)).reservations);
    expect(statusAtVendor(vendor, reservation!.vendorReservationId!)).toBe("CONFIRMED");
    expect(await poll(vendor)).toMatchObject({ orphansCancelled: 0, orphansReferred: 0 });
  });

  it("leaves a booking made without the platform's reference alone", async () => {
    const { vendor, late } = await lateFinisher("other-references", lostAnswer);
    const offer = refundableHotel().offers[0]!;
    const client = vendorsOf()
      .forTenant(ZX)
      .find((v) => v.id === offer.provider)!;
    const unreferenced = await client.book({
      providerOfferId: offer.providerOfferId,
      rooms: 1,
      guestNames: ["Walk In"],
      payment: { method: "GUARANTEE" },
      idempotencyKey: "not-ours",
    });
    expect(unreferenced.clientReference).toBeNull();
    expect(await poll(vendor)).toMatchObject({ orphansCancelled: 1 });
    expect(statusAtVendor(offer.provider, unreferenced.reservationId)).toBe("CONFIRMED");
    expect(statusAtVendor(vendor, late.reservationId)).toBe("CANCELLED");
  });
});

describe("the vendors' listing of open bookings by client reference", () => {
  it("lists, in every wire shape, the client's confirmed bookings under the prefix with their reference", async () => {
    const stay = { airport: "JFK", checkIn: CHECK_IN, checkOut: CHECK_OUT, rooms: 1 };
    for (const client of vendorsOf().forTenant(ZX)) {
      const [offer] = (await client.search(stay)).filter((o) => o.payments.includes("GUARANTEE"));
      const book = (n: number, clientReference?: string) =>
        client.book({
          providerOfferId: offer!.providerOfferId,
          rooms: 1,
          guestNames: [`Guest ${n}`],
          payment: { method: "GUARANTEE" },
          idempotencyKey: `${client.id}-${n}`,
          ...(clientReference ? { clientReference } : {}),
        });
      const ours = await book(1, "ref/ours/1");
      const cancelled = await book(2, "ref/ours/2");
      await book(3, "ref/theirs/3");
      await book(4);
      expect(ours.clientReference).toBe("ref/ours/1");
      await client.cancel({ reservationId: cancelled.reservationId, idempotencyKey: `${client.id}-c` });

      const listed = await client.openBookings({ referencePrefix: "ref/ours/", checkOutFrom: CHECK_IN });
      expect(listed.map((r) => [r.reservationId, r.clientReference, r.status])).toEqual([
        [ours.reservationId, "ref/ours/1", "CONFIRMED"],
      ]);
      expect(await client.openBookings({ referencePrefix: "ref/ours/", checkOutFrom: "2026-11-23" })).toEqual(
        [],
      );
      await expect(client.openBookings({ referencePrefix: "ref/", checkOutFrom: "soon" })).rejects.toThrow();
    }
  });
});
