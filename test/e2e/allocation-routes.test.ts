import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BATCH_DUE_EVENT } from "../../src/domain/events/allocation.js";
import { hotelSearchOf, simulatorsOf } from "../support/container.js";
import {
  ALLOCATIONS_COLLECTION,
  type AllocationRow,
  WAVES_COLLECTION,
} from "../../src/app/allocation/wave-documents.js";
import { type DomainEvent, topicFor } from "../../src/domain/domain-event.js";
import { allocationPlatform, enc, ZX } from "./allocation-fixture.js";
import { json } from "../support/responses.js";

/**
 * Allocation triggered by people: ORD runs a BATCH policy, so approved demand waits for the
 * schedule (or a supervisor) and no wave runs, nor any booking, behind the test's back.
 */
let p: Awaited<ReturnType<typeof allocationPlatform>>;
let supervisor: string;

beforeAll(async () => {
  p = await allocationPlatform();
  await p.activePolicy("ZX", "ORD", {
    constraints: { minStars: 3, maxDistanceKm: 25 },
    mode: "BATCH",
    autoApproveDemand: true,
    maxAutomaticRoomsPerWave: 300,
  });
  supervisor = await p.token("supervisor@zx.demo");
});
afterAll(async () => {
  await p?.t.close();
});

/** A case at ORD whose INITIAL demand was approved by the policy and now waits for the schedule. */
async function waitingCase(groups: string[][] = [["ECONOMY", "ECONOMY"], ["ECONOMY"], ["BUSINESS"]]) {
  const opened = await p.openCase("ORD", groups);
  const approved = await p.eventOf("demand.approved", opened.urn);
  return { ...opened, demandUrn: approved.data.demandUrn as string };
}

/**
 * Runs `run` while every put into the store's `name` collection goes through `put` (handed the
 * collection's own put), as a store that stalls or refuses them; puts go straight in afterwards.
 */
