import { describe, expect, it } from "vitest";
import type { BookingFailure, GroupBooking } from "../../src/domain/booking/group-booking.js";
import {
  hotelCancellationReview,
  overrideFailureReview,
  reviewAnswer,
  type SettledWave,
  waveReviewRequests,
} from "../../src/domain/booking/review-request.js";
import { bookingIn, CASE, causeUrn, confirmedReservation, WAVE } from "./group-booking-fixture.js";

const soldOut: BookingFailure = {
  category: "BOOKING_FAILED",
  reason: "sold out",
  vendorErrorCode: "NO_ROOMS",
};
const cardRefused: BookingFailure = {
  category: "PAYMENT_FAILED",
  reason: "card refused",
  vendorErrorCode: "INVALID_PAYMENT_INFO",
};
const tried = (groupId: string) => [{ hotelUrn: `urn:hotel:${groupId}`, reason: "vendor-refused" }];

function failed(groupId: string, failure: BookingFailure): GroupBooking {
  return bookingIn("FAILED", { groupId, failure, attemptedHotels: tried(groupId) });
}

function settledWave(
  outcome: SettledWave["outcome"],
  bookings: GroupBooking[],
  notBooked: string[],
): SettledWave {
  return {
    waveUrn: WAVE,
    demandUrn: null,
    outcome,
    notBooked: notBooked.map((groupId) => ({ groupId })),
    bookingOf: (groupId) => bookings.find((b) => b.groupId === groupId),
  };
}

describe("an override's failure", () => {
  it("asks for a review item of the failure's category, named by the override's booking key", () => {
    const override = {
      ...failed("G1", soldOut),
      key: "override:e1",
      source: "override" as const,
      waveUrn: null,
      demandUrn: "urn:demand:d1",
    };
    expect(overrideFailureReview(CASE.caseUrn, override, cardRefused, causeUrn)).toEqual({
      reviewItemUrn: causeUrn(CASE.caseUrn, "override:e1"),
      caseUrn: CASE.caseUrn,
      category: "PAYMENT_FAILED",
      attemptedHotels: tried("G1"),
      affectedGroups: ["G1"],
      reason: "The overridden hotel could not be booked for group G1: card refused",
      demandUrn: "urn:demand:d1",
    });
  });
});

describe("a hotel-side cancellation", () => {
  it("asks for a BOOKING_FAILED item named by the reservation, with the hotel as attempted", () => {
    const cancelled = { ...confirmedReservation(), status: "CANCELLED" as const };
    expect(hotelCancellationReview(CASE.caseUrn, cancelled, causeUrn)).toEqual({
      reviewItemUrn: causeUrn(CASE.caseUrn, `cancelled:${cancelled.id}`),
      caseUrn: CASE.caseUrn,
      category: "BOOKING_FAILED",
      attemptedHotels: [
        { hotelUrn: "urn:hotel:h1", reason: "cancelled-by-hotel", providerError: "CANCELLED" },
      ],
      affectedGroups: ["G1"],
      reason: "Harbour Hotel cancelled reservation CN-1 on its side",
      demandUrn: "urn:demand:d1",
      waveUrn: WAVE,
    });
  });
});

describe("a wave's review items", () => {
  it("asks for PARTIAL_FULFILLMENT naming every group left without rooms and why", () => {
    const wave = settledWave(
      "PARTIAL",
      [failed("G2", soldOut), bookingIn("PENDING", { groupId: "G3" })],
      ["G2", "G3", "G4"],
    );
    expect(waveReviewRequests(CASE.caseUrn, wave, causeUrn)).toEqual([
      {
        caseUrn: CASE.caseUrn,
        waveUrn: WAVE,
        reviewItemUrn: causeUrn(CASE.caseUrn, `${WAVE}#PARTIAL_FULFILLMENT`),
        category: "PARTIAL_FULFILLMENT",
        attemptedHotels: [...tried("G2"), ...bookingIn("PENDING").attemptedHotels],
        affectedGroups: ["G2", "G3", "G4"],
        reason: "3 group(s) of the wave could not be booked: G2 (sold out), G3 (pending), G4 (not allocated)",
      },
    ]);
  });

  it("asks for BOOKING_FAILED for the refused groups when nothing was booked, with the demand", () => {
    const wave = {
      ...settledWave("FAILED", [failed("G1", soldOut)], ["G1", "G2"]),
      demandUrn: "urn:demand:d1",
    };
    expect(waveReviewRequests(CASE.caseUrn, wave, causeUrn)).toEqual([
      {
        caseUrn: CASE.caseUrn,
        waveUrn: WAVE,
        demandUrn: "urn:demand:d1",
        reviewItemUrn: causeUrn(CASE.caseUrn, `${WAVE}#BOOKING_FAILED`),
        category: "BOOKING_FAILED",
        attemptedHotels: tried("G1"),
        affectedGroups: ["G1"],
        reason: "Every attempted hotel refused or errored for G1",
      },
    ]);
  });

  it("asks for PAYMENT_FAILED beside the outcome's item for the groups whose payment was refused", () => {
    const bookings = [failed("G1", soldOut), failed("G2", cardRefused)];
    const partial = waveReviewRequests(
      CASE.caseUrn,
      settledWave("PARTIAL", bookings, ["G1", "G2"]),
      causeUrn,
    );
    expect(partial.map((r) => [r.category, r.affectedGroups])).toEqual([
      ["PARTIAL_FULFILLMENT", ["G1", "G2"]],
      ["PAYMENT_FAILED", ["G2"]],
    ]);
    expect(partial[1]).toMatchObject({
      reviewItemUrn: causeUrn(CASE.caseUrn, `${WAVE}#PAYMENT_FAILED`),
      attemptedHotels: tried("G2"),
      reason: "The vendor refused the payment for G2; correct the payment details",
    });
    const failedWave = waveReviewRequests(
      CASE.caseUrn,
      settledWave("FAILED", bookings, ["G1", "G2"]),
      causeUrn,
    );
    expect(failedWave.map((r) => r.category)).toEqual(["BOOKING_FAILED", "PAYMENT_FAILED"]);
  });

  it("asks for nothing when a FAILED wave refused nobody and a FULFILLED one left nobody out", () => {
    expect(waveReviewRequests(CASE.caseUrn, settledWave("FAILED", [], ["G1"]), causeUrn)).toEqual([]);
    expect(waveReviewRequests(CASE.caseUrn, settledWave("FULFILLED", [], []), causeUrn)).toEqual([]);
  });
});

describe("booking's answer to a re-booking", () => {
  it("names the review item that asked, the group and what came of it", () => {
    const rebooking = bookingIn("BOOKED", { source: "manual-review", reviewItemUrn: "urn:review-item:r1" });
    expect(reviewAnswer(CASE.caseUrn, rebooking, { reservationUrn: "urn:reservation:r-1" })).toEqual({
      caseUrn: CASE.caseUrn,
      groupId: "G1",
      reviewItemUrn: "urn:review-item:r1",
      reservationUrn: "urn:reservation:r-1",
    });
    expect(reviewAnswer(CASE.caseUrn, { ...rebooking, reviewItemUrn: null }, {})).toEqual({
      caseUrn: CASE.caseUrn,
      groupId: "G1",
      reviewItemUrn: "",
    });
  });
});
