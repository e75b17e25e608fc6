import { describe, expect, it } from "vitest";
import type { ReservationRecord } from "../../src/domain/case-reservations.js";
import { reaccommodateCase } from "../../src/domain/reaccommodation.js";
import { caseIn, expectRefusal, later } from "./case-fixture.js";

const buffers = { earlyCheckInMinutes: 0, lateCheckoutMinutes: 0 };
const by = "urn:user:ops-1";
/** Two days after the disrupted departure (22:00 on the 21st, UTC): one more night. */
const dayLater = { number: "ZX104", scheduledDeparture: "2026-11-23T18:00:00Z" };
/** Four hours after it: no overnight gap. */
const sameNight = { number: "ZX106", scheduledDeparture: "2026-11-22T02:00:00Z" };

function reservation(
  reservationUrn: string,
  updatedAt: string,
  extra: Partial<ReservationRecord> = {},
): ReservationRecord {
  return {
    reservationUrn,
    groupId: "ABC123",
    status: "CONFIRMED",
    checkIn: "2026-11-21",
    checkOut: "2026-11-22",
    updatedAt,
    ...extra,
  };
}

describe("reaccommodateCase: the next flight moved (PATCH /cases/{urn}/reaccommodate)", () => {
  it("plans every group from its current stay, sets the next flight and bumps the case", () => {
    const record = caseIn();
    const result = reaccommodateCase(
      record,
      [reservation("urn:reservation:r1", "2026-11-22T01:00:00Z")],
      [],
      { nextFlight: dayLater, utcOffsetMinutes: 0, buffers, by },
      later,
    );
    expect(result.plan.groups.map((g) => [g.groupId, g.decision, g.reservationUrn])).toEqual([
      ["ABC123", "extend", "urn:reservation:r1"],
      ["XYZ789", "unchanged", undefined],
    ]);
    expect(result.record).toMatchObject({
      nextFlight: dayLater,
      version: record.version + 1,
      updatedAt: later.toISOString(),
    });
    expect(result.localResidentGroups).toEqual([]);
    expect(result.change).toEqual({
      action: "case.reaccommodated",
      by,
      before: { nextFlight: record.nextFlight, localResidentGroups: [] },
      after: { nextFlight: dayLater, localResidentGroups: [] },
    });
  });

  it("takes the latest reservation with dates that is not cancelled as the group's stay", () => {
    const reservations = [
      reservation("urn:reservation:old", "2026-11-22T01:00:00Z", { checkIn: "2026-11-20" }),
      reservation("urn:reservation:now", "2026-11-22T02:00:00Z"),
      reservation("urn:reservation:gone", "2026-11-22T03:00:00Z", { status: "CANCELLED" }),
      reservation("urn:reservation:undated", "2026-11-22T04:00:00Z", { checkIn: undefined }),
    ];
    const result = reaccommodateCase(
      caseIn(),
      reservations,
      [],
      { nextFlight: dayLater, utcOffsetMinutes: 0, buffers, by },
      later,
    );
    expect(result.plan.groups[0]).toMatchObject({
      reservationUrn: "urn:reservation:now",
      decision: "extend",
    });
  });

  it("marks the groups left without an overnight gap LOCAL_RESIDENT, with the reason given", () => {
    const result = reaccommodateCase(
      caseIn(),
      [],
      ["XYZ789"],
      { nextFlight: sameNight, utcOffsetMinutes: 0, buffers, by, reason: "flight moved up" },
      later,
    );
    expect(result.localResidentGroups).toEqual(["ABC123", "XYZ789"]);
    expect(result.change).toMatchObject({
      reason: "flight moved up",
      before: { localResidentGroups: ["XYZ789"] },
      after: { nextFlight: sameNight, localResidentGroups: ["ABC123", "XYZ789"] },
    });
  });

  it("refuses a closed case", () => {
    expectRefusal(
      () =>
        reaccommodateCase(
          caseIn("CLOSED"),
          [],
          [],
          { nextFlight: dayLater, utcOffsetMinutes: 0, buffers, by },
          later,
        ),
      "conflict",
      "case-closed",
    );
  });

  it("refuses a next departure that is not a timestamp", () => {
    expectRefusal(
      () =>
        reaccommodateCase(
          caseIn(),
          [],
          [],
          { nextFlight: { number: "ZX1", scheduledDeparture: "soon" }, utcOffsetMinutes: 0, buffers, by },
          later,
        ),
      "invalid",
      "invalid-timestamp",
    );
  });
});
