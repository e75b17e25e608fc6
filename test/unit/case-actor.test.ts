import { describe, expect, it } from "vitest";
import {
  CaseActor,
  type CaseChangeResult,
  type CaseSnapshot,
  type OpenCaseArgs,
} from "../../actors/CaseActor.js";
import { caseIdFor, caseUrnFor, type CaseStatus } from "../../src/domain/case.js";
import { SYSTEM_ACTOR } from "../../src/domain/case-lifecycle.js";
import type { ServiceRole } from "../../src/domain/roles.js";
import type { ActorRuntime } from "../../src/runtime/actor-runtime.js";
import { settle } from "../../src/runtime/clock.js";
import { startActorStage } from "./actor-stage.js";
import { opening } from "./case-fixture.js";

const tenant = "urn:airline:ZX";
const correlationUrn = "urn:trace:abc";
const operator = "urn:user:ops-1";

function command(externalEventId = "evt-1", overrides: Partial<OpenCaseArgs> = {}): OpenCaseArgs {
  return opening({ tenant, externalEventId, correlationUrn, ...overrides });
}

/** Each passenger's PNR as PNR login sees it: kept apart, else its group's. */
function pnrsOf({ case: record, passengerPnrs }: CaseSnapshot): Record<string, string> {
  return Object.fromEntries(
    record.passengerGroups.flatMap((group) =>
      group.passengers.flatMap((p) => {
        const pnr = passengerPnrs[p.id] ?? group.pnr;
        return pnr ? [[p.id, pnr]] : [];
      }),
    ),
  );
}

async function setup() {
  const { clock, runtime, events } = await startActorStage(CaseActor, tenant);
  const actors: ActorRuntime = runtime;
  const id = caseIdFor(tenant, "evt-1");
  const open = (args = command()) =>
    actors.invoke(CaseActor, caseIdFor(args.tenant, args.externalEventId), "open", args);
  return { actors, events, clock, id, open };
}

type Setup = Awaited<ReturnType<typeof setup>>;

const status = (by: string, role: ServiceRole, reason = "a reason") => ({ reason, by, role, correlationUrn });

/** Commands that bring a fresh case into a state of table 3.3. */
const reach: Record<CaseStatus, (s: Setup) => Promise<unknown>> = {
  OPEN: async () => {},
  MANUAL_REVIEW: (s) =>
    s.actors.invoke(CaseActor, s.id, "toManualReview", {
      reason: "no policy for JFK",
      by: SYSTEM_ACTOR,
      correlationUrn,
    }),
  CLOSED: (s) => s.actors.invoke(CaseActor, s.id, "close", status(operator, "AIRPORT_OPERATOR", "done")),
};

interface Row {
  row: string;
  from: CaseStatus;
  move: (s: Setup) => Promise<CaseChangeResult>;
  to: CaseStatus | { refused: string };
  event?: string;
  /** Checks of what else happens, per the table's last column. */
  also?: (result: CaseChangeResult, s: Setup) => void | Promise<void>;
}

const checkedOut = (s: Setup, reservationUrn: string, groupId: string) =>
  s.actors.invoke(CaseActor, s.id, "recordReservationStatus", {
    reservationUrn,
    groupId,
    status: "CHECKED_OUT",
    correlationUrn,
  });

