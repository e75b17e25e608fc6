import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSENGER_LOGINS_COLLECTION } from "../../src/passenger-identity/document-passenger-directory.js";
import { CASE_REVOCATIONS_COLLECTION } from "../../src/passenger-identity/case-revocations.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, ZX } from "./cases-fixtures.js";

let t: TestPlatform;
let supervisor: string;
let operator: string;
let admin: string;

beforeAll(async () => {
  t = await startTestPlatform();
  [supervisor, operator, admin] = await Promise.all([
    t.operatorToken("supervisor@zx.demo"),
    t.operatorToken("operator@zx.demo"),
    t.operatorToken("admin@zx.demo"),
  ]);
});
afterAll(async () => {
  await t?.close();
});

async function openCase(externalEventId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await t.call("POST", "/v1/cases", supervisor, declaration(externalEventId, overrides));
  expect(response.status).toBe(201);
  return (await json(response)).urn;
}

const path = (caseUrn: string, rest = "") => `/cases/${encodeURIComponent(caseUrn)}${rest}`;
const v1 = (caseUrn: string, rest = "") => `/v1/cases/${encodeURIComponent(caseUrn)}${rest}`;

describe("closing a case (spec 3.3)", () => {
  it("closes with a reason, audits actor, reason, before and after, and then accepts no change", async () => {
    const caseUrn = await openCase("evt-close-1");
    const closed = await t.call("POST", path(caseUrn, "/close"), operator, {
      reason: "all passengers rebooked",
    });
    expect(closed.status).toBe(200);
    const body = await json(closed);
    expect(body.status).toBe("CLOSED");
    expect(body.statusChange).toMatchObject({
      from: "OPEN",
      to: "CLOSED",
      reason: "all passengers rebooked",
      by: expect.stringMatching(/^urn:user:/),
    });

    const trail = await json(
      await t.call("GET", `/v1/audit/case/${encodeURIComponent(caseUrn)}`, supervisor),
    );
    const transition = trail.items.find((e: any) => e.action === "case.closed");
    expect(transition).toMatchObject({
      entityUrn: caseUrn,
      reason: "all passengers rebooked",
      before: { status: "OPEN" },
      after: { status: "CLOSED" },
      actorUrn: body.statusChange.by,
    });
    expect(trail.items.map((e: any) => e.action)).toContain("case.close");

    const refused = [
      await t.call("POST", v1(caseUrn, "/close"), operator, { reason: "again" }),
      await t.call("POST", path(caseUrn, "/groups/ABC123/split"), operator, {
        into: [["p1"], ["p2"]],
        reason: "x",
      }),
      await t.call("POST", path(caseUrn, "/groups:merge"), operator, {
        groupIds: ["ABC123", "XYZ789"],
        reason: "x",
      }),
      await t.call("POST", v1(caseUrn, "/passenger-groups"), operator, {
        groups: [{ id: "all", passengerIds: ["p1", "p2", "p3"] }],
        reason: "x",
      }),
      await t.call("PATCH", path(caseUrn, "/reaccommodate"), operator, {
        nextFlight: { number: "ZX104", scheduledDeparture: "2026-11-23T18:00:00Z" },
      }),
      await t.call(
        "PATCH",
        `/partner/v1/cases/${encodeURIComponent(caseUrn)}/manifest`,
        await t.partnerToken("skyhub-zx"),
        {
          nextFlight: { iataDesignator: "ZX104", scheduledDeparture: "2026-11-23T18:00:00Z" },
        },
      ),
    ];
    for (const response of refused) {
      expect(response.status).toBe(409);
      expect((await json(response)).type).toMatch(/\/conflict\/case-closed$/);
    }
    const after = await json(await t.call("GET", v1(caseUrn), operator));
    expect(after.version).toBe(body.version);
  });

  it("revokes the case's passenger logins and tokens when it closes, and lets them in again on reopen", async () => {
    const caseUrn = await openCase("evt-close-2");
    const logins = t.platform.runtime.documents.collection<any>(PASSENGER_LOGINS_COLLECTION);
    const revocations = t.platform.runtime.documents.collection<any>(CASE_REVOCATIONS_COLLECTION);
    expect(await logins.findAll({ caseUrn }, { sort: { _id: 1 } })).toEqual([
      expect.objectContaining({
        tenant: ZX,
        pnr: "ABC123",
        lastNameKey: "rivera",
        groupId: "ABC123",
        caseStatus: "OPEN",
      }),
      expect.objectContaining({
        pnr: "XYZ789",
        lastNameKey: "okafor",
        groupId: "XYZ789",
        caseStatus: "OPEN",
      }),
    ]);
    await t.call("POST", v1(caseUrn, "/close"), operator, { reason: "flight departed" });
    expect((await logins.findAll({ caseUrn })).map((l: any) => l.caseStatus)).toEqual(["CLOSED", "CLOSED"]);
    expect(await revocations.get(caseUrn)).toMatchObject({ caseClosed: true });

    const reopened = await t.call("POST", path(caseUrn, "/reopen"), admin);
    expect(reopened.status).toBe(200);
    expect((await json(reopened)).status).toBe("OPEN");
    expect((await logins.findAll({ caseUrn })).map((l: any) => l.caseStatus)).toEqual(["OPEN", "OPEN"]);
    expect(await revocations.get(caseUrn)).toMatchObject({ caseClosed: false });
    const trail = await json(
      await t.call("GET", `/v1/audit/case/${encodeURIComponent(caseUrn)}`, supervisor),
    );
    const actions = trail.items.map((e: any) => e.action);
    expect(actions.indexOf("case.reopen-requested")).toBeLessThan(actions.indexOf("case.reopened"));
  });

  it("lets only an ADMIN reopen, only a closed case, and needs a reason to close", async () => {
    const caseUrn = await openCase("evt-close-3");
    expect((await t.call("POST", path(caseUrn, "/close"), operator, {})).status).toBe(400);
    expect((await t.call("POST", path(caseUrn, "/close"), operator, { reason: "" })).status).toBe(400);
    const notClosed = await t.call("POST", v1(caseUrn, "/reopen"), admin, { reason: "why not" });
    expect(notClosed.status).toBe(409);
    expect((await json(notClosed)).type).toMatch(/\/conflict\/case-not-closed$/);
    await t.call("POST", path(caseUrn, "/close"), operator, { reason: "done" });
    expect((await t.call("POST", path(caseUrn, "/reopen"), supervisor)).status).toBe(403);
    expect(
      (await t.call("POST", path(caseUrn, "/reopen"), admin, { reason: "closed by mistake" })).status,
    ).toBe(200);
  });

  it("refuses FINANCE_AUDIT, another airline, another airport, and unknown cases", async () => {
    const caseUrn = await openCase("evt-close-4");
    const finance = await t.operatorToken("finance@zx.demo");
    expect((await t.call("POST", path(caseUrn, "/close"), finance, { reason: "x" })).status).toBe(403);
    const vq = await t.operatorToken("supervisor@vq.demo");
    const foreign = await t.call("POST", path(caseUrn, "/close"), vq, { reason: "x" });
    expect(foreign.status).toBe(403);
    expect((await json(foreign)).type).toMatch(/\/forbidden\/tenant-mismatch$/);
    const bosCase = await openCase("evt-close-5", {
      flight: {
        number: "ZX300",
        origin: "BOS",
        destination: "ORD",
        scheduledDeparture: "2026-11-21T22:00:00Z",
      },
    });
    const jfkOperator = await t.operatorToken("operator.jfk@zx.demo");
    expect((await t.call("POST", path(bosCase, "/close"), jfkOperator, { reason: "x" })).status).toBe(403);
    expect((await t.call("POST", path(caseUrn, "/close"), jfkOperator, { reason: "by JFK" })).status).toBe(
      200,
    );

    const unknown = "urn:case:00000000-0000-4000-8000-000000000000";
    for (const [method, url, token, body] of [
      ["POST", path(unknown, "/close"), operator, { reason: "x" }],
      ["POST", path(unknown, "/reopen"), admin, undefined],
      ["GET", v1(unknown), operator, undefined],
      ["GET", path(unknown), operator, undefined],
    ] as const) {
      const response = await t.call(method, url, token, body);
      expect(response.status).toBe(404);
      expect((await json(response)).type).toMatch(/\/not-found\/case-not-found$/);
    }
    expect((await t.call("GET", "/v1/cases/not-a-urn", operator)).status).toBe(400);
  });
});