async function puttingThrough<D, R>(
  name: string,
  put: (doc: D, inner: (doc: D) => Promise<void>) => Promise<void>,
  run: () => Promise<R>,
): Promise<R> {
  const { documents } = p.t.platform.runtime;
  const { collection } = documents;
  documents.collection = ((collectionName: string) => {
    const inner = collection.call(documents, collectionName);
    if (collectionName !== name) return inner;
    return new Proxy(inner, {
      get(target, property) {
        if (property === "put") return (doc: D) => put(doc, (d) => target.put(d as never));
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }) as typeof documents.collection;
  try {
    return await run();
  } finally {
    documents.collection = collection;
  }
}

/** Runs `run` while the store refuses the puts into `name` for which `refuses` says so. */
function refusingPuts<R>(name: string, refuses: () => boolean, run: () => Promise<R>): Promise<R> {
  return puttingThrough<unknown, R>(
    name,
    (doc, put) => (refuses() ? Promise.reject(new Error("store refused the put")) : put(doc)),
    run,
  );
}

describe("BATCH policies", () => {
  it("runs no wave when demand is approved, and runs it when the airport's schedule comes due", async () => {
    const { urn, demandUrn } = await waitingCase();
    const due: DomainEvent = {
      id: "urn:event:batch-test",
      type: BATCH_DUE_EVENT,
      tenant: ZX,
      occurredAt: new Date().toISOString(),
      correlationUrn: "urn:trace:0123456789abcdef0123456789abcdef",
      data: { tenant: ZX, airport: "ORD" },
    };
    expect(p.events.some((e) => e.type === "allocation.wave-completed" && e.caseUrn === urn)).toBe(false);
    await p.t.platform.runtime.bus.publish(topicFor(due), due);
    const completed = await p.eventOf("allocation.wave-completed", urn);
    expect(completed.data).toMatchObject({ demandUrn, autoBook: true });
    const wave = await json(
      await p.t.call("GET", `/allocation/wave/${enc(completed.data.waveUrn)}`, supervisor),
      200,
    );
    expect(wave.trigger).toEqual({ kind: "batch", by: "urn:system:allocation" });
  });
});

describe("waves of several cases at one airport", () => {
  it("plan from one search answer, each seeing the rooms the earlier waves allocated", async () => {
    await json(await p.t.call("POST", "/hotels/cache/invalidate?airport=ORD", supervisor), 200);
    const first = await waitingCase([["ECONOMY"], ["ECONOMY"], ["ECONOMY"]]);
    const second = await waitingCase([["ECONOMY"]]);
    const waveOf = async (urn: string) =>
      (await json(await p.t.call("POST", `/v1/cases/${enc(urn)}/allocate`, supervisor), 200)).allocation.wave;
    const before = await waveOf(first.urn);
    const after = await waveOf(second.urn);
    expect(after.searchedAt).toBe(before.searchedAt);
    const roomsOf = (wave: any, hotelUrn: string, vendor: string) =>
      wave.hotels.find((h: any) => h.hotelUrn === hotelUrn).offers.find((o: any) => o.provider === vendor)
        .roomsAvailable as number;
    const taken = new Map<string, number>();
    for (const a of before.allocations) {
      const key = `${a.hotelUrn} ${a.vendor}`;
      taken.set(key, (taken.get(key) ?? 0) + a.rooms);
    }
    expect(taken.size).toBeGreaterThan(0);
    for (const [key, rooms] of taken) {
      const [hotelUrn, vendor] = key.split(" ") as [string, string];
      expect(roomsOf(after, hotelUrn, vendor), key).toBe(
        Math.max(0, roomsOf(before, hotelUrn, vendor) - rooms),
      );
    }
  });
});

describe("an airport's turn", () => {
  it("lets a second wave search while the first one's turn is held on recording its rows", async () => {
    const first = await waitingCase([["ECONOMY"]]);
    const second = await waitingCase([["ECONOMY"]]);
    const search = hotelSearchOf(p.t.platform);
    const { searchHotels } = search;
    let searches = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held!: () => void;
    const holding = new Promise<void>((resolve) => {
      held = resolve;
    });
    search.searchHotels = (query) => {
      searches++;
      return searchHotels.call(search, query);
    };
    const allocate = (urn: string) => p.t.call("POST", `/v1/cases/${enc(urn)}/allocate`, supervisor);
    const holdingRows = async (row: AllocationRow, put: (row: AllocationRow) => Promise<void>) => {
      held();
      await released;
      return put(row);
    };
    try {
      await puttingThrough(ALLOCATIONS_COLLECTION, holdingRows, async () => {
        const firstWave = allocate(first.urn);
        await holding;
        const before = searches;
        const secondWave = allocate(second.urn);
        await vi.waitFor(() => expect(searches).toBe(before + 1));
        release();
        await json(await firstWave, 200);
        await json(await secondWave, 200);
      });
    } finally {
      release();
      search.searchHotels = searchHotels;
    }
  });
});

describe("a wave whose document cannot be put", () => {
  it("fails, and puts the case's allocation rows back as they were: none at first, then the last kept wave's", async () => {
    const { urn } = await waitingCase([["ECONOMY"], ["ECONOMY"]]);
    const { documents } = p.t.platform.runtime;
    const rowsOfCase = async () =>
      (await documents.collection<AllocationRow>(ALLOCATIONS_COLLECTION).findAll({ caseUrn: urn })).sort(
        (a, b) => a._id.localeCompare(b._id),
      );
    const allocate = () => p.t.call("POST", "/v1/allocation/allocate", supervisor, { caseUrn: urn });
    /** A wave run while the wave documents' store refuses every put. */
    const allocateRefused = () => refusingPuts(WAVES_COLLECTION, () => true, allocate);

    expect((await allocateRefused()).status).toBe(500);
    expect(await rowsOfCase()).toEqual([]);

    const kept = await json(await allocate(), 201);
    const rows = await rowsOfCase();
    expect(rows.map((r) => r.waveUrn)).toEqual([kept.wave.urn, kept.wave.urn]);
    expect((await allocateRefused()).status).toBe(500);
    expect(await rowsOfCase()).toEqual(rows);
  });
});

describe("a wave one of whose rows cannot be put", () => {
  it("fails, and leaves neither its document nor its rows: the case's are as the last kept wave left them", async () => {
    const { urn } = await waitingCase([["ECONOMY"], ["ECONOMY"]]);
    const { documents } = p.t.platform.runtime;
    const ofCase = async (name: string) =>
      (await documents.collection(name).findAll({ caseUrn: urn })).sort((a, b) => a._id.localeCompare(b._id));
    const allocate = () => p.t.call("POST", "/v1/allocation/allocate", supervisor, { caseUrn: urn });
    /** A wave run while the store refuses the put of its second allocation row, and only that one. */
    const allocateRefused = () => {
      let puts = 0;
      return refusingPuts(ALLOCATIONS_COLLECTION, () => ++puts === 2, allocate);
    };

    expect((await allocateRefused()).status).toBe(500);
    expect(await ofCase(ALLOCATIONS_COLLECTION)).toEqual([]);
    expect(await ofCase(WAVES_COLLECTION)).toEqual([]);

    const kept = await json(await allocate(), 201);
    const rows = await ofCase(ALLOCATIONS_COLLECTION);
    expect(rows.map((r: any) => r.waveUrn)).toEqual([kept.wave.urn, kept.wave.urn]);
    expect((await allocateRefused()).status).toBe(500);
    expect(await ofCase(ALLOCATIONS_COLLECTION)).toEqual(rows);
    expect((await ofCase(WAVES_COLLECTION)).map((w) => w._id)).toEqual([kept.wave.urn]);
  });
});

describe("POST /v1/cases/{urn}/allocate and POST /v1/allocation/allocate", () => {
  it("runs a wave for the case's approved demand, without booking it", async () => {
    const { urn, demandUrn, groupIds } = await waitingCase();
    const answer = await json(await p.t.call("POST", `/v1/cases/${enc(urn)}/allocate`, supervisor), 200);
    expect(answer).toMatchObject({ caseUrn: urn, partialFailures: [] });
    expect(answer.allocation).toMatchObject({ outcome: "WAVE_COMPLETED", caseUrn: urn });
    expect(answer.allocation.wave).toMatchObject({
      demandUrn,
      autoBook: false,
      trigger: { kind: "manual", by: expect.stringMatching(/^urn:user:/) },
    });
    expect(answer.allocation.wave.allocations.map((a: any) => a.groupId).sort()).toEqual(
      [...groupIds].sort(),
    );

    const byDemand = await json(
      await p.t.call("POST", "/v1/allocation/allocate", supervisor, { demandUrn }),
      201,
    );
    expect(byDemand).toMatchObject({ outcome: "WAVE_COMPLETED", caseUrn: urn });
    expect(byDemand.wave.sequence).toBe(2);
    const byCase = await json(
      await p.t.call("POST", "/v1/allocation/allocate", supervisor, { caseUrn: urn }),
      201,
    );
    expect(byCase.wave.sequence).toBe(3);
  });

  it("names the vendors that did not answer in partialFailures, and allocates with the others", async () => {
    const { urn } = await waitingCase([["ECONOMY"]]);
    const vendorB = simulatorsOf(p.t.platform).byId["vendor-b"];
    await json(await p.t.call("POST", "/hotels/cache/invalidate?airport=ORD", supervisor), 200);
    vendorB.configureFaults({ latency: { fixedMs: 2_500, jitterMs: 0 } });
    try {
      const answer = await json(await p.t.call("POST", `/v1/cases/${enc(urn)}/allocate`, supervisor), 200);
      expect(answer.partialFailures).toEqual([{ domain: "inventory:vendor-b", reason: "timeout" }]);
      expect(answer.allocation.wave.vendorsAnswered).toEqual(["vendor-a", "vendor-c"]);
      expect(answer.allocation.wave.allocations).toHaveLength(1);
    } finally {
      vendorB.configureFaults({ latency: { fixedMs: 0, jitterMs: 0 } });
    }
  });

  it("refuses the wrong role, another airline, an unknown or closed case and a case without approved demand", async () => {
    const { urn } = await waitingCase([["ECONOMY"]]);
    const allocateCase = (caseUrn: string, who: string) =>
      p.token(who).then((bearer) => p.t.call("POST", `/v1/cases/${enc(caseUrn)}/allocate`, bearer));
    await json(await allocateCase(urn, "operator@zx.demo"), 403);
    await json(await allocateCase(urn, "supervisor@vq.demo"), 403);
    await json(
      await allocateCase("urn:case:00000000-0000-0000-0000-000000000000", "supervisor@zx.demo"),
      404,
    );
    await json(await allocateCase("urn:demand:x.1", "supervisor@zx.demo"), 400);

    await json(await p.t.call("POST", `/v1/cases/${enc(urn)}/close`, supervisor, { reason: "test" }), 200);
    const closed = await json(await allocateCase(urn, "supervisor@zx.demo"), 409);
    expect(closed.type).toMatch(/case-closed$/);

    await p.activePolicy("ZX", "JFK", { mode: "ON_DEMAND", autoApproveDemand: false });
    const { urn: pending } = await p.openCase("JFK", [["ECONOMY"]]);
    await p.eventOf("demand.requested", pending);
    const unapproved = await json(await allocateCase(pending, "supervisor@zx.demo"), 409);
    expect(unapproved.type).toMatch(/no-approved-demand$/);
  });

  it.each([
    ["no case or demand", {}],
    ["both a case and a demand", { caseUrn: "urn:case:a", demandUrn: "urn:demand:a.1" }],
    ["a case URN of the wrong kind", { caseUrn: "urn:wave:a.1" }],
    ["an unknown field", { caseUrn: "urn:case:a", priority: 1 }],
  ])("refuses a body with %s", async (_, body) => {
    await json(await p.t.call("POST", "/v1/allocation/allocate", supervisor, body), 400);
  });

  it("refuses unknown demand, another airline's case and non-supervisors", async () => {
    const { urn, demandUrn } = await waitingCase([["ECONOMY"]]);
    await json(
      await p.t.call("POST", "/v1/allocation/allocate", supervisor, { demandUrn: `${demandUrn}9` }),
      404,
    );
    await json(
      await p.t.call("POST", "/v1/allocation/allocate", supervisor, { demandUrn: "urn:demand:nope" }),
      404,
    );
    await json(
      await p.t.call("POST", "/v1/allocation/allocate", supervisor, {
        caseUrn: "urn:case:00000000-0000-0000-0000-000000000000",
      }),
      404,
    );
    await json(
      await p.t.call("POST", "/v1/allocation/allocate", await p.token("supervisor@vq.demo"), {
        caseUrn: urn,
      }),
      403,
    );
    await json(
      await p.t.call("POST", "/v1/allocation/allocate", await p.token("operator@zx.demo"), { caseUrn: urn }),
      403,
    );
  });
});

describe("overriding one group of a wave", () => {
  let wave: any;
  let caseUrn: string;

  beforeAll(async () => {
    const opened = await waitingCase([["ECONOMY", "ECONOMY"], ["ECONOMY"], ["BUSINESS"], ["CREW"]]);
    caseUrn = opened.urn;
    wave = (await json(await p.t.call("POST", "/v1/allocation/allocate", supervisor, { caseUrn }), 201)).wave;
  });

  it("moves that group alone, audits it with before/after, and announces it for booking", async () => {
    const [moved, ...others] = wave.allocations;
    const target = wave.hotels.find(
      (h: any) =>
        h.hotelUrn !== moved.hotelUrn &&
        h.offers.some((o: any) => o.convertedNightlyRate && o.roomsAvailable >= moved.rooms + 10),
    );
    const after = await json(
      await p.t.call("POST", `/allocation/wave/${enc(wave.urn)}/override`, supervisor, {
        groupId: moved.groupId,
        hotelUrn: target.hotelUrn,
        reason: "passenger needs a quieter hotel",
      }),
      200,
    );
    const allocation = after.allocations.find((a: any) => a.groupId === moved.groupId);
    expect(allocation).toMatchObject({
      hotelUrn: target.hotelUrn,
      rooms: moved.rooms,
      nights: moved.nights,
      override: { reason: "passenger needs a quieter hotel", by: expect.stringMatching(/^urn:user:/) },
    });
    expect(after.allocations.filter((a: any) => a.groupId !== moved.groupId)).toEqual(others);
    expect(after.rankingInputs).toEqual(wave.rankingInputs);
    const total = after.allocations.reduce((sum: number, a: any) => sum + a.cost.amountMinor, 0);
    expect(after.totalCost.amountMinor).toBe(total);
    expect(after.overrides).toEqual([
      expect.objectContaining({ groupId: moved.groupId, before: moved, after: allocation }),
    ]);

    const announced = await p.eventOf("allocation.group-overridden", caseUrn);
    expect(announced.data).toEqual({ waveUrn: wave.urn, caseUrn, groupId: moved.groupId, allocation });

    const trail = await json(
      await p.t.call("GET", `/v1/audit/entity/${enc(wave.urn)}`, await p.token("finance@zx.demo")),
      200,
    );
    const entry = trail.items.find((e: any) => e.action === "allocation.override");
    expect(entry).toMatchObject({
      caseUrn,
      reason: "passenger needs a quieter hotel",
      before: moved,
      after: allocation,
    });

    const read = await json(await p.t.call("GET", `/v1/allocation/wave/${enc(wave.urn)}`, supervisor), 200);
    expect(read.allocations).toEqual(after.allocations);
    const hotels = await json(await p.t.call("GET", `/v1/hotels/cases/${enc(caseUrn)}`, supervisor), 200);
    expect(hotels.hotels.some((h: any) => h.hotelUrn === target.hotelUrn)).toBe(true);
  });

  it("records the policy gates a supervisor overrode", async () => {
    const group = wave.allocations[1];
    const gated = wave.rankingInputs.find(
      (r: any) =>
        r.groupIds === null &&
        r.reasons.includes("too-far") &&
        wave.hotels
          .find((h: any) => h.hotelUrn === r.hotelUrn)
          .offers.some(
            (o: any) => o.providerOfferId === r.providerOfferId && o.roomsAvailable >= group.rooms + 10,
          ),
    );
    const after = await json(
      await p.t.call("POST", `/v1/allocation/wave/${enc(wave.urn)}/override`, supervisor, {
        groupId: group.groupId,
        hotelUrn: gated.hotelUrn,
        reason: "only hotel with a cot",
      }),
      200,
    );
    const allocation = after.allocations.find((a: any) => a.groupId === group.groupId);
    expect(allocation.override.gatesOverridden).toContain("too-far");
  });

  it("refuses a group or hotel the wave does not have, the hotel the group is at, and a stale wave", async () => {
    const read = await json(await p.t.call("GET", `/allocation/wave/${enc(wave.urn)}`, supervisor), 200);
    const group = read.allocations[2];
    const override = (body: Record<string, unknown>) =>
      p.t.call("POST", `/allocation/wave/${enc(wave.urn)}/override`, supervisor, { reason: "test", ...body });
    const unknownGroup = await json(await override({ groupId: "NOPE", hotelUrn: group.hotelUrn }), 422);
    expect(unknownGroup.type).toMatch(/group-not-in-wave$/);
    const unknownHotel = await json(
      await override({ groupId: group.groupId, hotelUrn: "urn:hotel:GP0000000" }),
      422,
    );
    expect(unknownHotel.type).toMatch(/hotel-not-in-wave$/);
    const same = await json(await override({ groupId: group.groupId, hotelUrn: group.hotelUrn }), 409);
    expect(same.type).toMatch(/already-at-hotel$/);
  });

  it("refuses the wrong role, another airline, unknown waves and bad bodies", async () => {
    const group = wave.allocations[2];
    const body = { groupId: group.groupId, hotelUrn: group.hotelUrn, reason: "x" };
    const path = `/allocation/wave/${enc(wave.urn)}/override`;
    await json(await p.t.call("POST", path, await p.token("operator@zx.demo"), body), 403);
    await json(await p.t.call("POST", path, await p.token("supervisor@vq.demo"), body), 403);
    await json(
      await p.t.call(
        "POST",
        `/allocation/wave/${enc(wave.urn.replace(/\.\d+$/, ".77"))}/override`,
        supervisor,
        body,
      ),
      404,
    );
    await json(
      await p.t.call("POST", `/allocation/wave/${enc("urn:case:x")}/override`, supervisor, body),
      400,
    );
    for (const bad of [
      { ...body, reason: "" },
      { groupId: group.groupId, hotelUrn: group.hotelUrn },
      { ...body, hotelUrn: "hotel-1" },
    ]) {
      await json(await p.t.call("POST", path, supervisor, bad), 400);
    }
  });
});

describe("rerunning a wave", () => {
  it("runs the case again as a new wave that names the one it reruns", async () => {
    const { urn } = await waitingCase([["ECONOMY"]]);
    const first = (
      await json(await p.t.call("POST", "/v1/allocation/allocate", supervisor, { caseUrn: urn }), 201)
    ).wave;
    const rerun = await json(
      await p.t.call("POST", `/allocation/wave/${enc(first.urn)}/rerun`, supervisor),
      201,
    );
    expect(rerun.wave).toMatchObject({
      caseUrn: urn,
      sequence: first.sequence + 1,
      demandUrn: first.demandUrn,
      trigger: { kind: "rerun", rerunOf: first.urn },
    });
    const v1 = await json(
      await p.t.call("POST", `/v1/allocation/wave/${enc(rerun.waveUrn)}/rerun`, supervisor, {
        reason: "vendors back",
      }),
      201,
    );
    expect(v1.wave.sequence).toBe(first.sequence + 2);
    const latest = await json(await p.t.call("GET", `/v1/hotels/cases/${enc(urn)}`, supervisor), 200);
    expect(latest.waveUrn).toBe(v1.waveUrn);
  });

  it("refuses the wrong role, another airline and unknown waves", async () => {
    const { urn } = await waitingCase([["ECONOMY"]]);
    const wave = (
      await json(await p.t.call("POST", "/v1/allocation/allocate", supervisor, { caseUrn: urn }), 201)
    ).wave;
    const path = `/allocation/wave/${enc(wave.urn)}/rerun`;
    await json(await p.t.call("POST", path, await p.token("operator@zx.demo")), 403);
    await json(await p.t.call("POST", path, await p.token("supervisor@vq.demo")), 403);
    await json(await p.t.call("POST", `/allocation/wave/${enc("urn:wave:zzz.4")}/rerun`, supervisor), 404);
    await json(await p.t.call("POST", path, supervisor, { reason: "" }), 400);
  });
});
