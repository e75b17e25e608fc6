import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, settle } from "../../src/runtime/clock.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, push, ZX } from "./cases-fixtures.js";

let t: TestPlatform;
let clock: ManualClock;
let supervisor: string;
let operator: string;
/** Tokens of every user the tests act as, taken before the clock moves (TOTP reads the real time). */
const tokens: Record<string, string> = {};
const opened: Record<string, string> = {};

const at = (airport: string, number: string) => ({
  flight: { number, origin: airport, destination: "LHR", scheduledDeparture: "2026-11-21T22:00:00Z" },
});

beforeAll(async () => {
  // Time moves only when a test moves it, so sub-call timeouts are driven, not waited for.
  clock = new ManualClock(Date.now());
  // Reads of a case as intake leaves it: no automatic demand, wave or booking.
  t = await startTestPlatform({ clock, env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
  for (const user of [
    "supervisor@zx.demo",
    "operator@zx.demo",
    "operator.jfk@zx.demo",
    "finance@zx.demo",
    "operator@vq.demo",
    "supervisor@vq.demo",
  ]) {
    tokens[user] = await t.operatorToken(user);
  }
  supervisor = tokens["supervisor@zx.demo"]!;
  operator = tokens["operator@zx.demo"]!;
  for (const [key, airport] of [
    ["jfk1", "JFK"],
    ["bos1", "BOS"],
    ["jfk2", "JFK"],
    ["ord1", "ORD"],
  ] as const) {
    const response = await t.call(
      "POST",
      "/v1/cases",
      supervisor,
      declaration(`evt-read-${key}`, at(airport, "ZX500")),
    );
    opened[key] = (await json(response)).urn;
    await clock.advance(60_000);
  }
  await t.call("POST", `/v1/cases/${encodeURIComponent(opened.ord1!)}/close`, operator, {
    reason: "resolved",
  });
});
afterAll(async () => {
  await t?.close();
});

describe("GET /v1/cases", () => {
  it("lists the airline's cases newest first, page by page", async () => {
    const first = await json(await t.call("GET", "/v1/cases?limit=3", operator));
    expect(first.items.map((c: any) => c.urn)).toEqual([opened.ord1, opened.jfk2, opened.bos1]);
    expect(first.hasMore).toBe(true);
    const second = await json(await t.call("GET", `/v1/cases?limit=3&cursor=${first.nextCursor}`, operator));
    expect(second.items.map((c: any) => c.urn)).toEqual([opened.jfk1]);
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect(first.items[1]).toMatchObject({
      status: "OPEN",
      airport: "JFK",
      passengerCount: 3,
      groupCount: 2,
      flightNumber: "ZX500",
    });
  });

  it("filters by status, airport and opening time", async () => {
    const list = async (query: string) =>
      (await json(await t.call("GET", `/v1/cases?${query}`, operator))).items.map((c: any) => c.urn);
    expect(await list("status=CLOSED")).toEqual([opened.ord1]);
    expect(await list("airport=JFK")).toEqual([opened.jfk2, opened.jfk1]);
    const jfk2 = await json(await t.call("GET", `/v1/cases/${encodeURIComponent(opened.jfk2!)}`, operator));
    expect(await list(`from=${encodeURIComponent(jfk2.openedAt)}&status=OPEN`)).toEqual([opened.jfk2]);
    expect(await list(`to=${encodeURIComponent(jfk2.openedAt)}&airport=JFK`)).toEqual([
      opened.jfk2,
      opened.jfk1,
    ]);
  });

  it("shows an airport-scoped operator its airport only, another airline nothing, and refuses bad queries", async () => {
    const jfk = tokens["operator.jfk@zx.demo"]!;
    const mine = await json(await t.call("GET", "/v1/cases", jfk));
    expect(mine.items.map((c: any) => c.urn)).toEqual([opened.jfk2, opened.jfk1]);
    expect((await t.call("GET", "/v1/cases?airport=BOS", jfk)).status).toBe(403);
    const vq = await json(await t.call("GET", "/v1/cases", tokens["operator@vq.demo"]!));
    expect(vq.items).toEqual([]);
    expect((await t.call("GET", "/v1/cases?status=DONE", operator)).status).toBe(400);
    expect((await t.call("GET", "/v1/cases?offset=10", operator)).status).toBe(400);
    expect((await t.call("GET", "/v1/cases", tokens["finance@zx.demo"]!)).status).toBe(403);
  });
});

describe("GET /v1/cases/{urn} and /manifest", () => {
  it("accepts both URN forms and shows the fields of spec 2.1", async () => {
    const id = opened.jfk1!.slice("urn:case:".length);
    for (const urn of [opened.jfk1!, `urn:zx:case:${id}`]) {
      for (const prefix of ["/v1/cases/", "/cases/"]) {
        const response = await t.call("GET", `${prefix}${encodeURIComponent(urn)}`, operator);
        expect(response.status).toBe(200);
        const view = await json(response);
        expect(view).toMatchObject({
          urn: opened.jfk1,
          status: "OPEN",
          wave: { allocations: [] },
          reservations: [],
          manualReviewItems: [],
        });
        expect(view.passengerGroups[0]).toMatchObject({
          id: "ABC123",
          operationalStatus: "OPEN",
          subCaseUrn: expect.stringMatching(/^urn:sub-case:/),
        });
        expect(view.passengerGroups[0].passengers[0]).toMatchObject({
          urn: "urn:passenger:p1",
          contact: { email: "ana@example.com" },
        });
      }
    }
    const jfk = tokens["operator.jfk@zx.demo"]!;
    expect((await t.call("GET", `/v1/cases/${encodeURIComponent(opened.bos1!)}`, jfk)).status).toBe(403);
    const vq = tokens["supervisor@vq.demo"]!;
    expect((await t.call("GET", `/cases/${encodeURIComponent(opened.jfk1!)}`, vq)).status).toBe(403);
  });

  it("pages the sub-cases, one per group", async () => {
    const urn = encodeURIComponent(opened.jfk1!);
    const first = await json(await t.call("GET", `/v1/cases/${urn}/manifest?limit=1`, operator));
    expect(first.items).toEqual([
      expect.objectContaining({
        subCaseUrn: expect.stringMatching(/^urn:sub-case:/),
        groupId: "ABC123",
        pnr: "ABC123",
        status: "OPEN",
        lockedBy: null,
        passengerCount: 2,
      }),
    ]);
    const second = await json(
      await t.call("GET", `/v1/cases/${urn}/manifest?limit=1&cursor=${first.nextCursor}`, operator),
    );
    expect(second.items.map((s: any) => s.groupId)).toEqual(["XYZ789"]);
    expect(second.hasMore).toBe(false);
    expect((await t.call("GET", `/v1/cases/${urn}/manifest?cursor=garbage`, operator)).status).toBe(400);
    const unknown = encodeURIComponent("urn:case:00000000-0000-4000-8000-000000000000");
    expect((await t.call("GET", `/v1/cases/${unknown}/manifest`, operator)).status).toBe(404);
  });
});

describe("GET /v1/cases/dashboard", () => {
  it("composes case counts, review items and demand", async () => {
    const demands = t.platform.runtime.documents.collection<any>("demands");
    await demands.put({
      _id: "urn:demand:d1",
      tenant: ZX,
      airport: "JFK",
      caseUrn: opened.jfk1,
      state: "REQUESTED",
      roomsRequested: 4,
    });
    await demands.put({
      _id: "urn:demand:d2",
      tenant: ZX,
      airport: "BOS",
      caseUrn: opened.bos1,
      state: "APPROVED",
      roomsRequested: 6,
    });
    await demands.put({
      _id: "urn:demand:d3",
      tenant: "urn:airline:VQ",
      airport: "LHR",
      caseUrn: "urn:case:x",
      state: "APPROVED",
      roomsRequested: 9,
    });
    const response = await t.call("GET", "/v1/cases/dashboard", operator);
    expect(response.status).toBe(200);
    const dashboard = await json(response);
    expect(dashboard).toEqual({
      airport: null,
      cases: { total: 4, byStatus: { OPEN: 3, MANUAL_REVIEW: 0, CLOSED: 1 } },
      manualReview: expect.objectContaining({ open: 0 }),
      demand: { demands: 2, pendingApprovals: 1, roomsRequested: 10, roomsApproved: 6 },
      partialFailures: [],
    });
    const jfk = await json(await t.call("GET", "/v1/cases/dashboard", tokens["operator.jfk@zx.demo"]!));
    expect(jfk).toMatchObject({
      airport: "JFK",
      cases: { total: 2 },
      demand: { demands: 1, roomsRequested: 4 },
    });
    expect((await t.call("GET", "/v1/cases/dashboard", tokens["finance@zx.demo"]!)).status).toBe(403);
  });

  it("returns the rest and names the failed domain when a sub-call fails or outlasts 3 s", async () => {
    const documents = t.platform.runtime.documents;
    const demands = documents.collection("demands");
    const reviewItems = documents.collection("review-items");
    const originalFindAll = demands.findAll;
    const originalCount = reviewItems.count;
    let demandAsked = false;
    demands.findAll = () => {
      demandAsked = true;
      return new Promise(() => {});
    };
    reviewItems.count = () => Promise.reject(new Error("review store unavailable"));
    try {
      const answer = t.call("GET", "/v1/cases/dashboard", operator);
      await expect.poll(() => demandAsked).toBe(true);
      await settle();
      await clock.advance(3_000);
      const response = await answer;
      expect(response.status).toBe(200);
      const dashboard = await json(response);
      expect(dashboard.cases).toMatchObject({ total: 4 });
      expect(dashboard.manualReview).toBeNull();
      expect(dashboard.demand).toBeNull();
      expect(dashboard.partialFailures).toEqual([
        { domain: "demand", reason: "no answer within 3000 ms" },
        { domain: "manual-review", reason: "review store unavailable" },
      ]);
    } finally {
      demands.findAll = originalFindAll;
      reviewItems.count = originalCount;
    }
  });
});

describe("partner reads", () => {
  it("lists, reads and pages a case's passengers without contact details, each read audited", async () => {
    const token = await t.partnerToken("skyhub-zx");
    const { caseUrn } = await json(
      await t.call("POST", "/partner/v1/disruptions", token, push("evt-partner-read")),
    );
    const urn = encodeURIComponent(caseUrn);

    const list = await json(await t.call("GET", "/partner/v1/cases?airport=BOS", token));
    expect(list.items.map((c: any) => c.urn)).toEqual([caseUrn, opened.bos1]);

    const detail = await json(await t.call("GET", `/partner/v1/cases/${urn}`, token));
    expect(detail).toMatchObject({ urn: caseUrn, status: "OPEN" });
    expect(detail.passengerGroups[0].passengers[0].contact).toBeUndefined();

    const page = await json(await t.call("GET", `/partner/v1/cases/${urn}/passengers?limit=2`, token));
    expect(page.items.map((p: any) => [p.urn, p.groupId, p.pnr])).toEqual([
      ["urn:passenger:QWE123-1", "QWE123", "QWE123"],
      ["urn:passenger:QWE123-2", "QWE123", "QWE123"],
    ]);
    const rest = await json(
      await t.call("GET", `/partner/v1/cases/${urn}/passengers?cursor=${page.nextCursor}`, token),
    );
    expect(rest.items.map((p: any) => p.urn)).toEqual(["urn:passenger:RTY456-1"]);

    expect(await json(await t.call("GET", `/partner/v1/cases/${urn}/services`, token))).toEqual({
      caseUrn,
      hotels: [],
      transport: [],
      walletCards: [],
    });
    const ofPassenger = await json(
      await t.call(
        "GET",
        `/partner/v1/passengers/${encodeURIComponent("urn:passenger:RTY456-1")}/cases`,
        token,
      ),
    );
    expect(ofPassenger.items.map((c: any) => c.urn)).toEqual([caseUrn]);

    const trail = await json(await t.call("GET", `/v1/audit/case/${urn}`, supervisor));
    const partnerReads = trail.items
      .filter((e: any) => e.actorUrn === "urn:partner:skyhub")
      .map((e: any) => e.action);
    expect(partnerReads).toEqual(
      expect.arrayContaining([
        "pushDisruption",
        "partnerGetCase",
        "partnerListCasePassengers",
        "partnerGetCaseServices",
      ]),
    );
  });

  it("refuses another airline's case (403), operator tokens (401) and unknown cases (404)", async () => {
    const vqRegulator = await t.partnerToken("regulator-vq");
    const urn = encodeURIComponent(opened.jfk1!);
    for (const path of [
      `/partner/v1/cases/${urn}`,
      `/partner/v1/cases/${urn}/passengers`,
      `/partner/v1/cases/${urn}/services`,
    ]) {
      expect((await t.call("GET", path, vqRegulator)).status).toBe(403);
      expect((await t.call("GET", path, operator)).status).toBe(401);
    }
    expect((await json(await t.call("GET", "/partner/v1/cases", vqRegulator))).items).toEqual([]);
    const unknown = encodeURIComponent("urn:case:00000000-0000-4000-8000-000000000000");
    const zx = await t.partnerToken("regulator-zx");
    expect((await t.call("GET", `/partner/v1/cases/${unknown}`, zx)).status).toBe(404);
    expect((await t.call("GET", `/partner/v1/cases?from=yesterday`, zx)).status).toBe(400);
  });
});
