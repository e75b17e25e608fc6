import { describe, expect, it } from "vitest";
import type { ClaimTerms } from "../../src/domain/booking/group-booking.js";
import {
  claimBooking,
  confirmBooking,
  countByState,
  deferBooking,
  heldBy,
  markFailed,
  waveBookingKey,
  whyNotBooked,
} from "../../src/domain/booking/group-booking.js";
import { BOOKING_SYSTEM_ACTOR } from "../../src/domain/events/booking.js";
import { reservationIdFor } from "../../src/domain/reservation.js";
import {
  atMs,
  bookingIn,
  CASE,
  claimed,
  draft,
  HOLDER,
  LEASE_MS,
  plan,
  request,
  round,
  T0,
  WAVE,
} from "./group-booking-fixture.js";

const terms = (token: string, groupHoldsReservation = false, holder = HOLDER): ClaimTerms => ({
  token,
  leaseMs: LEASE_MS,
  holder,
  groupHoldsReservation,
});

const claimLost = expect.objectContaining({ kind: "conflict", code: "booking-claim-lost" });

describe("group booking keys", () => {
  it("keys a wave's booking of a group by the wave and the group", () => {
    expect(waveBookingKey(WAVE, "G1")).toBe("urn:wave:w1#G1");
    expect(request().key).toBe(waveBookingKey(WAVE, "G1"));
  });
});

describe("claiming a group's booking", () => {
  it("creates the booking on the first claim, BOOKING under a claim that lasts the lease", () => {
    const decision = claimBooking(
      undefined,
      request({ reviewItemUrn: "urn:review-item:r1" }),
      terms("token-1"),
      T0,
    );
    expect(decision).toEqual({
      granted: true,
      booking: {
        key: "urn:wave:w1#G1",
        waveUrn: WAVE,
        demandUrn: "urn:demand:d1",
        groupId: "G1",
        source: "wave",
        state: "BOOKING",
        plan,
        claim: { token: "token-1", expiresAt: T0.getTime() + LEASE_MS, holder: HOLDER },
        attemptedHotels: [],
        staleOffers: [],
        retries: 0,
        attempt: 1,
        reservationId: null,
        failure: null,
        reviewItemUrn: "urn:review-item:r1",
        requestedBy: "urn:user:operator",
        correlationUrn: "urn:trace:t1",
        createdAt: T0.toISOString(),
        updatedAt: T0.toISOString(),
      },
    });
    expect(claimed().reviewItemUrn).toBeNull();
  });

  it.each([
    ["a BOOKED booking", () => bookingIn("BOOKED"), "booked"],
    ["a FAILED booking", () => bookingIn("FAILED"), "failed"],
    ["a booking under another caller's live claim", () => claimed(), "in-progress"],
  ] as const)("refuses %s", (_, existing, reason) => {
    expect(claimBooking(existing(), request(), terms("token-2"), atMs(LEASE_MS - 1))).toEqual({
      granted: false,
      reason,
    });
  });

  it("refuses a wave a group that holds a reservation (spec 3.1)", () => {
    expect(claimBooking(undefined, request(), terms("token-1", true), T0)).toEqual({
      granted: false,
      reason: "group-holds-reservation",
    });
  });

  it.each(["override", "manual-review"] as const)(
    "lets an %s book a group that holds a reservation",
    (source) => {
      const decision = claimBooking(
        undefined,
        request({ key: `${source}:e1`, source }),
        terms("token-1", true),
        T0,
      );
      expect(decision).toMatchObject({ granted: true, booking: { source, state: "BOOKING" } });
    },
  );

  it("hands an expired claim over, with the plan the booking was first given", () => {
    const first = claimed();
    const later = atMs(LEASE_MS);
    const decision = claimBooking(first, request({ plan: { ...plan, rooms: 5 } }), terms("token-2"), later);
    expect(decision).toEqual({
      granted: true,
      booking: {
        ...first,
        claim: { token: "token-2", expiresAt: later.getTime() + LEASE_MS, holder: HOLDER },
        // Its holder may still run and give back what it booked: the vendors get new keys.
        attempt: 2,
        updatedAt: later.toISOString(),
      },
    });
  });

  it("takes a PENDING booking back into BOOKING, keeping its retries and what earlier rounds found", () => {
    const pending = deferBooking(claimed(), round(), 3, atMs(5_000));
    expect(claimBooking(pending, request(), terms("token-2"), atMs(10_000))).toMatchObject({
      granted: true,
      booking: {
        state: "BOOKING",
        claim: { token: "token-2" },
        retries: 1,
        // Its last holder settled its round and gives nothing back: the same vendor keys.
        attempt: 1,
        attemptedHotels: round().attemptedHotels,
        staleOffers: round().staleOffers,
      },
    });
  });
});

