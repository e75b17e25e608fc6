import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { urn } from "../../src/domain/urn.js";
import { publishEvent } from "../../src/runtime/event-bus.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";

let t: TestPlatform;
beforeAll(async () => {
  t = await startTestPlatform();
});
afterAll(async () => {
  await t?.close();
});

interface DeadLetterPage {
  items: Array<{
    subscription: string;
    topic: string;
    reason: string;
    deadLetteredAt: string;
    event: { id: string };
  }>;
  nextCursor: string | null;
  hasMore: boolean;
  total: number;
}

/** A relaxation rerun for a case that does not exist: allocation refuses it, and retrying cannot help. */
async function refusedRerun(tenant: string): Promise<string> {
  const id = urn("event");
  await publishEvent(t.platform.runtime.bus, {
    id,
    type: "allocation.rerun-requested",
    tenant,
    occurredAt: new Date().toISOString(),
    correlationUrn: urn("trace"),
    data: {
      caseUrn: "urn:case:00000000-0000-4000-8000-000000000000",
      reason: "relaxed",
      reviewItemUrn: "urn:review-item:00000000-0000-4000-8000-000000000000",
      requestedBy: "urn:user:someone",
      fields: {},
    },
  });
  return id;
}

describe("GET /v1/admin/dead-letters", () => {
  it("shows ADMINs the events their airline's subscriptions refused, newest first, paged, with the count", async () => {
    const admin = await t.operatorToken("admin@zx.demo");
    const empty = await t.call("GET", "/v1/admin/dead-letters", admin);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ items: [], nextCursor: null, hasMore: false, total: 0 });

    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await refusedRerun("urn:airline:ZX"));

    const first = (await (
      await t.call("GET", "/v1/admin/dead-letters?limit=2", admin)
    ).json()) as DeadLetterPage;
    expect(first.total).toBe(3);
    expect(first.hasMore).toBe(true);
    expect(first.items[0]).toMatchObject({
      subscription: "hotels.rerun-on-relaxation.urn:airline:ZX",
      topic: "events.urn.airline.ZX",
      reason: "dropped",
      event: { type: "allocation.rerun-requested", tenant: "urn:airline:ZX" },
    });
    const rest = (await (
      await t.call(
        "GET",
        `/v1/admin/dead-letters?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`,
        admin,
      )
    ).json()) as DeadLetterPage;
    expect(rest.hasMore).toBe(false);
    const seen = [...first.items, ...rest.items];
    expect(seen.map((l) => l.event.id).sort()).toEqual([...ids].sort());
    const times = seen.map((l) => l.deadLetteredAt);
    expect(times).toEqual([...times].sort().reverse());

    const otherAirline = await t.operatorToken("admin@vq.demo");
    expect(await (await t.call("GET", "/v1/admin/dead-letters", otherAirline)).json()).toMatchObject({
      items: [],
      total: 0,
    });
  });

  it("refuses anonymous callers with 401 and non-ADMINs with 403, as problem details", async () => {
    const anonymous = await t.call("GET", "/v1/admin/dead-letters");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toContain("application/problem+json");

    for (const user of ["supervisor@zx.demo", "finance@zx.demo"]) {
      const response = await t.call("GET", "/v1/admin/dead-letters", await t.operatorToken(user));
      expect(response.status).toBe(403);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      expect(await response.json()).toMatchObject({ status: 403 });
    }
  });

  it("refuses a cursor it did not issue with 400", async () => {
    const admin = await t.operatorToken("admin@zx.demo");
    const response = await t.call("GET", "/v1/admin/dead-letters?cursor=bm90LWEtY3Vyc29y", admin);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
  });

  it("answers 500 as a problem, naming nothing of the store, when the dead-letter store does not answer", async () => {
    const admin = await t.operatorToken("admin@zx.demo");
    const letters = t.platform.runtime.documents.collection("dead-letters");
    const down = vi
      .spyOn(letters, "find")
      .mockRejectedValue(new Error("connect ECONNREFUSED 127.0.0.1:27017"));
    try {
      const response = await t.call("GET", "/v1/admin/dead-letters", admin);
      expect(response.status).toBe(500);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      const problem = (await response.json()) as Record<string, unknown>;
      expect(problem).toMatchObject({ status: 500, instance: expect.stringMatching(/^urn:trace:/) });
      expect(JSON.stringify(problem)).not.toContain("ECONNREFUSED");
    } finally {
      down.mockRestore();
    }
    expect((await t.call("GET", "/v1/admin/dead-letters", admin)).status).toBe(200);
  });
});
