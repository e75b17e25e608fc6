import { describe, expect, it } from "vitest";
import { ReconciliationActor, reconciliationActorId } from "../../actors/ReconciliationActor.js";
import { loadConfig } from "../../src/config.js";
import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import {
  BOOKING_EVENTS,
  type BookingReviewRequest,
  type VoucherAmendedData,
} from "../../src/domain/events/booking.js";
import type { Reservation } from "../../src/domain/reservation.js";
import {
  allocate,
  type BookingHarness,
  groups,
  guaranteeHotels,
  startBookingHarness,
  waveOf,
  ZX,
} from "./booking-fixture.js";
import { startedEachTest } from "../support/each-test.js";

const FIFTEEN_MINUTES = 15 * 60_000;
let h: BookingHarness;

startedEachTest(startBookingHarness, (harness) => {
  h = harness;
});

/** Books one group and starts polling every vendor of the tenant every 15 minutes. */
async function bookedReservation(name: string): Promise<{ caseUrn: string; reservation: Reservation }> {
  await h.booking.reconciliation.schedule(ZX, 15);
  const caseUrn = await h.openCase(name, groups(2));
  await h.completeWave(waveOf(caseUrn, [allocate("G1", guaranteeHotels(h.hotels)[0]!, 1)]));
  const [reservation] = Object.values((await h.ledger(caseUrn)).reservations);
  return { caseUrn, reservation: reservation! };
}

function backendOf(reservation: Reservation) {
  return h.simulators.byId[reservation.vendor as SimulatedVendorId].backend;
}

async function cursorOf(vendor: string) {
  return h.actors.invoke(ReconciliationActor, reconciliationActorId(ZX, vendor), "get");
}

describe("vendor reconciliation", () => {
  it("finds our own booking unchanged, then follows a check-out the hotel moved and amends the voucher", async () => {
    const { caseUrn, reservation } = await bookedReservation("amended");
    await h.clock.advance(FIFTEEN_MINUTES);
    await h.until(async () => (await cursorOf(reservation.vendor))?.lastPolledAt !== null, "the first poll");
    expect(h.eventsOf(BOOKING_EVENTS.voucherAmended, caseUrn)).toEqual([]);

    backendOf(reservation).amendCheckOut(reservation.vendorReservationId!, "2026-11-23");
    expect(h.eventsOf(BOOKING_EVENTS.voucherAmended, caseUrn)).toEqual([]);
    await h.clock.advance(FIFTEEN_MINUTES);
    await h.until(() => h.eventsOf(BOOKING_EVENTS.voucherAmended, caseUrn).length === 1, "voucher.amended");

    const amended = h.eventsOf(BOOKING_EVENTS.voucherAmended, caseUrn)[0]!.data as VoucherAmendedData;
    expect(amended).toMatchObject({
      voucherUrn: reservation.voucher.urn,
      reservationUrn: reservation.urn,
      version: 2,
      changes: expect.arrayContaining([{ field: "checkOut", before: "2026-11-22", after: "2026-11-23" }]),
    });
    const stored = (await h.ledger(caseUrn)).reservations[reservation.id]!;
    expect(stored).toMatchObject({ checkOut: "2026-11-23", status: "CONFIRMED", voucher: { version: 2 } });
    expect(stored.cost.amountMinor).toBe(reservation.cost.amountMinor * 2);
    expect(await h.booking.reservations.get(reservation.id)).toMatchObject({ checkOut: "2026-11-23" });

    // The cursor moved past the change: the next poll finds nothing new.
    await h.clock.advance(FIFTEEN_MINUTES);
    await settleRounds();
    expect(h.eventsOf(BOOKING_EVENTS.voucherAmended, caseUrn)).toHaveLength(1);
  });

  it("turns a hotel-side cancellation into a cancelled reservation and a BOOKING_FAILED request", async () => {
    const { caseUrn, reservation } = await bookedReservation("cancelled-by-hotel");
    backendOf(reservation).cancelByHotel(reservation.vendorReservationId!);
    await h.clock.advance(FIFTEEN_MINUTES);
    await h.until(
      () => h.eventsOf(BOOKING_EVENTS.reviewItemRequested, caseUrn).length === 1,
      "the review request",
    );

    const request = h.eventsOf(BOOKING_EVENTS.reviewItemRequested, caseUrn)[0]!.data as BookingReviewRequest;
    expect(request).toMatchObject({
      category: "BOOKING_FAILED",
      affectedGroups: ["G1"],
      attemptedHotels: [
        { hotelUrn: reservation.hotel.hotelUrn, reason: "cancelled-by-hotel", providerError: "CANCELLED" },
      ],
    });
    expect((await h.ledger(caseUrn)).reservations[reservation.id]!.status).toBe("CANCELLED");
    await h.until(
      async () => (await h.caseSnapshot(caseUrn)).reservations[0]?.status === "CANCELLED",
      "the case to see the cancellation",
    );
  });

  it("polls each vendor of the tenant on its own reminder", async () => {
    await h.booking.reconciliation.schedule(ZX, 15);
    for (const vendor of ["vendor-a", "vendor-b", "vendor-c"]) {
      expect(await cursorOf(vendor)).toMatchObject({
        tenant: ZX,
        vendor,
        intervalMs: FIFTEEN_MINUTES,
        lastPolledAt: null,
      });
    }
    await h.clock.advance(FIFTEEN_MINUTES);
    await h.until(() => h.eventsOf(BOOKING_EVENTS.reconciliationDue).length === 3, "three polls");
  });

  it("takes an interval of 5 to 60 minutes, 15 by default", async () => {
    const minutes = (value?: string) =>
      loadConfig(value === undefined ? {} : { VENDOR_RECONCILIATION_MINUTES: value })
        .vendorReconciliationMinutes;
    expect(minutes()).toBe(15);
    expect(minutes("5")).toBe(5);
    expect(() => minutes("61")).toThrow(/from 5 to 60/);
    expect(() => minutes("quarter")).toThrow();
    await expect(h.booking.reconciliation.schedule(ZX, 4)).rejects.toThrow(/5 to 60/);
  });
});

async function settleRounds() {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