/** The rows of spec table 3.3 (and the refusals it implies), each run on a fresh case. */
const TABLE_3_3: Row[] = [
  {
    row: "any → allocation finds no matching policy → MANUAL_REVIEW with a POLICY_VIOLATION item",
    from: "OPEN",
    move: (s) =>
      s.actors.invoke(CaseActor, s.id, "toManualReview", {
        reason: "no policy for JFK",
        by: SYSTEM_ACTOR,
        correlationUrn,
      }),
    to: "MANUAL_REVIEW",
    event: "case.manual-review",
    also: (result, s) => {
      expect(result.snapshot.reviewItems).toEqual([
        expect.objectContaining({
          category: "POLICY_VIOLATION",
          priority: "LOW",
          affectedGroups: ["ABC123", "XYZ789"],
          reason: "no policy for JFK",
        }),
      ]);
      expect(s.events.map((e) => e.type)).toContain("review-item.raised");
    },
  },
  {
    row: "MANUAL_REVIEW → review item resolved → back to the normal flow, actor and reason recorded",
    from: "MANUAL_REVIEW",
    move: (s) =>
      s.actors.invoke(CaseActor, s.id, "returnToFlow", {
        reason: "policy added",
        by: operator,
        correlationUrn,
      }),
    to: "OPEN",
    event: "case.returned-to-flow",
    also: (result) =>
      expect(result.change).toMatchObject({
        by: operator,
        reason: "policy added",
        before: { status: "MANUAL_REVIEW" },
      }),
  },
  {
    row: "open case → every reservation CHECKED_OUT → CLOSED, passenger tokens revoked",
    from: "OPEN",
    move: async (s) => {
      await s.actors.invoke(CaseActor, s.id, "recordReservationStatus", {
        reservationUrn: "urn:reservation:r1",
        groupId: "ABC123",
        status: "CONFIRMED",
        correlationUrn,
      });
      const first = await checkedOut(s, "urn:reservation:r2", "XYZ789");
      expect(first.snapshot.case.status).toBe("OPEN");
      return checkedOut(s, "urn:reservation:r1", "ABC123");
    },
    to: "CLOSED",
    event: "case.closed",
    also: (result, s) => {
      expect(result.change).toMatchObject({ by: SYSTEM_ACTOR, reason: "every reservation is checked out" });
      const closed = s.events.find((e) => e.type === "case.closed")!;
      expect((closed.data as any).effects).toEqual(["revoke-passenger-tokens"]);
    },
  },
  {
    row: "MANUAL_REVIEW → every reservation CHECKED_OUT → CLOSED",
    from: "MANUAL_REVIEW",
    move: (s) => checkedOut(s, "urn:reservation:r1", "ABC123"),
    to: "CLOSED",
    event: "case.closed",
  },
  {
    row: "OPEN → close with a reason by AIRPORT_OPERATOR → CLOSED, passenger tokens revoked",
    from: "OPEN",
    move: (s) =>
      s.actors.invoke(CaseActor, s.id, "close", status(operator, "AIRPORT_OPERATOR", "all rebooked")),
    to: "CLOSED",
    event: "case.closed",
    also: (result) =>
      expect(result.change).toMatchObject({
        action: "case.closed",
        by: operator,
        reason: "all rebooked",
        before: { status: "OPEN" },
        after: { status: "CLOSED" },
      }),
  },
  {
    row: "MANUAL_REVIEW → close by OPS_SUPERVISOR (inherits AIRPORT_OPERATOR) → CLOSED",
    from: "MANUAL_REVIEW",
    move: (s) => s.actors.invoke(CaseActor, s.id, "close", status(operator, "OPS_SUPERVISOR")),
    to: "CLOSED",
    event: "case.closed",
  },
  {
    row: "close by FINANCE_AUDIT is refused",
    from: "OPEN",
    move: (s) => s.actors.invoke(CaseActor, s.id, "close", status(operator, "FINANCE_AUDIT")),
    to: { refused: "role-required" },
  },
  {
    row: "close without a reason is refused",
    from: "OPEN",
    move: (s) => s.actors.invoke(CaseActor, s.id, "close", status(operator, "AIRPORT_OPERATOR", "  ")),
    to: { refused: "reason-required" },
  },
  {
    row: "CLOSED → reopen by ADMIN → OPEN",
    from: "CLOSED",
    move: (s) =>
      s.actors.invoke(CaseActor, s.id, "reopen", status("urn:user:admin", "ADMIN", "closed by mistake")),
    to: "OPEN",
    event: "case.reopened",
  },
  {
    row: "CLOSED → reopen by OPS_SUPERVISOR is refused",
    from: "CLOSED",
    move: (s) => s.actors.invoke(CaseActor, s.id, "reopen", status(operator, "OPS_SUPERVISOR")),
    to: { refused: "role-required" },
  },
  {
    row: "reopen of a case that is not CLOSED is refused",
    from: "OPEN",
    move: (s) => s.actors.invoke(CaseActor, s.id, "reopen", status("urn:user:admin", "ADMIN")),
    to: { refused: "case-not-closed" },
  },
  ...(
    [
      ["close again", (s: Setup) => s.actors.invoke(CaseActor, s.id, "close", status(operator, "ADMIN"))],
      [
        "move to manual review",
        (s: Setup) =>
          s.actors.invoke(CaseActor, s.id, "toManualReview", {
            reason: "no policy",
            by: SYSTEM_ACTOR,
            correlationUrn,
          }),
      ],
      [
        "split a group",
        (s: Setup) =>
          s.actors.invoke(CaseActor, s.id, "splitGroup", {
            groupId: "ABC123",
            into: [["p1"], ["p2"]],
            reason: "x",
            by: operator,
            correlationUrn,
          }),
      ],
      [
        "merge groups",
        (s: Setup) =>
          s.actors.invoke(CaseActor, s.id, "mergeGroups", {
            groupIds: ["ABC123", "XYZ789"],
            reason: "x",
            by: operator,
            correlationUrn,
          }),
      ],
      [
        "record a new reservation status",
        (s: Setup) =>
          s.actors.invoke(CaseActor, s.id, "recordReservationStatus", {
            reservationUrn: "urn:reservation:late",
            groupId: "ABC123",
            status: "CONFIRMED",
            correlationUrn,
          }),
      ],
      [
        "raise the priority",
        (s: Setup) =>
          s.actors.invoke(CaseActor, s.id, "requestPriority", {
            reason: "a minister is on board",
            by: "urn:partner:skyhub",
            correlationUrn,
          }),
      ],
      [
        "reaccommodate",
        (s: Setup) =>
          s.actors.invoke(CaseActor, s.id, "reaccommodate", {
            nextFlight: { number: "ZX104", scheduledDeparture: "2026-11-23T10:00:00Z" },
            utcOffsetMinutes: 0,
            buffers: { earlyCheckInMinutes: 0, lateCheckoutMinutes: 0 },
            by: operator,
            correlationUrn,
          }),
      ],
    ] as const
  ).map(
    ([what, move]): Row => ({
      row: `CLOSED → ${what} is refused with case-closed (no further state changes)`,
      from: "CLOSED",
      move,
      to: { refused: "case-closed" },
    }),
  ),
];

