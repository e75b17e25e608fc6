import { describe, expect, it } from "vitest";
import { BookingActor, type BookingLedger } from "../../actors/BookingActor.js";
import { waveBookingKey } from "../../src/domain/booking/group-booking.js";
import type { SimulatedVendorId } from "../../services/vendor-sim/catalog.js";
import { BOOKING_EVENTS, type BookingReviewRequest } from "../../src/domain/events/booking.js";
import type { RankingVerdict } from "../../src/app/allocation/wave-documents.js";
import type { Hotel } from "../../src/domain/allocation/dedup.js";
import {
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

/** A class of the wave's groups holding one group. */
function soleClass(groupId: string) {
  return { classId: `class-${groupId}`, rooms: 1, nights: 1, groupIds: [groupId] };
}

/** A ranking entry saying the hotel still had room for the group after the wave's assignment. */
function withRoom(groupId: string, hotel: Hotel, score: number): RankingVerdict {
  const offer = hotel.offers[0]!;
  return {
    classId: soleClass(groupId).classId,
    groupIds: null,
    hotelUrn: hotel.hotelUrn,
    provider: offer.provider,
    providerOfferId: offer.providerOfferId,
    weightedScore: score,
    outcome: "discarded",
    reasons: ["better-score-elsewhere"],
  };
}

/** Reservations the vendors made, across all three simulators. */
function vendorBookings(): number {
  return h.simulators.all.reduce(
    (sum, sim) => sum + sim.backend.changesSince(0).filter((c) => c.kind === "CREATED").length,
    0,
  );
}

function failAt(
  vendor: string,
  kind: "RATE_NOT_AVAILABLE" | "INVALID_PAYMENT_INFO" | "unavailable",
  times = 1,
) {
  h.simulators.byId[vendor as SimulatedVendorId].failNext(kind, times);
}

function reviewRequests(caseUrn: string): BookingReviewRequest[] {
  return h.eventsOf(BOOKING_EVENTS.reviewItemRequested, caseUrn).map((e) => e.data as BookingReviewRequest);
}

describe("booking a wave", () => {
  it("books one reservation per group, reports each to the case, issues vouchers and fulfils the demand", async () => {
    const caseUrn = await h.openCase("all-booked", groups(2, 1));
    const demandUrn = await h.approvedDemand(caseUrn, 2);
    const [first, second] = guaranteeHotels(h.hotels);
    const waveUrn = await h.completeWave(
      waveOf(caseUrn, [allocate("G1", first!, 1), allocate("G2", second!, 1)], { demandUrn }),
    );
    await h.until(async () => (await h.demandState(caseUrn)) === "FULFILLED", "the demand to be fulfilled");

    const reservations = Object.values((await h.ledger(caseUrn)).reservations);
    expect(reservations).toHaveLength(2);
    for (const [groupId, hotel] of [
      ["G1", first!],
      ["G2", second!],
    ] as const) {
      const reservation = reservations.find((r) => r.groupId === groupId)!;
      expect(reservation.urn).toBe(
        `urn:reservation:${reservation.id}:vendor:${hotel.offers[0]!.provider}:status:confirmed`,
      );
      expect(reservation).toMatchObject({
        status: "CONFIRMED",
        waveUrn,
        demandUrn,
        hotel: { hotelUrn: hotel.hotelUrn, name: hotel.offers[0]!.name, address: hotel.offers[0]!.address },
        providerOfferId: hotel.offers[0]!.providerOfferId,
        payment: "GUARANTEE",
        attemptedHotels: [],
      });
      const atVendor = h.simulators.byId[reservation.vendor as SimulatedVendorId].backend.lookup(
        reservation.vendorReservationId!,
      );
      expect(atVendor.status).toBe("CONFIRMED");
    }
    expect(reservations.find((r) => r.groupId === "G1")!.guests.map((g) => g.name)).toEqual([
      "First1 Last1",
      "First2 Last1",
    ]);
    await h.until(
      async () => (await h.caseSnapshot(caseUrn)).reservations.length === 2,
      "the case to record both",
    );
    expect((await h.caseSnapshot(caseUrn)).reservations.map((r) => r.status)).toEqual([
      "CONFIRMED",
      "CONFIRMED",
    ]);
    expect(
      h
        .eventsOf(BOOKING_EVENTS.voucherIssued, caseUrn)
        .map((e) => (e.data as { voucherUrn: string }).voucherUrn),
    ).toEqual(expect.arrayContaining(reservations.map((r) => `urn:voucher:${r.id}`)));
    expect(reviewRequests(caseUrn)).toEqual([]);
    expect(await h.booking.reservations.casePage("urn:airline:ZX", caseUrn, { limit: 10 })).toMatchObject({
      items: [{ groupId: expect.any(String) }, { groupId: expect.any(String) }],
    });
  });

  it("marks a RATE_NOT_AVAILABLE offer stale and tries the hotel's other vendor, then the next-ranked hotel", async () => {
    const caseUrn = await h.openCase("rate-gone", groups(2));
    const [shared, fallback] = guaranteeHotels(h.hotels, 2);
    const skipped = guaranteeHotels(h.hotels).find((x) => x !== shared && x !== fallback)!;
    for (const offer of shared!.offers) failAt(offer.provider, "RATE_NOT_AVAILABLE");
    const waveUrn = await h.completeWave(
      waveOf(caseUrn, [allocate("G1", shared!, 1)], {
        rankingClasses: [soleClass("G1")],
        rankingInputs: [
          withRoom("G1", fallback!, 0.3),
          { ...withRoom("G1", skipped, 0.1), reasons: ["hotel-full"] },
        ],
      }),
    );

    const ledger = await h.ledger(caseUrn);
    const [reservation] = Object.values(ledger.reservations);
    expect(reservation!.hotel.hotelUrn).toBe(fallback!.hotelUrn);
    // One entry per hotel: the hotel refused at each of its vendors for the same reason.
    expect(reservation!.attemptedHotels).toEqual([
      { hotelUrn: shared!.hotelUrn, reason: "rate-not-available", providerError: "RATE_NOT_AVAILABLE" },
    ]);
    expect(ledger.bookings[waveBookingKey(waveUrn, "G1")]!.staleOffers).toEqual(
      shared!.offers.map((o) => `${o.provider}|${o.providerOfferId}`),
    );
  });

  it("asks for a BOOKING_FAILED item naming every attempted hotel when all refuse, and leaves the demand APPROVED", async () => {
    const caseUrn = await h.openCase("all-refuse", groups(1));
    const demandUrn = await h.approvedDemand(caseUrn, 1);
    const [shared, fallback] = guaranteeHotels(h.hotels, 2);
    for (const vendor of ["vendor-a", "vendor-b", "vendor-c"]) failAt(vendor, "RATE_NOT_AVAILABLE", 5);
    await h.completeWave(
      waveOf(caseUrn, [allocate("G1", shared!, 1)], {
        demandUrn,
        rankingClasses: [soleClass("G1")],
        rankingInputs: [withRoom("G1", fallback!, 0.3)],
      }),
    );
    await h.until(() => h.eventsOf(BOOKING_EVENTS.waveSettled, caseUrn).length === 1, "the wave to settle");

    const [request, ...others] = reviewRequests(caseUrn);
    expect(others).toEqual([]);
    expect(request).toMatchObject({ category: "BOOKING_FAILED", affectedGroups: ["G1"], demandUrn });
    expect(request!.reviewItemUrn).toMatch(/^urn:review-item:/);
    expect(new Set(request!.attemptedHotels.map((a) => a.hotelUrn))).toEqual(
      new Set([shared!.hotelUrn, fallback!.hotelUrn]),
    );
    expect(request!.attemptedHotels).toHaveLength(2);
    expect(request!.attemptedHotels.every((a) => a.providerError === "RATE_NOT_AVAILABLE")).toBe(true);
    expect(h.eventsOf(BOOKING_EVENTS.waveSettled, caseUrn)[0]!.data).toMatchObject({ outcome: "FAILED" });
    expect(await h.demandState(caseUrn)).toBe("APPROVED");
    expect(Object.values((await h.ledger(caseUrn)).reservations)).toEqual([]);
  });

  it("books some groups and not others: one PARTIAL_FULFILLMENT item and the demand PARTIAL", async () => {
    const caseUrn = await h.openCase("partial", groups(2, 2));
    const demandUrn = await h.approvedDemand(caseUrn, 2);
    const single = guaranteeHotels(h.hotels).filter((x) => x.offers.length === 1);
    const refusing = single[0]!;
    const booked = guaranteeHotels(h.hotels).find((x) =>
      x.offers.every((o) => o.provider !== refusing.offers[0]!.provider),
    )!;
    failAt(refusing.offers[0]!.provider, "RATE_NOT_AVAILABLE");
    await h.completeWave(
      waveOf(caseUrn, [allocate("G1", booked, 1), allocate("G2", refusing, 1)], { demandUrn }),
    );
    await h.until(async () => (await h.demandState(caseUrn)) === "PARTIAL", "the demand to be partial");

    const requests = reviewRequests(caseUrn);
    expect(requests.map((r) => r.category)).toEqual(["PARTIAL_FULFILLMENT"]);
    expect(requests[0]).toMatchObject({
      affectedGroups: ["G2"],
      attemptedHotels: [
        { hotelUrn: refusing.hotelUrn, reason: "rate-not-available", providerError: "RATE_NOT_AVAILABLE" },
      ],
    });
    expect(h.eventsOf("demand.partial", caseUrn)[0]!.data).toMatchObject({
      demandUrn,
      reviewItemUrn: requests[0]!.reviewItemUrn,
    });
  });

  it("stops at INVALID_PAYMENT_INFO and asks for PAYMENT_FAILED beside the partial outcome", async () => {
    const caseUrn = await h.openCase("payment", groups(1, 1));
    const [first, second] = guaranteeHotels(h.hotels, 2);
    failAt(first!.offers[0]!.provider, "INVALID_PAYMENT_INFO");
    await h.completeWave(waveOf(caseUrn, [allocate("G1", first!, 1), allocate("G2", second!, 1)]));

    const requests = reviewRequests(caseUrn);
    expect(requests.map((r) => r.category).sort()).toEqual(["PARTIAL_FULFILLMENT", "PAYMENT_FAILED"]);
    const payment = requests.find((r) => r.category === "PAYMENT_FAILED")!;
    // The hotel's other vendor is not tried: the same payment would be refused there too.
    expect(payment).toMatchObject({
      affectedGroups: ["G1"],
      attemptedHotels: [
        { hotelUrn: first!.hotelUrn, reason: "payment-refused", providerError: "INVALID_PAYMENT_INFO" },
      ],
    });
  });

  it("books nothing twice when the same wave is booked again or its event is delivered again", async () => {
    const caseUrn = await h.openCase("twice", groups(1, 1));
    const [first, second] = guaranteeHotels(h.hotels);
    const wave = waveOf(caseUrn, [allocate("G1", first!, 1), allocate("G2", second!, 1)]);
    const waveUrn = await h.completeWave(wave);
    expect(vendorBookings()).toBe(2);

    const again = await h.booking.flow.bookWave(waveUrn, {
      requestedBy: "urn:user:s",
      correlationUrn: "urn:trace:x",
    });
    await h.publish(BOOKING_EVENTS.waveRequested, caseUrn, { waveUrn, caseUrn, requestedBy: "urn:user:s" });
    await h.publish(BOOKING_EVENTS.waveCompleted, caseUrn, {
      waveUrn,
      caseUrn,
      demandUrn: null,
      autoBook: true,
      allocations: [],
    });

    expect(vendorBookings()).toBe(2);
    expect(Object.values((await h.ledger(caseUrn)).reservations)).toHaveLength(2);
    expect(again.groups.map((g) => g.state)).toEqual(["BOOKED", "BOOKED"]);
    expect(h.eventsOf(BOOKING_EVENTS.reservationConfirmed, caseUrn)).toHaveLength(2);
  });

  it("leaves a group that already holds a reservation alone when a later wave allocates it again", async () => {
    const caseUrn = await h.openCase("later-wave", groups(1));
    const [first, second] = guaranteeHotels(h.hotels);
    const wave = (hotel: Hotel) => waveOf(caseUrn, [allocate("G1", hotel, 1)]);
    await h.completeWave(wave(first!));
    const rerun = await h.completeWave(wave(second!));
    const summary = await h.booking.flow.bookWave(rerun, {
      requestedBy: "urn:user:s",
      correlationUrn: "urn:trace:x",
    });

    expect(vendorBookings()).toBe(1);
    const [held] = Object.values((await h.ledger(caseUrn)).reservations);
    expect(held!.hotel.hotelUrn).toBe(first!.hotelUrn);
    expect(summary.groups).toEqual([{ groupId: "G1", state: "BOOKED", reservationUrn: held!.urn }]);
    expect(
      h.eventsOf(BOOKING_EVENTS.waveSettled, caseUrn).map((e) => (e.data as { outcome: string }).outcome),
    ).toEqual(["FULFILLED", "FULFILLED"]);
  });

  it("does not book a wave whose autoBook is off until asked to", async () => {
    const caseUrn = await h.openCase("no-auto", groups(1));
    const waveUrn = await h.completeWave(
      waveOf(caseUrn, [allocate("G1", guaranteeHotels(h.hotels)[0]!, 1)]),
      false,
    );
    expect(vendorBookings()).toBe(0);
    await h.publish(BOOKING_EVENTS.waveRequested, caseUrn, { waveUrn, caseUrn, requestedBy: "urn:user:s" });
    expect(vendorBookings()).toBe(1);
  });
});

describe("booking a wave's groups side by side", () => {
  /** Guarantee hotels whose cheapest offer is the vendor's, so their allocations go to that vendor. */
  const hotelsOf = (vendor: SimulatedVendorId) =>
    guaranteeHotels(h.hotels).filter((hotel) => hotel.offers[0]!.provider === vendor);
  const slow = (vendor: SimulatedVendorId, ms: number) =>
    h.simulators.byId[vendor].configureFaults({ latency: { fixedMs: ms, jitterMs: 0 } });
  /** The case's group bookings so far (none before the first claim). */
  const bookingsOf = async (caseUrn: string) => {
    const groupIds = (await h.caseSnapshot(caseUrn)).case.passengerGroups.map((g) => g.id);
    const ledger: BookingLedger | undefined = await h.actors.invoke(
      BookingActor,
      caseUrn.split(":").at(-1)!,
      "groupLedger",
      groupIds,
    );
    return ledger ? Object.values(ledger.bookings) : [];
  };

  it("books a vendor's groups while another vendor is slow to answer", async () => {
    const caseUrn = await h.openCase("side-by-side", groups(1, 1));
    slow("vendor-a", 5_000);
    const booked = h.completeWave(
      waveOf(caseUrn, [
        allocate("G1", hotelsOf("vendor-a")[0]!, 1),
        allocate("G2", hotelsOf("vendor-b")[0]!, 1),
      ]),
    );
    const stateOf = async (groupId: string) =>
      (await bookingsOf(caseUrn)).find((b) => b.groupId === groupId)?.state;

    await h.until(async () => (await stateOf("G2")) === "BOOKED", "vendor-b's group booked");
    expect(await stateOf("G1")).toBe("BOOKING");

    await h.clock.advance(5_000);
    await booked;
    expect(await stateOf("G1")).toBe("BOOKED");
    expect(h.eventsOf(BOOKING_EVENTS.waveSettled, caseUrn)).toHaveLength(1);
  });

  it("keeps at most eight of one vendor's groups in flight, taken in the wave's order", async () => {
    const sizes = Array.from({ length: 10 }, () => 1);
    const caseUrn = await h.openCase("per-vendor-bound", groups(...sizes));
    const hotels = hotelsOf("vendor-a");
    slow("vendor-a", 5_000);
    const booked = h.completeWave(
      waveOf(
        caseUrn,
        sizes.map((_, g) => allocate(`G${g + 1}`, hotels[g % hotels.length]!, 1)),
      ),
    );
    const received = () => h.simulators.byId["vendor-a"].requestsReceived().book ?? 0;

    await h.until(() => received() === 8, "eight bookings at vendor-a");
    const claimed = (await bookingsOf(caseUrn)).map((b) => b.groupId);
    expect(claimed.sort()).toEqual(["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"].sort());
    expect(received()).toBe(8);

    await h.clock.advance(5_000);
    await h.until(() => received() === 10, "the last two bookings at vendor-a");
    await h.clock.advance(5_000);
    await booked;
    expect(Object.values((await h.ledger(caseUrn)).reservations)).toHaveLength(10);
  });

  it("indexes a booked group's reservation again when the wave is delivered again", async () => {
    const caseUrn = await h.openCase("index-repair", groups(1));
    const waveUrn = await h.completeWave(waveOf(caseUrn, [allocate("G1", guaranteeHotels(h.hotels)[0]!, 1)]));
    const [reservation] = Object.values((await h.ledger(caseUrn)).reservations);
    // As if the copy into the index had failed after the confirmation.
    await h.documents.collection("reservations").deleteOne({ _id: reservation!.id });
    expect(await h.booking.reservations.get(reservation!.id)).toBeUndefined();

    await h.publish(BOOKING_EVENTS.waveRequested, caseUrn, { waveUrn, caseUrn, requestedBy: "urn:user:s" });

    expect(await h.booking.reservations.get(reservation!.id)).toMatchObject({ urn: reservation!.urn });
    expect(vendorBookings()).toBe(1);
  });
});

describe("an open circuit", () => {
  it("keeps the group pending and books it again once the retry wait is over", async () => {
    const caseUrn = await h.openCase("outage", groups(1));
    const demandUrn = await h.approvedDemand(caseUrn, 1);
    const hotel = guaranteeHotels(h.hotels).find((x) => x.offers.length === 1)!;
    failAt(hotel.offers[0]!.provider, "unavailable");
    const waveUrn = await h.completeWave(waveOf(caseUrn, [allocate("G1", hotel, 1)], { demandUrn }));
    const pending = (await h.ledger(caseUrn)).bookings[waveBookingKey(waveUrn, "G1")]!;
    expect(pending).toMatchObject({
      state: "PENDING",
      retries: 1,
      attemptedHotels: [
        { hotelUrn: hotel.hotelUrn, reason: "vendor-unavailable", providerError: "SERVICE_UNAVAILABLE" },
      ],
    });
    expect(h.eventsOf(BOOKING_EVENTS.waveSettled, caseUrn)).toEqual([]);

    await h.clock.advance(30_000);
    await h.until(async () => (await h.demandState(caseUrn)) === "FULFILLED", "the retried booking");
    const booking = (await h.ledger(caseUrn)).bookings[waveBookingKey(waveUrn, "G1")]!;
    expect(booking.state).toBe("BOOKED");
    expect(reviewRequests(caseUrn)).toEqual([]);
  });

  it("hands the group to an operator once the retries run out", async () => {
    await h.close();
    h = await startBookingHarness({ maxRetries: 1 });
    const caseUrn = await h.openCase("long-outage", groups(1));
    const hotel = guaranteeHotels(h.hotels).find((x) => x.offers.length === 1)!;
    failAt(hotel.offers[0]!.provider, "unavailable", 2);
    await h.completeWave(waveOf(caseUrn, [allocate("G1", hotel, 1)]));
    await h.clock.advance(30_000);
    await h.until(() => reviewRequests(caseUrn).length === 1, "the review request");
    expect(reviewRequests(caseUrn)[0]).toMatchObject({ category: "BOOKING_FAILED", affectedGroups: ["G1"] });
  });
});

describe("an override", () => {
  it("re-books only the overridden group and cancels its old reservation at the vendor", async () => {
    const caseUrn = await h.openCase("override", groups(1, 1));
    const [first, second, third] = guaranteeHotels(h.hotels);
    const waveUrn = await h.completeWave(
      waveOf(caseUrn, [allocate("G1", first!, 1), allocate("G2", second!, 1)]),
    );
    const before = Object.values((await h.ledger(caseUrn)).reservations);
    const moved = before.find((r) => r.refundable)!;
    const untouched = before.find((r) => r !== moved)!;

    await h.publish(BOOKING_EVENTS.groupOverridden, caseUrn, {
      waveUrn,
      caseUrn,
      groupId: moved.groupId,
      allocation: allocate(moved.groupId, third!, 1),
    });

    const after = (await h.ledger(caseUrn)).reservations;
    const replacement = Object.values(after).find((r) => r.groupId === moved.groupId && r.id !== moved.id)!;
    expect(replacement).toMatchObject({
      status: "CONFIRMED",
      source: "override",
      hotel: { hotelUrn: third!.hotelUrn },
    });
    expect(after[moved.id]!.status).toBe("CANCELLED");
    expect(
      h.simulators.byId[moved.vendor as SimulatedVendorId].backend.lookup(moved.vendorReservationId!).status,
    ).toBe("CANCELLED");
    expect(after[untouched.id]).toEqual(untouched);
    expect(vendorBookings()).toBe(3);
    await h.until(
      async () =>
        (await h.caseSnapshot(caseUrn)).reservations.find((r) => r.reservationUrn === moved.urn)?.status ===
        "CANCELLED",
      "the case to see the cancellation",
    );
  });

  it("to the hotel the group already holds books nothing", async () => {
    const caseUrn = await h.openCase("override-same", groups(1));
    const [first] = guaranteeHotels(h.hotels);
    const waveUrn = await h.completeWave(waveOf(caseUrn, [allocate("G1", first!, 1)]));
    await h.publish(BOOKING_EVENTS.groupOverridden, caseUrn, {
      waveUrn,
      caseUrn,
      groupId: "G1",
      allocation: allocate("G1", first!, 1),
    });
    expect(vendorBookings()).toBe(1);
  });
});

describe("a re-booking asked for by the review queue", () => {
  it("answers booking.group-booked with the reservation, or booking.group-failed", async () => {
    const caseUrn = await h.openCase("rebook", groups(1));
    const [refusing, rebooked] = guaranteeHotels(h.hotels).filter((x) => x.offers.length === 1);
    failAt(refusing!.offers[0]!.provider, "RATE_NOT_AVAILABLE");
    await h.completeWave(waveOf(caseUrn, [allocate("G1", refusing!, 1)]));
    const [item] = reviewRequests(caseUrn);

    await h.publish(BOOKING_EVENTS.groupRequested, caseUrn, {
      caseUrn,
      groupId: "G1",
      hotelUrn: rebooked!.hotelUrn,
      reviewItemUrn: item!.reviewItemUrn,
      requestedBy: "urn:user:supervisor",
    });
    await h.until(() => h.eventsOf(BOOKING_EVENTS.groupBooked, caseUrn).length === 1, "the answer");
    const [answer] = h.eventsOf(BOOKING_EVENTS.groupBooked, caseUrn);
    const reservation = Object.values((await h.ledger(caseUrn)).reservations)[0]!;
    expect(answer!.data).toEqual({
      caseUrn,
      groupId: "G1",
      reservationUrn: reservation.urn,
      reviewItemUrn: item!.reviewItemUrn,
    });
    expect(reservation).toMatchObject({ source: "manual-review", bookedBy: "urn:user:supervisor" });

    await h.publish(BOOKING_EVENTS.groupRequested, caseUrn, {
      caseUrn,
      groupId: "G1",
      hotelUrn: "urn:hotel:nowhere",
      reviewItemUrn: item!.reviewItemUrn,
      requestedBy: "urn:user:supervisor",
    });
    await h.until(() => h.eventsOf(BOOKING_EVENTS.groupFailed, caseUrn).length === 1, "the refusal");
    expect(h.eventsOf(BOOKING_EVENTS.groupFailed, caseUrn)[0]!.data).toMatchObject({
      groupId: "G1",
      reviewItemUrn: item!.reviewItemUrn,
    });
  });
});

describe("a booking run that cannot start", () => {
  it("refuses a wave that does not exist with not-found, and books nothing", async () => {
    await expect(
      h.booking.flow.bookWave("urn:wave:nowhere", {
        requestedBy: "urn:user:supervisor",
        correlationUrn: "urn:trace:0123456789abcdef0123456789abcdef",
      }),
    ).rejects.toMatchObject({ kind: "not-found", code: "wave" });
    expect(vendorBookings()).toBe(0);
  });
});
