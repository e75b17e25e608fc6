import ExcelJS from "exceljs";
import { SUB_CASE_STATUSES } from "../../src/domain/sub-case.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, push, ZX } from "./cases-fixtures.js";
import { recordEvents } from "../support/event-recorder.js";

let t: TestPlatform;
let supervisor: string;
let operator: string;
let amended: DomainEvent[];

beforeAll(async () => {
  t = await startTestPlatform();
  [supervisor, operator] = await Promise.all([
    t.operatorToken("supervisor@zx.demo"),
    t.operatorToken("operator@zx.demo"),
  ]);
  amended = recordEvents(t.platform.runtime.bus, {
    name: "test.cases-manifest.amended",
    topic: topicFor({ tenant: ZX }),
    types: ["case.amended"],
  });
});
afterAll(async () => {
  await t?.close();
});

async function openCase(externalEventId: string): Promise<string> {
  const response = await t.call("POST", "/v1/cases", supervisor, declaration(externalEventId));
  expect(response.status).toBe(201);
  return (await json(response)).urn;
}

const path = (caseUrn: string, rest = "") => `/cases/${encodeURIComponent(caseUrn)}${rest}`;
const v1 = (caseUrn: string, rest = "") => `/v1/cases/${encodeURIComponent(caseUrn)}${rest}`;
const groupsOf = (view: any) =>
  view.passengerGroups.map((g: any) => [g.id, g.passengers.map((p: any) => p.id)]);