describe("CaseActor: the case state machine of spec 3.3", () => {
  it.each(TABLE_3_3)("$row", async ({ from, move, to, event, also }) => {
    const s = await setup();
    await s.open();
    await reach[from](s);
    if (from === "CLOSED" || from === "MANUAL_REVIEW") {
      expect((await s.actors.invoke(CaseActor, s.id, "get"))!.status).toBe(from);
    }
    await settle();
    const before = await s.actors.invoke(CaseActor, s.id, "snapshot");
    s.events.length = 0;

    if (typeof to === "object") {
      await expect(move(s)).rejects.toMatchObject({ code: to.refused });
      expect(await s.actors.invoke(CaseActor, s.id, "snapshot")).toEqual(before);
      await settle();
      expect(s.events).toEqual([]);
      return;
    }
    const result = await move(s);
    expect(result.snapshot.case.status).toBe(to);
    expect(result.snapshot.case.version).toBeGreaterThan(before!.case.version);
    expect(result.snapshot.case.statusChange).toMatchObject({ from: expect.any(String), to });
    expect((await s.actors.invoke(CaseActor, s.id, "get"))!.status).toBe(to);
    await settle();
    expect(s.events.map((e) => e.type)).toContain(event);
    await also?.(result, s);
  });

  it("accepts a repeated reservation report after the automatic close, changing nothing", async () => {
    const s = await setup();
    await s.open();
    await checkedOut(s, "urn:reservation:r1", "ABC123");
    const repeat = await checkedOut(s, "urn:reservation:r1", "ABC123");
    expect(repeat.change).toBeUndefined();
    expect(repeat.snapshot.case.status).toBe("CLOSED");
  });

  it("changes nothing when a case already in MANUAL_REVIEW is sent there again", async () => {
    const s = await setup();
    await s.open();
    await reach.MANUAL_REVIEW(s);
    const again = await reach.MANUAL_REVIEW(s);
    expect((again as CaseChangeResult).change).toBeUndefined();
    expect((again as CaseChangeResult).snapshot.reviewItems).toHaveLength(1);
  });
});

