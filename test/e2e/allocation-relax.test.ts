import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WaveActor } from "../../actors/WaveActor.js";
import { simulatorsOf } from "../support/container.js";
import { reviewItemUrnForRequest } from "../../src/app/manual-review/review-item-addresses.js";
import { caseRefOf } from "../../src/app/cases/case-changes.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { allocationPlatform, enc, ZX } from "./allocation-fixture.js";
import { json } from "../support/responses.js";

/**
 * Manual review's `relax` reaches the allocation: a case whose groups no hotel near enough could
 * take is relaxed on maxDistanceKm, its wave runs again under the relaxed policy, and booking books
 * what the new wave allocated. Over HTTP, on the whole platform.
 */
let p: Awaited<ReturnType<typeof allocationPlatform>>;
/** Closer than every hotel of the ORD catalog: no group can be housed under it. */
let tooClose: number;

beforeAll(async () => {
  p = await allocationPlatform();
  const nearest = Math.min(
    ...simulatorsOf(p.t.platform)
      .catalog.atAirport("ORD")
      .map((h) => h.distanceKm),
  );
  tooClose = nearest / 2;
  await p.activePolicy("ZX", "ORD", {
    constraints: { minStars: 3, maxDistanceKm: tooClose },
    mode: "ON_DEMAND",
    autoApproveDemand: true,
    maxAutomaticRoomsPerWave: 300,
  });
});
afterAll(async () => {
  await p?.t.close();
});

const reservationsOf = async (caseUrn: string) =>
  (
    await json(
      await p.t.call(
        "GET",
        `/v1/booking/cases/${enc(caseUrn)}/reservations?limit=50`,
        await p.token("supervisor@zx.demo"),
      ),
      200,
    )
  ).items as { groupId: string; status: string; urn: string; hotel: { hotelUrn: string } }[];

const waveLedger = (caseUrn: string) =>
  p.t.platform.runtime.actors.invoke(WaveActor, caseRefOf(caseUrn).id, "get");

describe("relax (POST /manual-review/{urn}/relax) reruns the case's wave", () => {
  let caseUrn: string;
  let groupIds: string[];
  let firstWave: string;
  let itemUrn: string;
  let rerun: any;

  beforeAll(async () => {
    ({ urn: caseUrn, groupIds } = await p.openCase("ORD", [["ECONOMY", "ECONOMY"], ["ECONOMY"]]));
    const completed = await p.eventOf("allocation.wave-completed", caseUrn);
    firstWave = completed.data.waveUrn;
    const requested = await p.eventOf("review-item.requested", caseUrn);
    itemUrn = reviewItemUrnForRequest(requested.id);
    await vi.waitFor(
      async () => {
        const response = await p.t.call(
          "GET",
          `/v1/booking/manual-review/${enc(itemUrn)}`,
          await p.token("supervisor@zx.demo"),
        );
        expect(response.status).toBe(200);
      },
      { timeout: 15_000, interval: 20 },
    );
  });

  it("leaves every group unallocated at first: every hotel is too far", async () => {
    const wave = await p.waveRecord(firstWave, "supervisor@zx.demo");
    expect(wave.allocations).toEqual([]);
    expect(wave.unallocated.map((u: any) => u.groupId).sort()).toEqual([...groupIds].sort());
    expect(wave.rankingInputs.some((r: any) => r.reasons.includes("too-far"))).toBe(true);
    expect(wave.policyOverride).toBeUndefined();
    expect(await reservationsOf(caseUrn)).toEqual([]);
  });

  it("runs a new wave under the relaxed policy, records the override in it, and books every group", async () => {
    await json(
      await p.t.call("POST", `/manual-review/${enc(itemUrn)}/relax`, await p.token("supervisor@zx.demo"), {
        fields: { maxDistanceKm: 25 },
        reason: "nothing within walking distance tonight",
      }),
      202,
    );
    const completed = await p.eventOf(
      "allocation.wave-completed",
      caseUrn,
      (e) => e.data.waveUrn !== firstWave,
    );
    expect(completed.data.autoBook).toBe(true);
    rerun = await p.waveRecord(completed.data.waveUrn, "supervisor@zx.demo");
    expect(rerun).toMatchObject({
      caseUrn,
      autoBook: true,
      trigger: { kind: "rerun", by: "urn:system:allocation", rerunOf: firstWave, reviewItemUrn: itemUrn },
      policyOverride: {
        fields: { maxDistanceKm: 25 },
        by: "urn:user:zx-supervisor",
        reason: "nothing within walking distance tonight",
      },
      unallocated: [],
    });
    expect(rerun.allocations.map((a: any) => a.groupId).sort()).toEqual([...groupIds].sort());
    for (const allocation of rerun.allocations) {
      const hotel = rerun.hotels.find((h: any) => h.hotelUrn === allocation.hotelUrn);
      expect(hotel.distanceKm).toBeGreaterThan(tooClose);
      expect(hotel.distanceKm).toBeLessThanOrEqual(25);
    }

    await vi.waitFor(
      async () => {
        const reservations = await reservationsOf(caseUrn);
        expect(
          reservations
            .filter((r) => r.status === "CONFIRMED")
            .map((r) => r.groupId)
            .sort(),
        ).toEqual([...groupIds].sort());
      },
      { timeout: 15_000, interval: 50 },
    );
    const reservations = await reservationsOf(caseUrn);
    for (const reservation of reservations) {
      const allocation = rerun.allocations.find((a: any) => a.groupId === reservation.groupId);
      expect(reservation.hotel.hotelUrn).toBe(allocation.hotelUrn);
    }
  });

  it("runs once per request, however often the request is delivered", async () => {
    const request = p.events.find((e) => e.type === "allocation.rerun-requested" && e.caseUrn === caseUrn)!;
    const before = await waveLedger(caseUrn);
    expect(before?.handledRequests?.[request.id]).toBe(rerun.urn);
    // The embedded bus resolves a publish once every subscriber has settled the event.
    await p.t.platform.runtime.bus.publish(topicFor({ tenant: ZX }), request);
    const after = await waveLedger(caseUrn);
    expect(after?.sequence).toBe(before?.sequence);
    expect(after?.latestWaveUrn).toBe(rerun.urn);
  });

  it("leaves the booked groups as they are when the policy is relaxed again", async () => {
    const booked = await reservationsOf(caseUrn);
    const sequence = (await waveLedger(caseUrn))?.sequence ?? 0;
    await json(
      await p.t.call("POST", `/manual-review/${enc(itemUrn)}/relax`, await p.token("supervisor@zx.demo"), {
        fields: { minStars: 2 },
        reason: "more hotels for later groups",
      }),
      202,
    );
    // The rerun starts and finds no group without a confirmed reservation: no wave is written.
    await vi.waitFor(
      async () => {
        const ledger = await waveLedger(caseUrn);
        expect(ledger?.sequence).toBe(sequence + 1);
        expect(ledger?.running).toBeUndefined();
      },
      { timeout: 15_000, interval: 20 },
    );
    expect((await waveLedger(caseUrn))?.latestWaveUrn).toBe(rerun.urn);
    expect(await reservationsOf(caseUrn)).toEqual(booked);
  });
});