function upload(caseUrn: string, file: Uint8Array, filename: string, token = operator) {
  const form = new FormData();
  form.append("note", "uploaded from the console");
  form.append("file", new Blob([new Uint8Array(file)]), filename);
  return fetch(`${t.base}${path(caseUrn, "/passengers:bulk")}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
}

async function workbook(rows: (string | undefined)[][]): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("manifest");
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

describe("regrouping, split and merge", () => {
  it("splits a group with a reason, and emits case.amended with the new groups", async () => {
    const caseUrn = await openCase("evt-split");
    const response = await t.call("POST", path(caseUrn, "/groups/ABC123/split"), operator, {
      into: [["p1"], ["p2"]],
      reason: "travelling separately",
    });
    expect(response.status).toBe(200);
    const view = await json(response);
    expect(groupsOf(view)).toEqual([
      ["ABC123-1", ["p1"]],
      ["ABC123-2", ["p2"]],
      ["XYZ789", ["p3"]],
    ]);
    expect(view.passengerGroups[0].origin).toEqual({
      kind: "split",
      from: ["ABC123"],
      reason: "travelling separately",
    });
    await expect
      .poll(() => amended.filter((e) => e.caseUrn === caseUrn).map((e) => (e.data as any).change))
      .toEqual(["case.group-split"]);
    const event = amended.find((e) => e.caseUrn === caseUrn)!;
    expect((event.data as any).passengerGroups.map((g: any) => g.id)).toEqual([
      "ABC123-1",
      "ABC123-2",
      "XYZ789",
    ]);

    const trail = await json(
      await t.call("GET", `/v1/audit/case/${encodeURIComponent(caseUrn)}`, supervisor),
    );
    expect(trail.items.find((e: any) => e.action === "case.group-split")).toMatchObject({
      reason: "travelling separately",
      before: { groups: [{ id: "ABC123" }, { id: "XYZ789" }] },
    });
  });

  it("merges groups spanning tiers and raises a MIXED_TIER_GROUP review item", async () => {
    const caseUrn = await openCase("evt-merge");
    const response = await t.call("POST", path(caseUrn, "/groups:merge"), operator, {
      groupIds: ["ABC123", "XYZ789"],
      reason: "one family",
    });
    expect(response.status).toBe(200);
    const view = await json(response);
    expect(groupsOf(view)).toEqual([["ABC123", ["p1", "p2", "p3"]]]);
    expect(view.manualReviewItems).toEqual([
      expect.objectContaining({
        urn: expect.stringMatching(/^urn:review-item:/),
        caseUrn,
        category: "MIXED_TIER_GROUP",
        priority: "LOW",
        affectedGroups: ["ABC123"],
        state: "OPEN",
        attemptedHotels: [],
        recommendations: [],
        assignedTo: null,
      }),
    ]);
  });

  it("regroups every passenger, refusing a grouping that leaves one out", async () => {
    const caseUrn = await openCase("evt-regroup");
    const missing = await t.call("POST", v1(caseUrn, "/passenger-groups"), operator, {
      groups: [{ id: "family", passengerIds: ["p1", "p2"] }],
      reason: "family",
    });
    expect(missing.status).toBe(400);
    expect((await json(missing)).type).toMatch(/\/invalid\/passenger-missing$/);
    const response = await t.call("POST", v1(caseUrn, "/passenger-groups"), operator, {
      groups: [
        { id: "lead", passengerIds: ["p1"] },
        { id: "others", passengerIds: ["p2", "p3"] },
      ],
      reason: "lead travels first",
    });
    expect(response.status).toBe(200);
    const view = await json(response);
    expect(groupsOf(view)).toEqual([
      ["lead", ["p1"]],
      ["others", ["p2", "p3"]],
    ]);
    expect(view.passengerGroups.map((g: any) => g.pnr)).toEqual(["ABC123", null]);
    expect(view.manualReviewItems.map((i: any) => [i.category, i.affectedGroups]).sort()).toEqual([
      ["DATA_INCOMPLETE", ["others"]],
      ["MIXED_TIER_GROUP", ["others"]],
    ]);
  });

  it("refuses bad bodies, unknown groups, wrong roles and other airlines", async () => {
    const caseUrn = await openCase("evt-groups-refused");
    const badSplit = await t.call("POST", path(caseUrn, "/groups/ABC123/split"), operator, {
      into: [["p1"]],
    });
    expect(badSplit.status).toBe(400);
    expect((await json(badSplit)).errors.map((e: any) => e.field)).toEqual(
      expect.arrayContaining(["/into", "/reason"]),
    );
    expect(
      (await t.call("POST", path(caseUrn, "/groups:merge"), operator, { groupIds: ["ABC123"], reason: "x" }))
        .status,
    ).toBe(400);
    const unknownGroup = await t.call("POST", path(caseUrn, "/groups/NOPE/split"), operator, {
      into: [["p1"], ["p2"]],
      reason: "x",
    });
    expect(unknownGroup.status).toBe(404);
    const finance = await t.operatorToken("finance@zx.demo");
    expect(
      (
        await t.call("POST", path(caseUrn, "/groups:merge"), finance, {
          groupIds: ["ABC123", "XYZ789"],
          reason: "x",
        })
      ).status,
    ).toBe(403);
    const vq = await t.operatorToken("operator@vq.demo");
    expect(
      (
        await t.call("POST", v1(caseUrn, "/passenger-groups"), vq, {
          groups: [{ id: "a", passengerIds: ["p1"] }],
          reason: "x",
        })
      ).status,
    ).toBe(403);
    const unknown = "urn:case:00000000-0000-4000-8000-000000000000";
    expect(
      (await t.call("POST", path(unknown, "/groups:merge"), operator, { groupIds: ["a", "b"], reason: "x" }))
        .status,
    ).toBe(404);
  });
});

describe("POST /cases/{urn}/passengers:bulk", () => {
  it("keeps the valid rows of an .xlsx, reports each bad row, and flags incomplete groups", async () => {
    const caseUrn = await openCase("evt-bulk-xlsx");
    const file = await workbook([
      ["PNR", "Passenger Id", "First Name", "Last Name", "Tier", "Email", "Phone"],
      ["NEW123", "", "Mina", "Kim", "ECONOMY", "mina@example.com", ""],
      ["NEW123", "", "Joon", "Kim", "ECONOMY", "", ""],
      ["DEF456", "", "Li", "Lee", "", "", ""],
      ["BAD", "", "No", "Pnr", "ECONOMY", "", ""],
      ["GHI789", "", "No", "", "ECONOMY", "", ""],
      ["JKL012", "", "Bad", "Mail", "ECONOMY", "not-an-email", ""],
    ]);
    const response = await upload(caseUrn, file, "manifest.xlsx");
    expect(response.status).toBe(200);
    const outcome = await json(response);
    expect(outcome).toMatchObject({
      caseUrn,
      accepted: 3,
      added: ["NEW123-1", "NEW123-2", "DEF456-1"],
      updated: [],
    });
    expect(outcome.errors).toEqual([
      { row: 5, field: "pnr", message: expect.any(String) },
      { row: 6, field: "lastName", message: "is required" },
      { row: 7, field: "email", message: expect.any(String) },
    ]);
    const view = await json(await t.call("GET", v1(caseUrn), operator));
    expect(groupsOf(view)).toEqual([
      ["ABC123", ["p1", "p2"]],
      ["XYZ789", ["p3"]],
      ["NEW123", ["NEW123-1", "NEW123-2"]],
      ["DEF456", ["DEF456-1"]],
    ]);
    expect(view.manualReviewItems.map((i: any) => [i.category, i.affectedGroups])).toEqual([
      ["DATA_INCOMPLETE", ["DEF456"]],
    ]);

    const again = await json(await upload(caseUrn, file, "manifest.xlsx"));
    expect(again).toMatchObject({ added: [], updated: ["NEW123-1", "NEW123-2", "DEF456-1"] });
  });

  it("reads a .csv the same way and refuses a request without a file, or JSON", async () => {
    const caseUrn = await openCase("evt-bulk-csv");
    const csv = "pnr,lastName,tier,phone\r\nCSV123,Novak,BUSINESS,+420123456789\r\n,Nobody,ECONOMY,\r\n";
    const outcome = await json(await upload(caseUrn, new TextEncoder().encode(csv), "manifest.csv"));
    expect(outcome).toMatchObject({ accepted: 1, added: ["CSV123-1"], errors: [{ row: 3, field: "pnr" }] });

    const empty = new FormData();
    empty.append("note", "no file");
    const noFile = await fetch(`${t.base}${path(caseUrn, "/passengers:bulk")}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${operator}` },
      body: empty,
    });
    expect(noFile.status).toBe(400);
    expect((await json(noFile)).type).toMatch(/\/invalid\/file-required$/);
    expect((await t.call("POST", path(caseUrn, "/passengers:bulk"), operator, { rows: [] })).status).toBe(
      400,
    );
    const finance = await t.operatorToken("finance@zx.demo");
    expect((await upload(caseUrn, new TextEncoder().encode(csv), "m.csv", finance)).status).toBe(403);
    const unknown = "urn:case:00000000-0000-4000-8000-000000000000";
    expect((await upload(unknown, new TextEncoder().encode(csv), "m.csv")).status).toBe(404);
  });
});

describe("PATCH /partner/v1/cases/{urn}/manifest", () => {
  it("adds passengers and corrects the next flight, emitting case.amended", async () => {
    const token = await t.partnerToken("skyhub-zx");
    const { caseUrn } = await json(await t.call("POST", "/partner/v1/disruptions", token, push("evt-amend")));
    const response = await t.call(
      "PATCH",
      `/partner/v1/cases/${encodeURIComponent(caseUrn)}/manifest`,
      token,
      {
        addedPassengers: [
          { pnr: "QWE123", lastName: "Smith", cabinClass: "ECONOMY", loyaltyTier: "STANDARD" },
        ],
        nextFlight: { iataDesignator: "ZX204", scheduledDeparture: "2026-11-23T09:00:00Z" },
      },
    );
    expect(response.status).toBe(200);
    const view = await json(response);
    expect(view.nextFlight).toEqual({ number: "ZX204", scheduledDeparture: "2026-11-23T09:00:00Z" });
    expect(groupsOf(view)[0]).toEqual(["QWE123", ["QWE123-1", "QWE123-2", "QWE123-3"]]);
    expect(view.passengerGroups[0].passengers[0].contact).toBeUndefined();
    await expect
      .poll(() => amended.filter((e) => e.caseUrn === caseUrn).map((e) => (e.data as any).change))
      .toEqual(["case.manifest-amended"]);

    const regulator = await t.partnerToken("regulator-zx");
    const unscoped = await t.call(
      "PATCH",
      `/partner/v1/cases/${encodeURIComponent(caseUrn)}/manifest`,
      regulator,
      {},
    );
    expect(unscoped.status).toBe(403);
    const bad = await t.call("PATCH", `/partner/v1/cases/${encodeURIComponent(caseUrn)}/manifest`, token, {
      addedPassengers: [{ lastName: "NoPnr" }],
    });
    expect(bad.status).toBe(400);
    const vqCase = await json(
      await t.call(
        "POST",
        "/v1/cases",
        await t.operatorToken("supervisor@vq.demo"),
        declaration("evt-amend-vq", { flight: { ...declaration("x").flight, origin: "LHR" } }),
      ),
    );
    const foreign = await t.call(
      "PATCH",
      `/partner/v1/cases/${encodeURIComponent(vqCase.urn)}/manifest`,
      token,
      {},
    );
    expect(foreign.status).toBe(403);
  });
});

describe("PATCH /cases/{urn}/reaccommodate", () => {
  it("marks LOCAL_RESIDENT when the new flight leaves no overnight gap, audited as reaccommodate", async () => {
    const caseUrn = await openCase("evt-reaccommodate");
    const response = await t.call("PATCH", path(caseUrn, "/reaccommodate"), operator, {
      nextFlight: { number: "ZX106", scheduledDeparture: "2026-11-22T03:00:00Z" },
      reason: "earlier connection found",
    });
    expect(response.status).toBe(200);
    const view = await json(response);
    expect(view.nextFlight).toEqual({ number: "ZX106", scheduledDeparture: "2026-11-22T03:00:00Z" });
    expect(view.passengerGroups.map((g: any) => g.operationalStatus)).toEqual([
      "LOCAL_RESIDENT",
      "LOCAL_RESIDENT",
    ]);
    expect(view.passengerGroups[0].passengers[0].localResident).toBe(true);
    expect(view.stayPlan).toMatchObject({ overnightGap: false });

    const later = await json(
      await t.call("PATCH", path(caseUrn, "/reaccommodate"), operator, {
        nextFlight: { number: "ZX108", scheduledDeparture: "2026-11-22T18:00:00Z" },
      }),
    );
    // The groups are back to their sub-cases' states (OPEN, or further on once booking and the saga ran).
    for (const group of later.passengerGroups) expect(SUB_CASE_STATUSES).toContain(group.operationalStatus);
    expect(later.stayPlan).toMatchObject({
      overnightGap: true,
      nights: { checkIn: "2026-11-21", checkOut: "2026-11-22" },
    });

    const finance = await t.operatorToken("finance@zx.demo");
    const found = await json(await t.call("GET", "/audit?entity=case&action=reaccommodate", finance));
    const entries = found.items.filter((e: any) => e.entityUrn === caseUrn);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ action: "reaccommodate", caseUrn, outcome: { status: 200 } });
  });

  it("refuses a bad body, a wrong role, another airline and an unknown case", async () => {
    const caseUrn = await openCase("evt-reaccommodate-refused");
    const bad = await t.call("PATCH", path(caseUrn, "/reaccommodate"), operator, {
      nextFlight: { number: "ZX1" },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).errors.map((e: any) => e.field)).toContain("/nextFlight/scheduledDeparture");
    const body = { nextFlight: { number: "ZX106", scheduledDeparture: "2026-11-22T03:00:00Z" } };
    expect(
      (await t.call("PATCH", path(caseUrn, "/reaccommodate"), await t.operatorToken("finance@zx.demo"), body))
        .status,
    ).toBe(403);
    expect(
      (
        await t.call(
          "PATCH",
          path(caseUrn, "/reaccommodate"),
          await t.operatorToken("operator@vq.demo"),
          body,
        )
      ).status,
    ).toBe(403);
    const unknown = "urn:case:00000000-0000-4000-8000-000000000000";
    expect((await t.call("PATCH", path(unknown, "/reaccommodate"), operator, body)).status).toBe(404);
  });
});