describe("CaseActor.open", () => {
  it("opens an OPEN case with a URN derived from tenant and externalEventId and emits case.opened with the groups", async () => {
    const { open, events } = await setup();
    const result = await open();
    expect(result.created).toBe(true);
    expect(result.snapshot.case).toMatchObject({
      urn: caseUrnFor(tenant, "evt-1"),
      status: "OPEN",
      tenant,
      openedAt: "2026-11-21T23:00:00.000Z",
      version: 1,
    });
    expect(result.snapshot.intake).toEqual({
      source: "operator",
      receivedBy: "urn:user:supervisor-1",
      receivedAt: "2026-11-21T23:00:00.000Z",
      correlationUrn,
    });
    expect(pnrsOf(result.snapshot)).toEqual({ p1: "ABC123", p2: "ABC123", p3: "XYZ789" });
    // The groups carry them all.
    expect(result.snapshot.passengerPnrs).toEqual({});
    await settle();
    const opened = events.filter((e) => e.type === "case.opened");
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      tenant,
      caseUrn: result.snapshot.case.urn,
      correlationUrn,
      data: { status: "OPEN", groupCount: 2, passengerCount: 3, externalEventId: "evt-1", version: 1 },
    });
    expect((opened[0]!.data as any).passengerGroups.map((g: any) => g.id)).toEqual(["ABC123", "XYZ789"]);
  });

  it("returns the same case for 100 concurrent replays and emits case.opened once", async () => {
    const { open, events } = await setup();
    const results = await Promise.all(Array.from({ length: 100 }, () => open(command("evt-2"))));
    expect(new Set(results.map((r) => r.snapshot.case.urn)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    await settle();
    expect(events.filter((e) => e.type === "case.opened")).toHaveLength(1);
  });

  it("keeps tenants apart: the same externalEventId at two airlines opens two cases", async () => {
    const { open } = await setup();
    const a = await open(command("evt-3"));
    const b = await open(command("evt-3", { tenant: "urn:airline:QV" }));
    expect(a.snapshot.case.urn).not.toBe(b.snapshot.case.urn);
    expect(b.created).toBe(true);
  });

  it("raises review items for groups spanning tiers or missing required data", async () => {
    const { open } = await setup();
    const result = await open(
      command("evt-5", {
        passengerGroups: [
          {
            id: "MIX",
            pnr: "MIX123",
            passengers: [
              { id: "m1", lastName: "A", tier: "ECONOMY", contact: { email: "m@example.com" } },
              { id: "m2", lastName: "A", tier: "FIRST" },
            ],
          },
          { id: "BARE", pnr: "BARE12", passengers: [{ id: "b1", lastName: "B" }] },
        ],
      }),
    );
    expect(result.snapshot.reviewItems.map((i) => [i.category, i.affectedGroups])).toEqual([
      ["MIXED_TIER_GROUP", ["MIX"]],
      ["DATA_INCOMPLETE", ["BARE"]],
    ]);
  });

  it("refuses a manifest with a repeated passenger, and commands on an unknown case", async () => {
    const { open, actors } = await setup();
    const repeated = command("evt-6");
    repeated.passengerGroups[1]!.passengers[0]!.id = "p1";
    await expect(open(repeated)).rejects.toMatchObject({ code: "passenger-repeated" });
    expect(await actors.invoke(CaseActor, caseIdFor(tenant, "evt-6"), "get")).toBeUndefined();
    await expect(
      actors.invoke(CaseActor, "unknown", "close", status(operator, "ADMIN")),
    ).rejects.toMatchObject({
      code: "case-not-found",
    });
    expect(await actors.invoke(CaseActor, "unknown", "snapshot")).toBeUndefined();
  });
});

