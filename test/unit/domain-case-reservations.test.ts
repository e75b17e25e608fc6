import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../../src/domain/case-lifecycle.js";
import { type ReservationRecord, recordReservation } from "../../src/domain/case-reservations.js";
import { caseIn, expectRefusal, later } from "./case-fixture.js";

const report = { reservationUrn: "urn:reservation:r1", groupId: "ABC123", status: "CONFIRMED" };

function recorded(
  status: string,
  groupId = "ABC123",
  reservationUrn = "urn:reservation:r1",
): ReservationRecord {
  return { reservationUrn, groupId, status, updatedAt: "2026-11-22T01:00:00.000Z" };
}

describe("recordReservation: the booking flow reports a reservation (spec 3.3)", () => {
  it("records a new reservation with its stay dates and bumps the case", () => {
    const record = caseIn();
    const decision = recordReservation(
      record,
      {},
      { ...report, checkIn: "2026-11-21", checkOut: "2026-11-22" },
      later,
    );
    expect(decision).toEqual({
      changed: true,
      record: { ...record, version: record.version + 1, updatedAt: later.toISOString() },
      reservations: {
        "urn:reservation:r1": {
          reservationUrn: "urn:reservation:r1",
          groupId: "ABC123",
          status: "CONFIRMED",
          checkIn: "2026-11-21",
          checkOut: "2026-11-22",
          updatedAt: later.toISOString(),
        },
      },
    });
  });

  it("leaves out stay dates not reported", () => {
    const decision = recordReservation(caseIn(), {}, report, later);
    expect(decision.changed && Object.keys(decision.reservations["urn:reservation:r1"]!)).toEqual([
      "reservationUrn",
      "groupId",
      "status",
      "updatedAt",
    ]);
  });

  it("replaces a known reservation's status in place, keeping the others", () => {
    const other = recorded("CONFIRMED", "XYZ789", "urn:reservation:r2");
    const known = { "urn:reservation:r1": recorded("CONFIRMED"), "urn:reservation:r2": other };
    const decision = recordReservation(caseIn(), known, { ...report, status: "CHECKED_IN" }, later);
    if (!decision.changed) throw new Error("expected a change");
    expect(Object.keys(decision.reservations)).toEqual(["urn:reservation:r1", "urn:reservation:r2"]);
    expect(decision.reservations["urn:reservation:r1"]?.status).toBe("CHECKED_IN");
    expect(decision.reservations["urn:reservation:r2"]).toBe(other);
    expect(known["urn:reservation:r1"].status).toBe("CONFIRMED");
  });

  it.each(["OPEN", "CLOSED"] as const)("changes nothing on a repeated report (case %s)", (status) => {
    const known = { "urn:reservation:r1": recorded("CONFIRMED") };
    expect(recordReservation(caseIn(status), known, report, later)).toEqual({ changed: false });
  });

  it("takes a report moving the reservation to another group as a change", () => {
    const known = { "urn:reservation:r1": recorded("CONFIRMED", "XYZ789") };
    expect(recordReservation(caseIn(), known, report, later).changed).toBe(true);
  });

  it("refuses a new status on a closed case", () => {
    expectRefusal(() => recordReservation(caseIn("CLOSED"), {}, report, later), "conflict", "case-closed");
  });

  it("refuses a group the case does not have", () => {
    expectRefusal(
      () => recordReservation(caseIn(), {}, { ...report, groupId: "NOPE" }, later),
      "not-found",
      "group-not-found",
    );
  });

  it("closes the case when the last reservation checks out", () => {
    const known = {
      "urn:reservation:r1": recorded("CONFIRMED"),
      "urn:reservation:r2": recorded("CHECKED_OUT", "XYZ789", "urn:reservation:r2"),
    };
    const decision = recordReservation(caseIn(), known, { ...report, status: "CHECKED_OUT" }, later);
    if (!decision.changed) throw new Error("expected a change");
    expect(decision.closing).toMatchObject({
      from: "OPEN",
      to: "CLOSED",
      changed: true,
      effects: ["revoke-passenger-tokens"],
      record: { status: "CLOSED", version: decision.record.version + 1, statusChange: { by: SYSTEM_ACTOR } },
    });
  });

  it("does not close while a reservation is still held", () => {
    const known = { "urn:reservation:r2": recorded("CONFIRMED", "XYZ789", "urn:reservation:r2") };
    const decision = recordReservation(caseIn(), known, { ...report, status: "CHECKED_OUT" }, later);
    expect(decision.changed && "closing" in decision).toBe(false);
  });
});
