import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";

let t: TestPlatform;
const tokens: Record<string, string> = {};
const token = async (who: string) => {
  tokens[who] ??= await t.operatorToken(who);
  return tokens[who]!;
};
const enc = encodeURIComponent;

let cases = 0;
async function openCase(origin: string): Promise<string> {
  const n = ++cases;
  const body = await json<{ urn: string }>(
    await t.call("POST", "/v1/cases", await token("supervisor@zx.demo"), {
      externalEventId: `freeze-e2e-${n}`,
      flight: {
        number: `ZX${300 + n}`,
        origin,
        destination: "LHR",
        scheduledDeparture: "2026-12-01T22:00:00Z",
        status: "CANCELLED",
      },
      passengerGroups: [],
    }),
    201,
  );
  return body.urn;
}

const requestDemand = async (caseUrn: string, roomsRequested = 2) =>
  t.call("POST", `/v1/demand/case/${enc(caseUrn)}`, await token("operator@zx.demo"), {
    type: "INITIAL",
    roomsRequested,
  });

beforeAll(async () => {
  // No policy: demand waits for a supervisor, REQUESTED, until the freeze decides.
  t = await startTestPlatform({ env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
});
afterAll(async () => {
  await t?.close();
});

describe("an airport freeze refuses demand (spec 3.1, system policy)", () => {
  it("rejects waiting demand when set, new demand while it lasts, and approvals there; lifting ends it", async () => {
    const admin = await token("admin@zx.demo");
    const waiting = await json<{ urn: string; state: string }>(
      await requestDemand(await openCase("ORD")),
      201,
    );
    const elsewhere = await json<{ urn: string }>(await requestDemand(await openCase("BOS")), 201);
    expect(waiting.state).toBe("REQUESTED");

    const frozen = await json<{ freeze: Record<string, unknown>; rejected: Array<Record<string, unknown>> }>(
      await t.call("POST", "/v1/admin/airport-freezes", admin, {
        airport: "ORD",
        reason: "de-icing fluid shortage",
      }),
      201,
    );
    expect(frozen.freeze).toMatchObject({ airport: "ORD", reason: "de-icing fluid shortage" });
    expect(frozen.rejected).toEqual([
      expect.objectContaining({
        urn: waiting.urn,
        state: "REJECTED",
        decisions: [
          expect.objectContaining({
            action: "reject",
            by: "urn:system:airport-freeze",
            reason: "Airport ORD is frozen: de-icing fluid shortage",
          }),
        ],
      }),
    ]);
    const queue = await json<{ items: Array<{ urn: string }> }>(
      await t.call("GET", "/v1/demand/pending/approvals", await token("supervisor@zx.demo")),
      200,
    );
    expect(queue.items.map((d) => d.urn)).toEqual([elsewhere.urn]);

    const refused = await json<{ state: string; decisions: Array<{ by: string }> }>(
      await requestDemand(await openCase("ORD")),
      201,
    );
    expect(refused.state).toBe("REJECTED");
    expect(refused.decisions.map((d) => d.by)).toEqual(["urn:system:airport-freeze"]);
    const audit = await json<{ items: Array<{ action: string; actorUrn: string }> }>(
      await t.call("GET", `/v1/audit/entity/${enc(waiting.urn)}`, admin),
      200,
    );
    expect(audit.items.map((e) => [e.action, e.actorUrn])).toContainEqual([
      "demand.reject",
      "urn:system:airport-freeze",
    ]);

    const list = await json<{ items: Array<{ airport: string }> }>(
      await t.call("GET", "/v1/admin/airport-freezes", admin),
      200,
    );
    expect(list.items.map((f) => f.airport)).toEqual(["ORD"]);

    expect(
      (await t.call("POST", "/v1/admin/airport-freezes/lift", admin, { airport: "ORD", reason: "restocked" }))
        .status,
    ).toBe(204);
    expect((await json<{ state: string }>(await requestDemand(await openCase("ORD")), 201)).state).toBe(
      "REQUESTED",
    );
    const again = await t.call("POST", "/v1/admin/airport-freezes/lift", admin, {
      airport: "ORD",
      reason: "x",
    });
    expect(again.status).toBe(404);
  });

  it("answers 409 airport-frozen to an approval at a frozen airport", async () => {
    const admin = await token("admin@zx.demo");
    const waiting = await json<{ urn: string }>(await requestDemand(await openCase("JFK")), 201);
    await json(
      await t.call("POST", "/v1/admin/airport-freezes", admin, { airport: "JFK", reason: "strike" }),
      201,
    );
    // The freeze is checked first: the answer names it rather than the demand's REJECTED state.
    const approve = await t.call(
      "POST",
      `/v1/demand/${enc(waiting.urn)}/approve`,
      await token("supervisor@zx.demo"),
      {
        reason: "urgent",
      },
    );
    expect(approve.status).toBe(409);
    expect(((await approve.json()) as { type: string }).type).toMatch(/airport-frozen$/);
    const lifted = await t.call("POST", "/v1/admin/airport-freezes/lift", admin, {
      airport: "JFK",
      reason: "over",
    });
    expect(lifted.status).toBe(204);
  });

  it("lets only an ADMIN set or lift a freeze", async () => {
    for (const who of ["supervisor@zx.demo", "operator@zx.demo", "finance@zx.demo"]) {
      const response = await t.call("POST", "/v1/admin/airport-freezes", await token(who), {
        airport: "BOS",
        reason: "x",
      });
      expect(response.status).toBe(403);
    }
    const bad = await t.call("POST", "/v1/admin/airport-freezes", await token("admin@zx.demo"), {
      airport: "boston",
      reason: "x",
    });
    expect(bad.status).toBe(400);
  });
});
