import { describe, expect, it } from "vitest";
import { DomainError } from "../../src/domain/domain-error.js";
import { type GroupStay, planStays, type ReaccommodationInput } from "../../src/domain/reaccommodation.js";

const buffers = { lateCheckoutMinutes: 120, earlyCheckInMinutes: 60 };

function plan(input: Partial<ReaccommodationInput> & Pick<ReaccommodationInput, "nextDeparture">) {
  return planStays({
    groups: [
      {
        groupId: "G",
        stay: { reservationUrn: "urn:reservation:r1", checkIn: "2026-11-21", checkOut: "2026-11-22" },
      },
    ],
    disruptedDeparture: "2026-11-21T22:00:00Z",
    utcOffsetMinutes: 0,
    buffers,
    ...input,
  });
}

function stay(checkIn: string, checkOut: string): GroupStay[] {
  return [{ groupId: "G", stay: { checkIn, checkOut } }];
}

describe("stay plan after the next flight changes (UTC airport, cancelled 22:00 on the 21st)", () => {
  it.each([
    [
      "evening flight next day: same night",
      "2026-11-22T18:00:00Z",
      stay("2026-11-21", "2026-11-22"),
      "unchanged",
      "2026-11-22",
    ],
    [
      "flight moved a day later",
      "2026-11-23T10:00:00Z",
      stay("2026-11-21", "2026-11-22"),
      "extend",
      "2026-11-23",
    ],
    [
      "flight moved earlier",
      "2026-11-22T08:00:00Z",
      stay("2026-11-21", "2026-11-24"),
      "shorten",
      "2026-11-22",
    ],
    [
      "early-morning flight still needs the night",
      "2026-11-22T08:00:00Z",
      stay("2026-11-21", "2026-11-22"),
      "unchanged",
      "2026-11-22",
    ],
    [
      "reservation for another night",
      "2026-11-22T18:00:00Z",
      stay("2026-11-22", "2026-11-23"),
      "rebook",
      "2026-11-22",
    ],
    ["no reservation yet", "2026-11-23T10:00:00Z", [{ groupId: "G" }], "unchanged", "2026-11-23"],
  ] as const)("%s", (_name, nextDeparture, groups, decision, checkOut) => {
    const result = plan({ nextDeparture, groups });
    expect(result.overnightGap).toBe(true);
    expect(result.groups).toEqual([
      expect.objectContaining({
        groupId: "G",
        decision,
        checkIn: "2026-11-21",
        checkOut,
        reason: expect.any(String),
      }),
    ]);
  });

  it.each([
    ["flight leaves just after midnight", "2026-11-22T03:00:00Z"],
    ["wait of under six hours across the night", "2026-11-22T05:30:00Z"],
    ["flight later the same day", "2026-11-21T23:59:00Z"],
  ])("no overnight gap: %s → local-resident", (_name, nextDeparture) => {
    const result = plan({ nextDeparture });
    expect(result.overnightGap).toBe(false);
    expect(result.nights).toBeUndefined();
    expect(result.groups).toEqual([
      {
        groupId: "G",
        decision: "local-resident",
        reservationUrn: "urn:reservation:r1",
        reason: expect.any(String),
      },
    ]);
  });

  it("a daytime wait needs no hotel", () => {
    const result = plan({
      disruptedDeparture: "2026-11-21T08:00:00Z",
      nextDeparture: "2026-11-21T23:30:00Z",
    });
    expect(result.groups[0]?.decision).toBe("local-resident");
  });

  it("a disruption in the small hours uses the night already under way", () => {
    const result = plan({
      disruptedDeparture: "2026-11-22T01:00:00Z",
      nextDeparture: "2026-11-22T14:00:00Z",
    });
    expect(result.nights).toEqual({ checkIn: "2026-11-21", checkOut: "2026-11-22" });
    expect(result.groups[0]?.decision).toBe("unchanged");
  });

  it("leaves for the airport the lead time before the new departure", () => {
    expect(plan({ nextDeparture: "2026-11-22T18:00:00Z" }).leaveForAirportAt).toBe(
      "2026-11-22T15:00:00.000Z",
    );
    expect(
      plan({ nextDeparture: "2026-11-22T18:00:00Z", rules: { airportLeadMinutes: 60 } }).leaveForAirportAt,
    ).toBe("2026-11-22T17:00:00.000Z");
  });

  it("decides each group on its own reservation", () => {
    const result = plan({
      nextDeparture: "2026-11-23T10:00:00Z",
      groups: [
        { groupId: "A", stay: { checkIn: "2026-11-21", checkOut: "2026-11-22" } },
        { groupId: "B", stay: { checkIn: "2026-11-21", checkOut: "2026-11-23" } },
        { groupId: "C", stay: { checkIn: "2026-11-21", checkOut: "2026-11-25" } },
      ],
    });
    expect(result.groups.map((g) => [g.groupId, g.decision])).toEqual([
      ["A", "extend"],
      ["B", "unchanged"],
      ["C", "shorten"],
    ]);
  });
});

