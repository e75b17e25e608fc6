import { describe, expect, it } from "vitest";
import {
  AllocationScheduleActor,
  BATCH_INTERVAL_MS,
  batchScheduleId,
} from "../../actors/AllocationScheduleActor.js";
import { WAVE_LEASE_MS, WaveActor, type WaveOutcome } from "../../actors/WaveActor.js";
import { BATCH_DUE_EVENT, type WaveCompletedData } from "../../src/domain/events/allocation.js";
import type { WaveAllocation } from "../../src/domain/allocation/wave-allocation.js";
import { settle } from "../../src/runtime/clock.js";
import { startActorStage } from "./actor-stage.js";

const tenant = "urn:airline:ZX";
const caseId = "11111111-2222-3333-4444-555555555555";
const caseUrn = `urn:case:${caseId}`;
const demandUrn = `urn:demand:${caseId}.1`;
const correlationUrn = "urn:trace:0123456789abcdef0123456789abcdef";

async function setup() {
  const actorTypes = [WaveActor, AllocationScheduleActor];
  const { clock, runtime: actors, events } = await startActorStage(actorTypes, tenant);
  const begin = (automatic: boolean, demand: string | undefined = demandUrn) =>
    actors.invoke(WaveActor, caseId, "begin", {
      tenant,
      caseUrn,
      ...(demand ? { demandUrn: demand } : {}),
      automatic,
    });
  /** Ends the wave `waveUrn` of the demand with `outcome`. */
  const finish = (waveUrn: string, outcome: WaveOutcome) =>
    actors.invoke(WaveActor, caseId, "finish", { waveUrn, demandUrn, outcome, correlationUrn });
  return { clock, actors, events, begin, finish };
}

const allocation: WaveAllocation = {
  groupId: "G1",
  hotelUrn: "urn:hotel:GP1234567",
  vendor: "vendor-a",
  providerOfferId: "A-1",
  alternatives: [],
  rooms: 1,
  nights: 1,
  checkIn: "2026-11-21",
  checkOut: "2026-11-22",
  nightlyRate: { amountMinor: 10_000, currency: "USD" },
  vendorNightlyRate: { amountMinor: 8_000, currency: "GBP" },
  vendorCost: { amountMinor: 8_000, currency: "GBP" },
  cost: { amountMinor: 10_000, currency: "USD" },
  savingsVsMarket: null,
  isDirectContract: false,
};

function completed(waveUrn: string): WaveCompletedData {
  return { waveUrn, caseUrn, demandUrn, autoBook: true, allocations: [allocation] };
}