describe("CaseActor.outline", () => {
  it("gives the case without its passengers, following every change of it", async () => {
    const s = await setup();
    expect(await s.actors.invoke(CaseActor, s.id, "outline")).toBeUndefined();
    const { snapshot } = await s.open();
    expect(await s.actors.invoke(CaseActor, s.id, "outline")).toEqual({
      urn: snapshot.case.urn,
      tenant,
      airport: "JFK",
      status: "OPEN",
      version: 1,
      groupIds: ["ABC123", "XYZ789"],
    });
    const merged = await s.actors.invoke(CaseActor, s.id, "mergeGroups", {
      groupIds: ["ABC123", "XYZ789"],
      reason: "travelling together",
      by: operator,
      correlationUrn,
    });
    await reach.CLOSED(s);
    expect(await s.actors.invoke(CaseActor, s.id, "outline")).toMatchObject({
      status: "CLOSED",
      version: merged.snapshot.case.version + 1,
      groupIds: merged.snapshot.case.passengerGroups.map((g) => g.id),
    });
  });
});

describe("CaseActor.groupView", () => {
  it("gives the case without its passengers, the one group asked for, and no single tier for mixed tiers", async () => {
    const s = await setup();
    expect(await s.actors.invoke(CaseActor, s.id, "groupView", "ABC123")).toBeUndefined();
    const { snapshot } = await s.open();
    const view = await s.actors.invoke(CaseActor, s.id, "groupView", "XYZ789");
    const { passengerGroups, ...withoutPassengers } = snapshot.case;
    expect(view).toEqual({
      case: withoutPassengers,
      group: passengerGroups.find((g) => g.id === "XYZ789"),
      tier: null,
    });
    expect((await s.actors.invoke(CaseActor, s.id, "groupView", "NOPE00"))?.group).toBeUndefined();
  });
});