describe("claims of processes that died (spec 8: no room booked twice with the vendor)", () => {
  const restarted = { node: HOLDER.node, incarnation: HOLDER.incarnation + 1 };

  it("hands a dead predecessor's live claim to the restarted process at once, in the same attempt", () => {
    const first = claimed();
    const soon = atMs(1);
    const decision = claimBooking(first, request(), terms("token-2", false, restarted), soon);
    expect(decision).toEqual({
      granted: true,
      booking: {
        ...first,
        claim: { token: "token-2", expiresAt: soon.getTime() + LEASE_MS, holder: restarted },
        // What the predecessor booked before dying is answered again under the same keys.
        attempt: 1,
        updatedAt: soon.toISOString(),
      },
    });
  });

  it.each([
    ["another node", { node: "node-b", incarnation: 9 }],
    ["an earlier incarnation of the holder's node", { node: HOLDER.node, incarnation: 1 }],
    ["the holder itself", HOLDER],
  ])("lets %s wait for the lease of a live holder, then start the next attempt", (_, caller) => {
    const first = claimed();
    expect(claimBooking(first, request(), terms("token-2", false, caller), atMs(LEASE_MS - 1))).toEqual({
      granted: false,
      reason: "in-progress",
    });
    expect(claimBooking(first, request(), terms("token-2", false, caller), atMs(LEASE_MS))).toMatchObject({
      granted: true,
      booking: { claim: { token: "token-2", holder: caller }, attempt: 2 },
    });
  });

  it("lets a claim recorded without its holder wait for its lease", () => {
    const { holder: _, ...anonymous } = claimed().claim!;
    const first = { ...claimed(), claim: anonymous };
    expect(claimBooking(first, request(), terms("token-2", false, restarted), atMs(1))).toEqual({
      granted: false,
      reason: "in-progress",
    });
  });

  it("never takes a BOOKED or FAILED booking, even from a predecessor", () => {
    for (const state of ["BOOKED", "FAILED"] as const) {
      expect(claimBooking(bookingIn(state), request(), terms("token-2", false, restarted), atMs(1))).toEqual({
        granted: false,
        reason: state.toLowerCase(),
      });
    }
  });
});

describe("the claim's token", () => {
  it("holds the booking only while it is BOOKING under that token", () => {
    const booking = claimed();
    expect(heldBy(booking, "token-1")).toBe(booking);
    expect(heldBy(booking, "token-2")).toBeUndefined();
    expect(heldBy(undefined, "token-1")).toBeUndefined();
    expect(
      heldBy(bookingIn("PENDING", { claim: { token: "token-1", expiresAt: 0 } }), "token-1"),
    ).toBeUndefined();
  });
});

