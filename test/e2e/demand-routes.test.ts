import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import { caseIdOf } from "../../src/domain/demand-addresses.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { expectBodyFieldError, json } from "../support/responses.js";
import { recordEvents } from "../support/event-recorder.js";

let t: TestPlatform;
const tokens: Record<string, string> = {};
const token = async (who: string) => {
  tokens[who] ??= await t.operatorToken(who);
  return tokens[who]!;
};
const approvals: DomainEvent[] = [];

interface Demand {
  urn: string;
  caseUrn: string;
  state: string;
  decisions: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

const enc = encodeURIComponent;

let cases = 0;
const groupsOf = new Map<string, string[]>();
/**
 * Opens a case over HTTP: three economy passengers in two groups; the second group's lead has no
 * contact, so the case raises a DATA_INCOMPLETE review item for it.
 */
async function openCase(origin = "JFK", who = "supervisor@zx.demo"): Promise<string> {
  const n = ++cases;
  const body = await json<{ urn?: string; caseUrn?: string }>(
    await t.call("POST", "/v1/cases", await token(who), {
      externalEventId: `demand-e2e-${n}`,
      flight: {
        number: `ZX${100 + n}`,
        origin,
        destination: "LHR",
        scheduledDeparture: "2026-12-01T22:00:00Z",
        status: "CANCELLED",
      },
      passengerGroups: [
        {
          id: `G${n}A`,
          passengers: [
            { id: `p${n}a1`, lastName: "Rivera", tier: "ECONOMY", contact: { email: "rivera@example.com" } },
            { id: `p${n}a2`, lastName: "Rivera", tier: "ECONOMY" },
          ],
        },
        { id: `G${n}B`, passengers: [{ id: `p${n}b1`, lastName: "Okafor", tier: "ECONOMY" }] },
      ],
    }),
    201,
  );
  const urn = (body.urn ?? body.caseUrn)!;
  groupsOf.set(urn, [`G${n}A`, `G${n}B`]);
  return urn;
}

async function requestDemand(
  caseUrn: string,
  type: string,
  roomsRequested: number,
  who = "operator@zx.demo",
) {
  return t.call("POST", `/v1/demand/case/${enc(caseUrn)}`, await token(who), { type, roomsRequested });
}

let policyUrn: string;

beforeAll(async () => {
  // These tests start from no policy and ask for demand themselves.
  t = await startTestPlatform({ env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
  recordEvents(
    t.platform.runtime.bus,
    {
      name: "test-demand-approved",
      topic: topicFor({ tenant: "urn:airline:ZX" }),
      types: ["demand.approved"],
    },
    approvals,
  );
  const policy = await json<{ urn: string }>(
    await t.call("POST", "/v1/policies", await token("supervisor@zx.demo"), {
      name: "JFK economy",
      context: { airport: "JFK", airline: "ZX" },
      tiers: ["ECONOMY"],
      autoApproveDemand: true,
      maxAutomaticRoomsPerWave: 10,
      incrementalRequiresApproval: true,
    }),
    201,
  );
  policyUrn = policy.urn;
  await json(
    await t.call("POST", `/v1/policies/${enc(policyUrn)}/activate`, await token("admin@zx.demo")),
    200,
  );
});
afterAll(async () => {
  await t?.close();
});

describe("demand over HTTP (spec 2.3, 3.1)", () => {
  it("approves INITIAL demand within the policy's limit at once and emits demand.approved", async () => {
    const caseUrn = await openCase();
    const demand = await json(await requestDemand(caseUrn, "INITIAL", 10), 201);
    expect(demand).toMatchObject({
      urn: expect.stringMatching(/^urn:demand:.+\.1$/),
      caseUrn,
      type: "INITIAL",
      roomsRequested: 10,
      state: "APPROVED",
      policyUrn,
      policyVersion: 1,
      decisions: [{ action: "auto-approve", by: policyUrn, policyVersion: 1 }],
    });
    await expect
      .poll(() => approvals.find((e) => (e.data as { demandUrn: string }).demandUrn === demand.urn))
      .toMatchObject({
        type: "demand.approved",
        caseUrn,
        data: { demandUrn: demand.urn, caseUrn, roomsRequested: 10, policyUrn, policyVersion: 1 },
      });
  });

  it("queues what the policy does not approve, and a supervisor approves or rejects it with a reason", async () => {
    const caseUrn = await openCase();
    await json(await requestDemand(caseUrn, "INITIAL", 3, "operator.jfk@zx.demo"), 201);
    const incremental = await json(await requestDemand(caseUrn, "INCREMENTAL", 2), 201);
    expect(incremental.state).toBe("REQUESTED");

    const bigCase = await openCase();
    const big = await json(
      await t.call("POST", `/demand/case/${enc(bigCase)}`, await token("operator@zx.demo"), {
        type: "INITIAL",
        roomsRequested: 11,
      }),
      201,
    );
    expect(big.state).toBe("REQUESTED");

    const pending = await json<{ items: Demand[]; hasMore: boolean }>(
      await t.call("GET", "/v1/demand/pending/approvals?limit=200", await token("supervisor@zx.demo")),
      200,
    );
    expect(pending.items.map((d) => d.urn)).toEqual(expect.arrayContaining([incremental.urn, big.urn]));
    expect(pending.items.every((d) => d.state === "REQUESTED")).toBe(true);

    const approved = await json(
      await t.call("POST", `/v1/demand/${enc(incremental.urn)}/approve`, await token("supervisor@zx.demo"), {
        reason: "late arrivals from the connecting flight",
      }),
      200,
    );
    expect(approved).toMatchObject({
      state: "APPROVED",
      decisions: [
        {
          action: "approve",
          by: "urn:user:zx-supervisor",
          reason: "late arrivals from the connecting flight",
          policyVersion: 1,
          at: expect.any(String),
        },
      ],
    });
    const rejected = await json(
      await t.call("POST", `/demand/${enc(big.urn)}/reject`, await token("admin@zx.demo"), {
        reason: "hotel capacity frozen",
      }),
      200,
    );
    expect(rejected).toMatchObject({
      state: "REJECTED",
      decisions: [{ action: "reject", reason: "hotel capacity frozen" }],
    });

    const again = await t.call(
      "POST",
      `/v1/demand/${enc(big.urn)}/approve`,
      await token("supervisor@zx.demo"),
      {
        reason: "changed my mind",
      },
    );
    expect(again.status).toBe(409);

    const after = await json<{ items: Demand[] }>(
      await t.call("GET", "/v1/demand/pending/approvals?limit=200", await token("supervisor@zx.demo")),
      200,
    );
    expect(after.items.map((d) => d.urn)).not.toContain(incremental.urn);
    expect(after.items.map((d) => d.urn)).not.toContain(big.urn);

    const trail = await json<{ items: Array<Record<string, any>> }>(
      await t.call("GET", `/v1/audit/entity/${enc(incremental.urn)}`, await token("finance@zx.demo")),
      200,
    );
    expect(trail.items.find((e) => e.action === "demand.approve")).toMatchObject({
      actorUrn: "urn:user:zx-supervisor",
      reason: "late arrivals from the connecting flight",
      caseUrn,
      before: { state: "REQUESTED" },
      after: { state: "APPROVED", policyVersion: 1 },
    });

    const summary = await json<Record<string, unknown>>(
      await t.call("GET", `/demand/case/${enc(caseUrn)}/summary`, await token("operator@zx.demo")),
      200,
    );
    // Approval starts allocation and booking at once (spec 3.1), so rooms may already be booked.
    expect(summary).toMatchObject({ caseUrn, totalRequested: 5, totalApproved: 5 });
    expect(summary.shortfall).toBe(5 - (summary.totalBooked as number));
    const v1Summary = await json<Record<string, unknown>>(
      await t.call("GET", `/v1/demand/case/${enc(caseUrn)}/summary`, await token("operator.jfk@zx.demo")),
      200,
    );
    expect(v1Summary).toEqual(summary);
  });

  it("explains an approved INCREMENTAL room on a case whose groups are all housed (spec 2.3, 3.1)", async () => {
    const caseUrn = await openCase();
    await json(await requestDemand(caseUrn, "INITIAL", 2), 201);
    // Both groups hold a confirmed reservation, recorded as booking records one.
    for (const groupId of groupsOf.get(caseUrn)!) {
      await t.platform.runtime.actors.invoke(CaseActor, caseIdOf(caseUrn)!, "recordReservationStatus", {
        reservationUrn: `urn:reservation:${groupId}`,
        groupId,
        status: "CONFIRMED",
        correlationUrn: "urn:trace:housed",
      });
    }
    const incremental = await json<Demand>(await requestDemand(caseUrn, "INCREMENTAL", 1), 201);
    await json(
      await t.call("POST", `/v1/demand/${enc(incremental.urn)}/approve`, await token("supervisor@zx.demo"), {
        reason: "one more room asked for at the desk",
      }),
      200,
    );
    const summary = await json<Record<string, unknown>>(
      await t.call("GET", `/v1/demand/case/${enc(caseUrn)}/summary`, await token("operator@zx.demo")),
      200,
    );
    expect(summary).toMatchObject({
      totalApproved: 3,
      totalBooked: 2,
      shortfall: 1,
      shortfallReasons: [{ category: "ALL_GROUPS_HOUSED", groups: [], rooms: 1 }],
    });
  });

  it("leaves demand REQUESTED where no policy applies", async () => {
    const caseUrn = await openCase("BOS");
    const demand = await json(await requestDemand(caseUrn, "INITIAL", 1), 201);
    expect(demand.state).toBe("REQUESTED");
    expect(demand).not.toHaveProperty("policyUrn");
  });

  it("keeps one INITIAL demand per case and INCREMENTAL on top of an approved baseline", async () => {
    const caseUrn = await openCase();
    expect((await requestDemand(caseUrn, "INCREMENTAL", 1)).status).toBe(409);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => requestDemand(caseUrn, "INITIAL", 2)),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });

  it("refuses demand on a closed case", async () => {
    const caseUrn = await openCase();
    const closed = await t.call("POST", `/v1/cases/${enc(caseUrn)}/close`, await token("operator@zx.demo"), {
      reason: "everyone rebooked",
    });
    expect(closed.status).toBe(200);
    expect((await requestDemand(caseUrn, "INITIAL", 1)).status).toBe(409);
  });
});

describe("demand route refusals", () => {
  it("refuses the wrong role on every route", async () => {
    const caseUrn = await openCase();
    const demand = await json(await requestDemand(caseUrn, "INITIAL", 30), 201);
    const cases: [string, string, string, unknown?][] = [
      ["finance@zx.demo", "POST", `/v1/demand/case/${enc(caseUrn)}`, { type: "INITIAL", roomsRequested: 1 }],
      ["finance@zx.demo", "POST", `/demand/case/${enc(caseUrn)}`, { type: "INITIAL", roomsRequested: 1 }],
      ["operator@zx.demo", "POST", `/v1/demand/${enc(demand.urn)}/approve`, { reason: "x" }],
      ["operator@zx.demo", "POST", `/demand/${enc(demand.urn)}/approve`, { reason: "x" }],
      ["operator@zx.demo", "POST", `/v1/demand/${enc(demand.urn)}/reject`, { reason: "x" }],
      ["operator@zx.demo", "POST", `/demand/${enc(demand.urn)}/reject`, { reason: "x" }],
      ["operator@zx.demo", "GET", "/v1/demand/pending/approvals"],
      ["finance@zx.demo", "GET", `/demand/case/${enc(caseUrn)}/summary`],
      ["finance@zx.demo", "GET", `/v1/demand/case/${enc(caseUrn)}/summary`],
    ];
    for (const [who, method, path, body] of cases) {
      expect((await t.call(method, path, await token(who), body)).status, `${who} ${method} ${path}`).toBe(
        403,
      );
    }
    expect(
      (await t.call("GET", "/v1/demand/pending/approvals", await t.partnerToken("skyhub-zx"))).status,
    ).toBe(401);
  });

  it("refuses another airline's cases and demand, and an airport-scoped operator another airport's", async () => {
    const caseUrn = await openCase();
    const demand = await json(await requestDemand(caseUrn, "INITIAL", 30), 201);
    const cases: [string, string, string, unknown?][] = [
      [
        "operator@vq.demo",
        "POST",
        `/v1/demand/case/${enc(caseUrn)}`,
        { type: "INCREMENTAL", roomsRequested: 1 },
      ],
      [
        "operator@vq.demo",
        "POST",
        `/demand/case/${enc(caseUrn)}`,
        { type: "INCREMENTAL", roomsRequested: 1 },
      ],
      ["supervisor@vq.demo", "POST", `/v1/demand/${enc(demand.urn)}/approve`, { reason: "x" }],
      ["supervisor@vq.demo", "POST", `/demand/${enc(demand.urn)}/reject`, { reason: "x" }],
      ["operator@vq.demo", "GET", `/demand/case/${enc(caseUrn)}/summary`],
    ];
    for (const [who, method, path, body] of cases) {
      expect((await t.call(method, path, await token(who), body)).status, `${who} ${method} ${path}`).toBe(
        403,
      );
    }
    const vqPending = await json<{ items: Demand[] }>(
      await t.call("GET", "/v1/demand/pending/approvals?limit=200", await token("supervisor@vq.demo")),
      200,
    );
    expect(vqPending.items.map((d) => d.urn)).not.toContain(demand.urn);

    const bosCase = await openCase("BOS");
    expect((await requestDemand(bosCase, "INITIAL", 1, "operator.jfk@zx.demo")).status).toBe(403);
    const bosSummary = await t.call(
      "GET",
      `/v1/demand/case/${enc(bosCase)}/summary`,
      await token("operator.jfk@zx.demo"),
    );
    expect(bosSummary.status).toBe(403);
  });

  it("answers 404 for unknown cases and demand, 400 for URNs of another kind", async () => {
    const unknownCase = "urn:case:00000000-0000-0000-0000-000000000000";
    const unknownDemand = `urn:demand:00000000-0000-0000-0000-000000000000.1`;
    const caseUrn = await openCase();
    const checks: [string, string, string, unknown, number][] = [
      [
        "operator@zx.demo",
        "POST",
        `/v1/demand/case/${enc(unknownCase)}`,
        { type: "INITIAL", roomsRequested: 1 },
        404,
      ],
      [
        "operator@zx.demo",
        "POST",
        `/demand/case/${enc(unknownCase)}`,
        { type: "INITIAL", roomsRequested: 1 },
        404,
      ],
      ["supervisor@zx.demo", "POST", `/v1/demand/${enc(unknownDemand)}/approve`, { reason: "x" }, 404],
      ["supervisor@zx.demo", "POST", `/demand/${enc(unknownDemand)}/reject`, { reason: "x" }, 404],
      [
        "supervisor@zx.demo",
        "POST",
        `/v1/demand/${enc(`urn:demand:${caseUrn.split(":")[2]}.7`)}/approve`,
        { reason: "x" },
        404,
      ],
      [
        "supervisor@zx.demo",
        "POST",
        `/v1/demand/${enc("urn:demand:no-number")}/approve`,
        { reason: "x" },
        404,
      ],
      ["operator@zx.demo", "GET", `/demand/case/${enc(unknownCase)}/summary`, undefined, 404],
      [
        "operator@zx.demo",
        "POST",
        `/v1/demand/case/${enc("urn:policy:x")}`,
        { type: "INITIAL", roomsRequested: 1 },
        400,
      ],
      ["supervisor@zx.demo", "POST", `/v1/demand/${enc(caseUrn)}/approve`, { reason: "x" }, 400],
    ];
    for (const [who, method, path, body, status] of checks) {
      expect((await t.call(method, path, await token(who), body)).status, `${method} ${path}`).toBe(status);
    }
  });

  it.each([
    ["no type", { roomsRequested: 1 }, "/type"],
    ["unknown type", { type: "EXTRA", roomsRequested: 1 }, "/type"],
    ["no rooms", { type: "INITIAL" }, "/roomsRequested"],
    ["zero rooms", { type: "INITIAL", roomsRequested: 0 }, "/roomsRequested"],
    ["negative rooms", { type: "INITIAL", roomsRequested: -2 }, "/roomsRequested"],
    ["fractional rooms", { type: "INITIAL", roomsRequested: 1.5 }, "/roomsRequested"],
    ["rooms as text", { type: "INITIAL", roomsRequested: "5" }, "/roomsRequested"],
    ["too many rooms", { type: "INITIAL", roomsRequested: 10001 }, "/roomsRequested"],
    ["unknown field", { type: "INITIAL", roomsRequested: 1, priority: "HIGH" }, "/priority"],
  ])("refuses a demand body with %s (400, field errors)", async (_, body, field) => {
    const caseUrn = await openCase();
    for (const prefix of ["/v1", ""]) {
      const response = await t.call(
        "POST",
        `${prefix}/demand/case/${enc(caseUrn)}`,
        await token("operator@zx.demo"),
        body,
      );
      await expectBodyFieldError(response, field);
    }
  });

  it("requires a reason to approve or reject", async () => {
    const caseUrn = await openCase();
    const demand = await json(await requestDemand(caseUrn, "INITIAL", 30), 201);
    for (const action of ["approve", "reject"]) {
      for (const body of [undefined, {}, { reason: "" }, { reason: "ok", note: "x" }, { reason: 3 }]) {
        const response = await t.call(
          "POST",
          `/v1/demand/${enc(demand.urn)}/${action}`,
          await token("supervisor@zx.demo"),
          body,
        );
        expect(response.status, `${action} ${JSON.stringify(body)}`).toBe(400);
      }
    }
    const pending = await json<{ items: Demand[] }>(
      await t.call("GET", "/v1/demand/pending/approvals?limit=200", await token("supervisor@zx.demo")),
      200,
    );
    expect(pending.items.find((d) => d.urn === demand.urn)?.state).toBe("REQUESTED");
  });
});