describe("CaseActor manifest changes", () => {
  it("keeps every passenger's own PNR through a merge and a split, storing only those the groups lose", async () => {
    const s = await setup();
    await s.open();
    const merged = await s.actors.invoke(CaseActor, s.id, "mergeGroups", {
      groupIds: ["ABC123", "XYZ789"],
      reason: "travelling together",
      by: operator,
      correlationUrn,
    });
    const group = merged.snapshot.case.passengerGroups[0]!;
    expect(group.pnr).toBeUndefined();
    expect(merged.snapshot.passengerPnrs).toEqual({ p1: "ABC123", p2: "ABC123", p3: "XYZ789" });

    const split = await s.actors.invoke(CaseActor, s.id, "splitGroup", {
      groupId: group.id,
      into: [["p1", "p2"], ["p3"]],
      reason: "apart again",
      by: operator,
      correlationUrn,
    });
    expect(pnrsOf(split.snapshot)).toEqual({ p1: "ABC123", p2: "ABC123", p3: "XYZ789" });
    const snapshot = await s.actors.invoke(CaseActor, s.id, "snapshot");
    expect(pnrsOf(snapshot!)).toEqual({ p1: "ABC123", p2: "ABC123", p3: "XYZ789" });
  });

  it("adds passengers from manifest lines, correcting those already on the case", async () => {
    const s = await setup();
    await s.open();
    const result = await s.actors.invoke(CaseActor, s.id, "addPassengers", {
      lines: [
        { pnr: "ABC123", passenger: { id: "p2", lastName: "Rivera-Diaz", tier: "ECONOMY" } },
        {
          pnr: "NEW123",
          passenger: { id: "n1", lastName: "Kim", tier: "ECONOMY", contact: { email: "k@example.com" } },
        },
      ],
      action: "case.passengers-uploaded",
      by: operator,
      correlationUrn,
    });
    expect(result).toMatchObject({ added: ["n1"], updated: ["p2"] });
    expect(
      result.snapshot.case.passengerGroups.map((g) => [g.id, g.passengers.map((p) => p.lastName)]),
    ).toEqual([
      ["ABC123", ["Rivera", "Rivera-Diaz"]],
      ["XYZ789", ["Okafor"]],
      ["NEW123", ["Kim"]],
    ]);
    expect(pnrsOf(result.snapshot).n1).toBe("NEW123");
    await settle();
    expect(s.events.filter((e) => e.type === "case.amended").map((e) => (e.data as any).change)).toEqual([
      "case.passengers-uploaded",
    ]);
  });

  it("recomputes the stay on reaccommodation and marks LOCAL_RESIDENT groups without an overnight gap", async () => {
    const s = await setup();
    await s.open();
    await s.actors.invoke(CaseActor, s.id, "recordReservationStatus", {
      reservationUrn: "urn:reservation:r1",
      groupId: "ABC123",
      status: "CONFIRMED",
      checkIn: "2026-11-21",
      checkOut: "2026-11-22",
      correlationUrn,
    });
    const later = await s.actors.invoke(CaseActor, s.id, "reaccommodate", {
      nextFlight: { number: "ZX104", scheduledDeparture: "2026-11-23T18:00:00Z" },
      utcOffsetMinutes: 0,
      buffers: { earlyCheckInMinutes: 0, lateCheckoutMinutes: 0 },
      by: operator,
      correlationUrn,
    });
    expect(later.plan.groups.map((g) => [g.groupId, g.decision])).toEqual([
      ["ABC123", "extend"],
      ["XYZ789", "unchanged"],
    ]);
    expect(later.snapshot.localResidentGroups).toEqual([]);
    const early = await s.actors.invoke(CaseActor, s.id, "reaccommodate", {
      nextFlight: { number: "ZX106", scheduledDeparture: "2026-11-22T02:00:00Z" },
      utcOffsetMinutes: 0,
      buffers: { earlyCheckInMinutes: 0, lateCheckoutMinutes: 0 },
      by: operator,
      correlationUrn,
    });
    expect(early.snapshot.localResidentGroups).toEqual(["ABC123", "XYZ789"]);
    expect(early.change).toMatchObject({
      action: "case.reaccommodated",
      before: { nextFlight: { number: "ZX104" }, localResidentGroups: [] },
      after: { localResidentGroups: ["ABC123", "XYZ789"] },
    });
  });

  it("raises the priority one level per partner request, emits case.priority-raised, and repeats nothing at URGENT", async () => {
    const s = await setup();
    await s.open();
    s.events.length = 0;
    const ask = (reason: string) =>
      s.actors.invoke(CaseActor, s.id, "requestPriority", {
        reason,
        by: "urn:partner:skyhub",
        correlationUrn,
      });
    const first = await ask("a minister is on board");
    expect(first.snapshot.case).toMatchObject({ priority: "HIGH", version: 2 });
    expect(first.change).toMatchObject({ action: "case.priority-raised", by: "urn:partner:skyhub" });
    await ask("connection at risk");
    const top = await ask("still waiting");
    expect(top.change).toBeUndefined();
    expect(top.snapshot.case).toMatchObject({ priority: "URGENT", version: 3 });
    expect(
      s.events.map((e) => [e.type, (e.data as any).from, (e.data as any).to, (e.data as any).reason]),
    ).toEqual([
      ["case.priority-raised", "NORMAL", "HIGH", "a minister is on board"],
      ["case.priority-raised", "HIGH", "URGENT", "connection at risk"],
    ]);
  });
});