describe("policy buffers", () => {
  it("asks for a late check-out up to the buffer, never an extra night", () => {
    const [group] = plan({ nextDeparture: "2026-11-22T18:00:00Z" }).groups;
    expect(group).toMatchObject({ checkOut: "2026-11-22", lateCheckoutUntil: "2026-11-22T14:00:00.000Z" });
    expect(group).not.toHaveProperty("earlyCheckInFrom");
  });

  it("asks for a late check-out only until the passengers leave", () => {
    const [group] = plan({ nextDeparture: "2026-11-22T16:00:00Z" }).groups;
    expect(group?.lateCheckoutUntil).toBe("2026-11-22T13:00:00.000Z");
  });

  it("asks for an early check-in up to the buffer when passengers arrive before check-in time", () => {
    const [group] = plan({
      disruptedDeparture: "2026-11-21T09:00:00Z",
      nextDeparture: "2026-11-22T12:00:00Z",
    }).groups;
    expect(group).toMatchObject({ decision: "unchanged", earlyCheckInFrom: "2026-11-21T14:00:00.000Z" });
    expect(group).not.toHaveProperty("lateCheckoutUntil");
  });

  it("asks for nothing without buffers", () => {
    const [group] = plan({
      disruptedDeparture: "2026-11-21T09:00:00Z",
      nextDeparture: "2026-11-22T18:00:00Z",
      buffers: { lateCheckoutMinutes: 0, earlyCheckInMinutes: 0 },
    }).groups;
    expect(group).not.toHaveProperty("earlyCheckInFrom");
    expect(group).not.toHaveProperty("lateCheckoutUntil");
  });
});

describe("airport time zone", () => {
  it("counts nights in local time (New York, UTC-5)", () => {
    const result = planStays({
      groups: stay("2026-11-21", "2026-11-22"),
      disruptedDeparture: "2026-11-22T03:00:00Z",
      nextDeparture: "2026-11-22T23:00:00Z",
      utcOffsetMinutes: -300,
      buffers,
    });
    expect(result.nights).toEqual({ checkIn: "2026-11-21", checkOut: "2026-11-22" });
    expect(result.groups[0]).toMatchObject({
      decision: "unchanged",
      lateCheckoutUntil: "2026-11-22T19:00:00.000Z",
    });
  });

  it("the same instants in UTC+9 fall on other local dates", () => {
    const result = planStays({
      groups: stay("2026-11-21", "2026-11-22"),
      disruptedDeparture: "2026-11-22T03:00:00Z",
      nextDeparture: "2026-11-23T03:00:00Z",
      utcOffsetMinutes: 540,
      buffers,
    });
    expect(result.nights).toEqual({ checkIn: "2026-11-22", checkOut: "2026-11-23" });
    expect(result.groups[0]?.decision).toBe("rebook");
  });
});

describe("bad input", () => {
  it.each([
    [{ nextDeparture: "tomorrow" }, "invalid-timestamp"],
    [{ nextDeparture: "2026-11-23T10:00:00Z", groups: stay("21/11/2026", "2026-11-22") }, "invalid-date"],
    [{ nextDeparture: "2026-11-23T10:00:00Z", rules: { checkInTime: "3pm" } }, "invalid-time"],
  ] as const)("%j is refused", (input, code) => {
    let error: unknown;
    try {
      plan(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(code);
  });
});
