/**
 * A partner asks for a case to be handled sooner (spec 4.3 priority-request, scope
 * cases.priority.request): the case's priority goes up one level, operators see it on the case
 * list and detail, the change is audited against the partner, and each registration's requests are
 * bounded (spec 8.1), refilled as the injected clock moves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTNER_WRITE_BOUNDS } from "../../src/app/partner-write-bounds.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";
import { declaration, push } from "./cases-fixtures.js";

let t: TestPlatform;
let clock: ManualClock;
/** Tokens taken before the clock moves (TOTP reads the real time). */
let supervisor: string;
let operator: string;
let skyhub: string;
let regulator: string;
let vqRegulator: string;

const path = (caseUrn: string) => `/partner/v1/cases/${encodeURIComponent(caseUrn)}/priority-request`;

async function openCase(externalEventId: string): Promise<string> {
  return (
    await json<{ caseUrn: string }>(
      await t.call("POST", "/partner/v1/disruptions", skyhub, push(externalEventId)),
      202,
    )
  ).caseUrn;
}

beforeAll(async () => {
  clock = new ManualClock(Date.now());
  t = await startTestPlatform({ clock, env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
  supervisor = await t.operatorToken("supervisor@zx.demo");
  operator = await t.operatorToken("operator@zx.demo");
  skyhub = await t.partnerToken("skyhub-zx");
  regulator = await t.partnerToken("regulator-zx");
  vqRegulator = await t.partnerToken("regulator-vq");
});
afterAll(async () => {
  await t?.close();
});

describe("POST /partner/v1/cases/{case_urn}/priority-request", () => {
  it("raises the case one level at a time, up to URGENT, as operators see it, audited", async () => {
    const caseUrn = await openCase("PRIO-RAISE");
    const detail = async () =>
      json<Record<string, any>>(
        await t.call("GET", `/v1/cases/${encodeURIComponent(caseUrn)}`, operator),
        200,
      );
    expect(await detail()).toMatchObject({ priority: "NORMAL", priorityRequest: null });

    const first = await json<Record<string, any>>(
      await t.call("POST", path(caseUrn), skyhub, { reason: "a minister is on board" }),
      200,
    );
    expect(first).toMatchObject({
      caseUrn,
      priority: "HIGH",
      raised: true,
      priorityRequest: {
        by: "urn:partner:skyhub",
        reason: "a minister is on board",
        from: "NORMAL",
        to: "HIGH",
      },
    });
    expect(await detail()).toMatchObject({
      priority: "HIGH",
      priorityRequest: { by: "urn:partner:skyhub", reason: "a minister is on board" },
    });

    const second = await json<Record<string, any>>(
      await t.call("POST", path(caseUrn), skyhub, { reason: "connection at risk" }),
      200,
    );
    expect(second).toMatchObject({ priority: "URGENT", raised: true });
    const third = await json<Record<string, any>>(
      await t.call("POST", path(caseUrn), skyhub, { reason: "still waiting" }),
      200,
    );
    expect(third).toMatchObject({
      priority: "URGENT",
      raised: false,
      priorityRequest: { reason: "connection at risk" },
    });

    // The operators' list shows it and filters on it.
    const urgent = await json<{ items: any[] }>(
      await t.call("GET", "/v1/cases?priority=URGENT", operator),
      200,
    );
    expect(urgent.items.map((c) => [c.urn, c.priority])).toEqual([[caseUrn, "URGENT"]]);
    const normal = await json<{ items: any[] }>(
      await t.call("GET", "/v1/cases?priority=NORMAL", operator),
      200,
    );
    expect(normal.items.map((c) => c.urn)).not.toContain(caseUrn);

    const trail = await json<{ items: any[] }>(
      await t.call("GET", `/v1/audit/case/${encodeURIComponent(caseUrn)}`, supervisor),
      200,
    );
    const raised = trail.items.filter((e) => e.action === "case.priority-raised");
    expect(raised.map((e) => [e.actorUrn, e.reason, e.before, e.after])).toEqual(
      expect.arrayContaining([
        ["urn:partner:skyhub", "a minister is on board", { priority: "NORMAL" }, { priority: "HIGH" }],
        ["urn:partner:skyhub", "connection at risk", { priority: "HIGH" }, { priority: "URGENT" }],
      ]),
    );
    expect(trail.items.filter((e) => e.action === "case.priority-request")).toHaveLength(3);
  });

  it("refuses without the scope (403), across airlines (403), without a reason (400), an unknown (404) or closed case (409)", async () => {
    const caseUrn = await openCase("PRIO-REFUSED");
    expect((await t.call("POST", path(caseUrn), regulator, { reason: "please" })).status).toBe(403);
    expect((await t.call("POST", path(caseUrn), vqRegulator, { reason: "please" })).status).toBe(403);
    expect((await t.call("POST", path(caseUrn), skyhub, {})).status).toBe(400);
    expect(
      (await t.call("POST", path(caseUrn), skyhub, { reason: "please", priority: "URGENT" })).status,
    ).toBe(400);
    expect((await t.call("POST", path(caseUrn), operator, { reason: "please" })).status).toBe(401);
    const unknown = "urn:case:00000000-0000-4000-8000-000000000000";
    expect((await t.call("POST", path(unknown), skyhub, { reason: "please" })).status).toBe(404);

    const declared = await json<{ urn: string }>(
      await t.call("POST", "/v1/cases", supervisor, declaration("PRIO-CLOSED")),
      201,
    );
    await json(
      await t.call("POST", `/v1/cases/${encodeURIComponent(declared.urn)}/close`, operator, {
        reason: "done",
      }),
      200,
    );
    const closed = await t.call("POST", path(declared.urn), skyhub, { reason: "please" });
    expect(closed.status).toBe(409);
    expect((await json<{ type: string }>(closed, 409)).type).toMatch(/\/conflict\/case-closed$/);
  });

  it(`bounds each registration to ${PARTNER_WRITE_BOUNDS["priority-request"].perHour} an hour: 429 with Retry-After, refilled as time passes`, async () => {
    const caseUrn = await openCase("PRIO-BOUND");
    const { perHour } = PARTNER_WRITE_BOUNDS["priority-request"];
    // The clock stands still, so nothing refills: the requests of the tests above count too.
    let accepted = 0;
    let refused: Response | undefined;
    while (!refused && accepted <= perHour) {
      const response = await t.call("POST", path(caseUrn), skyhub, { reason: `request ${accepted}` });
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
      if (response.status === 200) accepted++;
    }
    expect(refused?.status).toBe(429);
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(perHour);
    const retryAfter = Number(refused!.headers.get("retry-after"));
    expect(retryAfter).toBe(3_600 / perHour);
    await clock.advance(retryAfter * 1000 - 1000);
    expect((await t.call("POST", path(caseUrn), skyhub, { reason: "a second early" })).status).toBe(429);
    await clock.advance(1000);
    expect((await t.call("POST", path(caseUrn), skyhub, { reason: "after the wait" })).status).toBe(200);
    expect((await t.call("POST", path(caseUrn), skyhub, { reason: "too soon" })).status).toBe(429);
  });
});