describe("WaveActor", () => {
  it("numbers the waves of a case and lets one run at a time", async () => {
    const { begin } = await setup();
    const first = await begin(false);
    expect(first).toEqual({ kind: "started", waveUrn: `urn:wave:${caseId}.1`, sequence: 1 });
    expect(await begin(false)).toEqual({ kind: "busy", waveUrn: `urn:wave:${caseId}.1` });
  });

  it("lets another wave start once a crashed wave's lease has run out", async () => {
    const { clock, begin } = await setup();
    await begin(false);
    await clock.advance(WAVE_LEASE_MS - 1);
    expect((await begin(false)).kind).toBe("busy");
    await clock.advance(1);
    expect(await begin(false)).toEqual({ kind: "started", waveUrn: `urn:wave:${caseId}.2`, sequence: 2 });
  });

  it("lets a restarted node take over at once the wave its killed predecessor left running, and no one else", async () => {
    const { actors } = await setup();
    const beginAs = (node: string, incarnation: number) =>
      actors.invoke(WaveActor, caseId, "begin", {
        tenant,
        caseUrn,
        automatic: false,
        holder: { node, incarnation },
      });
    expect((await beginAs("node-a", 1)).kind).toBe("started");
    expect((await beginAs("node-b", 5)).kind).toBe("busy");
    expect((await beginAs("node-a", 1)).kind).toBe("busy");
    expect(await beginAs("node-a", 2)).toEqual({ kind: "started", waveUrn: `urn:wave:${caseId}.2`, sequence: 2 });
  });

  it("announces a completed wave and its review item from the outbox, and runs an automatic trigger once per demand", async () => {
    const { actors, events, begin, finish } = await setup();
    const started = await begin(true);
    if (started.kind !== "started") throw new Error("expected a start");
    const reviewItem = {
      caseUrn,
      category: "ALLOCATION_FAILED" as const,
      attemptedHotels: [{ hotelUrn: "urn:hotel:GP7654321", reason: "hotel-full" }],
      affectedGroups: ["G2"],
      reason: "no room left",
      demandUrn,
      waveUrn: started.waveUrn,
    };
    await finish(started.waveUrn, { kind: "completed", completed: completed(started.waveUrn), reviewItem });
    await settle();
    expect(events.map((e) => [e.type, e.caseUrn, e.correlationUrn])).toEqual([
      ["allocation.wave-completed", caseUrn, correlationUrn],
      ["review-item.requested", caseUrn, correlationUrn],
    ]);
    expect(events[0]!.data).toEqual(completed(started.waveUrn));
    expect(events[1]!.data).toEqual(reviewItem);

    expect(await begin(true)).toEqual({ kind: "handled", outcome: started.waveUrn });
    // A person may always run another wave for the same demand.
    expect((await begin(false)).kind).toBe("started");
    const ledger = await actors.invoke(WaveActor, caseId, "get");
    expect(ledger?.latestWaveUrn).toBe(started.waveUrn);
  });

  it("records a policy violation as the demand's outcome without announcing a wave", async () => {
    const { events, begin, finish } = await setup();
    const started = await begin(true);
    if (started.kind !== "started") throw new Error("expected a start");
    await finish(started.waveUrn, { kind: "policy-violation" });
    await settle();
    expect(events).toEqual([]);
    expect(await begin(true)).toEqual({ kind: "handled", outcome: "policy-violation" });
  });

  it("frees the case after a failed wave without marking the demand handled", async () => {
    const { begin, finish } = await setup();
    const started = await begin(true);
    if (started.kind !== "started") throw new Error("expected a start");
    await finish(started.waveUrn, { kind: "failed" });
    expect(await begin(true)).toEqual({ kind: "started", waveUrn: `urn:wave:${caseId}.2`, sequence: 2 });
  });

  it("runs a requested wave once per request, and again for a request whose wave failed", async () => {
    const { actors, finish } = await setup();
    const request = (requestId: string) =>
      actors.invoke(WaveActor, caseId, "begin", { tenant, caseUrn, demandUrn, automatic: false, requestId });

    const failed = await request("urn:event:rerun-1");
    if (failed.kind !== "started") throw new Error("expected a start");
    await finish(failed.waveUrn, { kind: "failed" });
    const retried = await request("urn:event:rerun-1");
    if (retried.kind !== "started") throw new Error("expected a start after the failure");
    await finish(retried.waveUrn, { kind: "completed", completed: completed(retried.waveUrn) });

    expect(await request("urn:event:rerun-1")).toEqual({ kind: "handled", outcome: retried.waveUrn });
    expect((await request("urn:event:rerun-2")).kind).toBe("started");
  });

  it("ignores the finish of a wave that is no longer the running one", async () => {
    const { actors, clock, events, begin, finish } = await setup();
    const stale = await begin(true);
    if (stale.kind !== "started") throw new Error("expected a start");
    await clock.advance(WAVE_LEASE_MS);
    const current = await begin(true);
    await finish(stale.waveUrn, { kind: "completed", completed: completed(stale.waveUrn) });
    await settle();
    expect(events).toEqual([]);
    expect((await actors.invoke(WaveActor, caseId, "get"))?.running?.waveUrn).toBe(
      current.kind === "started" ? current.waveUrn : undefined,
    );
  });

  it("announces an override of one group", async () => {
    const { actors, events, begin } = await setup();
    await begin(false);
    await actors.invoke(WaveActor, caseId, "announceOverride", {
      waveUrn: `urn:wave:${caseId}.1`,
      caseUrn,
      groupId: "G1",
      allocation,
      correlationUrn,
    });
    await settle();
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        "allocation.group-overridden",
        { waveUrn: `urn:wave:${caseId}.1`, caseUrn, groupId: "G1", allocation },
      ],
    ]);
  });
});

describe("AllocationScheduleActor", () => {
  const scope = { tenant, airport: "ORD" };

  it("announces a batch every 15 minutes while armed, and stops once stood down", async () => {
    const { actors, clock, events } = await setup();
    const id = batchScheduleId(scope);
    await actors.invoke(AllocationScheduleActor, id, "arm", scope);
    await actors.invoke(AllocationScheduleActor, id, "arm", scope);
    await clock.advance(BATCH_INTERVAL_MS - 1);
    expect(events).toEqual([]);
    await clock.advance(1);
    await clock.advance(BATCH_INTERVAL_MS);
    const due = events.filter((e) => e.type === BATCH_DUE_EVENT);
    expect(due.map((e) => e.data)).toEqual([scope, scope]);
    expect(due[0]!.correlationUrn).toMatch(/^urn:trace:[0-9a-f]{32}$/);

    await actors.invoke(AllocationScheduleActor, id, "standDown");
    await clock.advance(3 * BATCH_INTERVAL_MS);
    expect(events.filter((e) => e.type === BATCH_DUE_EVENT)).toHaveLength(2);
  });
});
