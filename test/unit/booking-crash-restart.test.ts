/**
 * A process killed between the vendor's booking and its record, and the process that restarts in
 * its place: the restart takes the dead incarnation's claim over at once (no wait for the lease)
 * and books in the same attempt, under the same idempotency key, so the vendor answers the room it
 * booked first and the group holds exactly one room (spec 8: no room booked twice with the vendor).
 * The clock never moves unless a test says so.
 */
import { describe, expect, it } from "vitest";
import { bookingStepsOf } from "../../services/booking/booking-use-cases.js";
import type { GroupOrder } from "../../src/app/booking/booking-steps.js";
import { GroupBooker } from "../../src/app/booking/group-booker.js";
import { DirectContracts } from "../../src/app/booking/direct-contracts.js";
import type { Incarnation } from "../../src/domain/incarnation.js";
import { TOKENS } from "../../src/runtime/tokens.js";
import type { InventoryVendor, InventoryVendors } from "../../src/vendors/vendor-port.js";
import {
  ACTING,
  allocate,
  type BookingHarness,
  groups,
  guaranteeHotels,
  startBookingHarness,
  waveOf,
} from "./booking-fixture.js";
import { startedEachTest } from "../support/each-test.js";

let h: BookingHarness;
startedEachTest(startBookingHarness, (harness) => {
  h = harness;
});


/** The vendors of a process that is killed right after a vendor booked: the answer is never recorded. */
function killedAfterBooking(vendors: InventoryVendors): InventoryVendors {
  return {
    forTenant: (tenant) =>
      vendors.forTenant(tenant).map(
        (vendor): InventoryVendor => ({
          ...bound(vendor),
          book: async (request) => {
            await vendor.book(request);
            throw new Error("SIGKILL: the process died before recording the booking");
          },
        }),
      ),
  };
}

/** A process of the platform, as `incarnation`, with its own vendors when given. */
function processAs(incarnation: Incarnation, vendors?: InventoryVendors) {
  const replaced = vendors
    ? { vendors, booker: new GroupBooker(vendors, h.container.resolve(DirectContracts)) }
    : {};
  return bookingStepsOf(h.container, { incarnation, ...replaced });
}

/** Rooms the vendors booked for anyone, across the three simulators. */
function roomsBooked(): string[] {
  return h.simulators.all.flatMap((sim) =>
    sim.backend
      .changesSince(-1)
      .filter((c) => c.kind === "CREATED")
      .map((c) => `${sim.id}/${c.reservation.reservationId}`),
  );
}

/** A wave allocating group G1 to a hotel that takes a guarantee, and the order its booking runs. */
async function oneGroupOrder(): Promise<{ caseUrn: string; order: GroupOrder }> {
  const caseUrn = await h.openCase("killed-mid-booking", groups(2));
  const [hotel] = guaranteeHotels(h.hotels);
  const waveUrn = await h.completeWave(waveOf(caseUrn, [allocate("G1", hotel!, 1)]), false);
  const loaded = await processAs({ node: "node-a", incarnation: 1 }).load({
    kind: "wave",
    waveUrn,
    acting: ACTING,
  });
  if ("refusal" in loaded) throw new Error(`load refused: ${loaded.refusal.message}`);
  const [group] = loaded.groups;
  if (!group || !("order" in group)) throw new Error("nothing to book");
  return { caseUrn, order: group.order as GroupOrder };
}

describe("a process killed between the vendor's booking and its record", () => {
  it("is restarted, takes its claim over at once and books under the same key: one room at the vendor", async () => {
    const { caseUrn, order } = await oneGroupOrder();
    const vendors = h.container.resolve<InventoryVendors>(TOKENS.vendors);

    const killed = processAs({ node: "node-a", incarnation: 1 }, killedAfterBooking(vendors));
    await expect(killed.book(order)).rejects.toThrow(/SIGKILL/);
    const [room] = roomsBooked();
    expect(roomsBooked()).toHaveLength(1);
    expect(Object.values((await h.ledger(caseUrn)).bookings)[0]).toMatchObject({ state: "BOOKING" });

    // Another node finds the claim live (its lease has not run out: the clock has not moved).
    const elsewhere = processAs({ node: "node-b", incarnation: 1 });
    expect(await elsewhere.book(order)).toMatchObject({ state: "BOOKING", reservationUrn: null });

    // node-a restarts: its next incarnation resumes the booking the workflow hands it again.
    const restarted = processAs({ node: "node-a", incarnation: 2 });
    const status = await restarted.book(order);
    expect(status).toMatchObject({ groupId: "G1", state: "BOOKED" });
    expect(roomsBooked()).toEqual([room]);
    const [reservation] = Object.values((await h.ledger(caseUrn)).reservations);
    expect(`${reservation!.vendor}/${reservation!.vendorReservationId}`).toBe(room);
    expect(reservation!.urn).toBe(status.reservationUrn);
  });

  it("booked nothing twice when the vendor never booked: the restart books the room once", async () => {
    const { caseUrn, order } = await oneGroupOrder();
    const vendors = h.container.resolve<InventoryVendors>(TOKENS.vendors);
    const refusing: InventoryVendors = {
      forTenant: (tenant) =>
        vendors.forTenant(tenant).map((vendor) => ({
          ...bound(vendor),
          book: async () => {
            throw new Error("SIGKILL: the process died before calling the vendor");
          },
        })),
    };
    await expect(processAs({ node: "node-a", incarnation: 1 }, refusing).book(order)).rejects.toThrow(
      /SIGKILL/,
    );
    expect(roomsBooked()).toEqual([]);
    expect(await processAs({ node: "node-a", incarnation: 2 }).book(order)).toMatchObject({
      state: "BOOKED",
    });
    expect(roomsBooked()).toHaveLength(1);
    expect(Object.values((await h.ledger(caseUrn)).reservations)).toHaveLength(1);
  });
});

/** The vendor's operations bound to it, to replace one of them. */
function bound(vendor: InventoryVendor): InventoryVendor {
  return {
    id: vendor.id,
    search: (request) => vendor.search(request),
    book: (request) => vendor.book(request),
    cancel: (request) => vendor.cancel(request),
    lookup: (id) => vendor.lookup(id),
    reconcile: (since) => vendor.reconcile(since),
    openBookings: (query) => vendor.openBookings(query),
  };
}