describe("confirming a booking", () => {
  it("ends BOOKED with the reservation and its voucher, booked by the system for a wave", () => {
    const confirmed = confirmBooking(
      claimed(),
      CASE,
      { ...round(), draft, verificationCode: "ABCD2345" },
      atMs(30),
    );
    const id = reservationIdFor(CASE.caseUrn, "urn:wave:w1#G1", "vendor-a", "VA-1");
    expect(confirmed.booking).toEqual({
      ...claimed(),
      state: "BOOKED",
      claim: null,
      attemptedHotels: round().attemptedHotels,
      staleOffers: round().staleOffers,
      reservationId: id,
      updatedAt: atMs(30).toISOString(),
    });
    expect(confirmed.reservation).toEqual({
      ...draft,
      id,
      urn: `urn:reservation:${id}:vendor:vendor-a:status:confirmed`,
      ...CASE,
      groupId: "G1",
      waveUrn: WAVE,
      demandUrn: "urn:demand:d1",
      status: "CONFIRMED",
      source: "wave",
      attemptedHotels: round().attemptedHotels,
      voucher: {
        urn: `urn:voucher:${id}`,
        verificationCode: "ABCD2345",
        issuedAt: atMs(30).toISOString(),
        version: 1,
        amendedAt: null,
      },
      bookedBy: BOOKING_SYSTEM_ACTOR,
      reason: null,
      createdAt: atMs(30).toISOString(),
      updatedAt: atMs(30).toISOString(),
    });
  });

  it("credits an override's reservation to whoever asked for it", () => {
    const override = claimed({ key: "override:e1", source: "override", requestedBy: "urn:user:supervisor" });
    const { reservation } = confirmBooking(override, CASE, { ...round(), draft, verificationCode: "X" }, T0);
    expect(reservation).toMatchObject({ source: "override", bookedBy: "urn:user:supervisor" });
  });

  it("lands a replayed confirmation on the same reservation id", () => {
    const confirm = () =>
      confirmBooking(claimed(), CASE, { ...round(), draft, verificationCode: "X" }, T0).reservation.id;
    expect(confirm()).toBe(confirm());
  });

  it("refuses a token that does not hold the claim", () => {
    expect(() =>
      confirmBooking(claimed(), CASE, { ...round("token-2"), draft, verificationCode: "X" }, T0),
    ).toThrow(claimLost);
  });
});

describe("failing a booking", () => {
  const failure = {
    category: "PAYMENT_FAILED" as const,
    reason: "card refused",
    vendorErrorCode: "INVALID_PAYMENT_INFO",
  };

  it("ends FAILED with the failure and what the round tried", () => {
    expect(markFailed(claimed(), round(), failure, atMs(30))).toEqual({
      ...claimed(),
      state: "FAILED",
      claim: null,
      attemptedHotels: round().attemptedHotels,
      staleOffers: round().staleOffers,
      failure,
      updatedAt: atMs(30).toISOString(),
    });
  });

  it("refuses another token, and a booking no longer BOOKING", () => {
    expect(() => markFailed(claimed(), round("token-2"), failure, T0)).toThrow(claimLost);
    expect(() => markFailed(bookingIn("PENDING"), round(), failure, T0)).toThrow(claimLost);
  });
});

describe("deferring a booking behind an open circuit", () => {
  it("waits PENDING with one more retry", () => {
    expect(deferBooking(claimed(), round(), 3, atMs(30))).toEqual({
      ...claimed(),
      state: "PENDING",
      claim: null,
      attemptedHotels: round().attemptedHotels,
      staleOffers: round().staleOffers,
      retries: 1,
      updatedAt: atMs(30).toISOString(),
    });
  });

  it("fails for an operator once another round would pass maxRetries", () => {
    expect(deferBooking({ ...claimed(), retries: 2 }, round(), 3, T0)).toMatchObject({
      state: "PENDING",
      retries: 3,
    });
    expect(deferBooking({ ...claimed(), retries: 3 }, round(), 3, T0)).toMatchObject({
      state: "FAILED",
      retries: 3,
      failure: {
        category: "BOOKING_FAILED",
        reason: "the vendors stayed unavailable through 3 retries",
        vendorErrorCode: null,
      },
    });
  });

  it("refuses a token that does not hold the claim", () => {
    expect(() => deferBooking(claimed(), round("token-2"), 3, T0)).toThrow(claimLost);
  });
});

describe("reading bookings", () => {
  it("counts bookings by state, skipping groups without one", () => {
    expect(countByState([claimed(), bookingIn("BOOKED"), bookingIn("BOOKED"), undefined])).toEqual({
      BOOKING: 1,
      PENDING: 0,
      BOOKED: 2,
      FAILED: 0,
    });
  });

  it("says why a group holds no reservation", () => {
    const refused = { category: "BOOKING_FAILED" as const, reason: "sold out", vendorErrorCode: null };
    expect(whyNotBooked(undefined)).toBe("not allocated");
    expect(whyNotBooked(bookingIn("PENDING"))).toBe("pending");
    expect(whyNotBooked(bookingIn("FAILED", { failure: refused }))).toBe("sold out");
  });
});
