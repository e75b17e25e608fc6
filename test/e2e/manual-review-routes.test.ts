import { recordRankedWave } from "../support/ranked-wave.js";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseActor } from "../../actors/CaseActor.js";
import type { AuditEntry } from "../../src/app/audit-entry.js";
import { POLICY_OVERRIDES_COLLECTION } from "../../src/app/policies/policy-overrides.js";
import { reviewItemUrnForRequest } from "../../src/app/manual-review/review-item-addresses.js";
import type { ReviewQueueEntry } from "../../src/app/manual-review/review-queue-index.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { json } from "../support/responses.js";
import { recordEvents } from "../support/event-recorder.js";

const ZX = "urn:airline:ZX";
const VQ = "urn:airline:VQ";
const ERRORS = "https://errors.svc.example/v1";
const enc = encodeURIComponent;

let t: TestPlatform;
const tokens: Record<string, string> = {};
const published: DomainEvent[] = [];
let cases = 0;

const USERS = [
  "admin@zx.demo",
  "supervisor@zx.demo",
  "operator@zx.demo",
  "operator.jfk@zx.demo",
  "finance@zx.demo",
  "supervisor@vq.demo",
  "operator@vq.demo",
];

beforeAll(async () => {
  t = await startTestPlatform({ env: { RATE_LIMIT_SCALE: "20" } });
  for (const user of USERS) tokens[user] = await t.operatorToken(user);
  for (const tenant of [ZX, VQ]) {
    recordEvents(
      t.platform.runtime.bus,
      {
        name: `test.manual-review.${tenant}`,
        topic: topicFor({ tenant }),
        types: ["booking.group-requested", "allocation.rerun-requested", "review-item.assigned"],
      },
      published,
    );
  }
});
afterAll(async () => {
  await t?.close();
});

const call = (method: string, path: string, who: string, body?: unknown) =>
  t.call(method, path, tokens[who] ?? who, body);

const v1 = (urn: string, action?: string) =>
  `/v1/booking/manual-review/${enc(urn)}${action ? `/${action}` : ""}`;
const manual = (urn: string, action: string) => `/manual-review/${enc(urn)}/${action}`;
/** The URN of a review item nobody raised. */
const unknownItem = () => `urn:review-item:${randomUUID()}`;

/** Opens a case over HTTP: groups G<n>A (two economy passengers) and G<n>B (one). */
async function openCase(options: { origin?: string; who?: string; mixedTier?: boolean } = {}) {
  const n = ++cases;
  const { origin = "JFK", who = "supervisor@zx.demo", mixedTier = false } = options;
  const body = await json(
    await call("POST", "/v1/cases", who, {
      externalEventId: `manual-review-e2e-${n}-${randomUUID()}`,
      flight: {
        number: `ZX${500 + n}`,
        origin,
        destination: "MAD",
        scheduledDeparture: "2026-12-01T22:00:00Z",
        status: "CANCELLED",
      },
      nextFlight: { number: `ZX${600 + n}`, scheduledDeparture: "2026-12-02T18:00:00Z" },
      passengerGroups: [
        {
          id: `G${n}A`,
          pnr: `PNRA${n}`,
          passengers: [
            { id: `p${n}a1`, lastName: "Rivera", tier: "ECONOMY", contact: { email: "rivera@example.com" } },
            { id: `p${n}a2`, lastName: "Rivera", tier: mixedTier ? "BUSINESS" : "ECONOMY" },
          ],
        },
        {
          id: `G${n}B`,
          pnr: `PNRB${n}`,
          passengers: [
            { id: `p${n}b1`, lastName: "Okafor", tier: "ECONOMY", contact: { email: "o@example.com" } },
          ],
        },
      ],
    }),
    201,
  );
  return {
    caseUrn: body.urn as string,
    groups: [`G${n}A`, `G${n}B`],
    tenant: who.endsWith("vq.demo") ? VQ : ZX,
  };
}

/** What booking publishes when it gives up on groups (`review-item.requested`); returns the item's URN. */
async function requestItem(
  open: { caseUrn: string; groups: string[]; tenant: string },
  category = "PARTIAL_FULFILLMENT",
  affectedGroups = [open.groups[1]!],
  occurredAt = new Date(t.platform.runtime.clock.now()).toISOString(),
): Promise<string> {
  const id = `urn:event:${randomUUID()}`;
  await t.platform.runtime.bus.publish(topicFor({ tenant: open.tenant }), {
    id,
    type: "review-item.requested",
    tenant: open.tenant,
    occurredAt,
    correlationUrn: "urn:trace:manual-review-e2e",
    caseUrn: open.caseUrn,
    data: {
      caseUrn: open.caseUrn,
      category,
      attemptedHotels: [
        { hotelUrn: "urn:hotel:full-one", reason: "hotel-full", providerError: "NO_AVAILABILITY" },
      ],
      affectedGroups,
      reason: "no room for the group",
    },
  });
  const urn = reviewItemUrnForRequest(id);
  await expect.poll(() => entry(urn)).toBeDefined();
  return urn;
}

const entry = (urn: string) =>
  t.platform.runtime.documents.collection<ReviewQueueEntry>("review-items").get(urn);

const auditOf = async (urn: string, tenant = ZX): Promise<AuditEntry[]> =>
  (await t.platform.audit.query({ tenant, entityUrn: urn, limit: 500 })).items;

/** The item the case itself raised for a category (MIXED_TIER_GROUP, POLICY_VIOLATION...). */
async function raisedItem(caseUrn: string, category: string): Promise<ReviewQueueEntry> {
  const items = t.platform.runtime.documents.collection<ReviewQueueEntry>("review-items");
  await expect.poll(async () => (await items.findOne({ caseUrn, category }))?.revision).toBeDefined();
  return (await items.findOne({ caseUrn, category }))!;
}

async function serviceOperators(count: number): Promise<{ token: string; actorUrn: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async () =>
      json<{ token: string; actorUrn: string }>(
        await call("POST", "/v1/admin/service-tokens", "admin@zx.demo", {
          role: "AIRPORT_OPERATOR",
          ttlSeconds: 3600,
        }),
        201,
      ),
    ),
  );
}

describe("items entering the queue", () => {
  it("a review-item.requested becomes one item with the spec 2.5 fields, once however often it is delivered", async () => {
    const open = await openCase();
    const id = `urn:event:${randomUUID()}`;
    const event: DomainEvent = {
      id,
      type: "review-item.requested",
      tenant: ZX,
      occurredAt: new Date(t.platform.runtime.clock.now()).toISOString(),
      correlationUrn: "urn:trace:twice",
      caseUrn: open.caseUrn,
      data: {
        caseUrn: open.caseUrn,
        category: "BOOKING_FAILED",
        attemptedHotels: [
          { hotelUrn: "urn:hotel:h1", reason: "payment-refused", providerError: "INVALID_PAYMENT_INFO" },
        ],
        affectedGroups: open.groups,
        reason: "every hotel refused",
      },
    };
    await t.platform.runtime.bus.publish(topicFor({ tenant: ZX }), event);
    await t.platform.runtime.bus.publish(topicFor({ tenant: ZX }), event);
    const urn = reviewItemUrnForRequest(id);
    const item = await json(await call("GET", v1(urn), "supervisor@zx.demo"), 200);
    expect(item).toMatchObject({
      urn,
      caseUrn: open.caseUrn,
      airport: "JFK",
      category: "BOOKING_FAILED",
      priority: "HIGH",
      attemptedHotels: [
        { hotelUrn: "urn:hotel:h1", reason: "payment-refused", providerError: "INVALID_PAYMENT_INFO" },
      ],
      affectedGroups: open.groups,
      state: "OPEN",
      assignedTo: null,
      raisedBy: "booking",
    });
    expect(Array.isArray(item.recommendations)).toBe(true);
    expect(item.tenant).toBeUndefined();
    const page = await json(
      await call("GET", "/v1/booking/manual-review?category=BOOKING_FAILED&limit=200", "supervisor@zx.demo"),
      200,
    );
    expect(page.items.filter((i: { urn: string }) => i.urn === urn)).toHaveLength(1);
  });

  it("items the case raises join the queue and can be worked like the others", async () => {
    const open = await openCase({ mixedTier: true });
    const raised = await raisedItem(open.caseUrn, "MIXED_TIER_GROUP");
    expect(raised).toMatchObject({
      state: "OPEN",
      priority: "LOW",
      raisedBy: "case",
      affectedGroups: [open.groups[0]],
    });
    const claimed = await json(await call("POST", manual(raised.urn, "claim"), "operator@zx.demo"), 200);
    expect(claimed).toMatchObject({ state: "ASSIGNED", assignedTo: "urn:user:zx-operator" });
  });

  it("the queue shows the agent's recommendations from the case's latest wave", async () => {
    const open = await openCase();
    await recordRankedWave(t.platform, ZX, open.caseUrn, [open.groups[0]!, open.groups[1]!]);
    const urn = await requestItem(open);
    const item = await json(await call("GET", v1(urn), "supervisor@zx.demo"), 200);
    expect(item.recommendations).toEqual([
      { action: "rebook", hotelUrn: "urn:hotel:spare", reason: expect.any(String), source: "agent" },
      { action: "relaxPolicy", fields: { maxDistanceKm: 35 }, reason: expect.any(String), source: "agent" },
    ]);
  });
});

describe("GET /v1/booking/manual-review", () => {
  it("lists the tenant's items, HIGH first then oldest first, filtered by category, priority and state, by cursor", async () => {
    const open = await openCase();
    // Raised a second apart, so that age orders the two of the same priority.
    const at = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
    const partial = await requestItem(open, "PARTIAL_FULFILLMENT", [open.groups[1]!], at(0));
    const failed = await requestItem(open, "BOOKING_FAILED", [open.groups[1]!], at(1));
    const payment = await requestItem(open, "PAYMENT_FAILED", [open.groups[1]!], at(2));
    const mine = new Set([partial, failed, payment]);
    const all = await json(
      await call("GET", "/v1/booking/manual-review?limit=200", "supervisor@zx.demo"),
      200,
    );
    const ranks = { HIGH: 0, MEDIUM: 1, LOW: 2 } as Record<string, number>;
    const order = all.items.map((i: { priority: string; createdAt: string }) => [
      ranks[i.priority],
      i.createdAt,
    ]);
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1])));
    expect(
      all.items.filter((i: { urn: string }) => mine.has(i.urn)).map((i: { urn: string }) => i.urn),
    ).toEqual([failed, partial, payment]);
    expect(
      all.items.every((i: { urn: string; caseUrn: string }) => i.urn.startsWith("urn:review-item:")),
    ).toBe(true);

    const medium = await json(
      await call("GET", "/v1/booking/manual-review?priority=MEDIUM&limit=200", "supervisor@zx.demo"),
      200,
    );
    expect(medium.items.every((i: { priority: string }) => i.priority === "MEDIUM")).toBe(true);
    expect(medium.items.map((i: { urn: string }) => i.urn)).toEqual(
      expect.arrayContaining([partial, payment]),
    );

    await json(await call("POST", manual(payment, "claim"), "operator@zx.demo"), 200);
    const assigned = await json(
      await call(
        "GET",
        "/v1/booking/manual-review?state=ASSIGNED&category=PAYMENT_FAILED&limit=200",
        "supervisor@zx.demo",
      ),
      200,
    );
    expect(assigned.items.map((i: { urn: string }) => i.urn)).toContain(payment);
    expect(
      assigned.items.every(
        (i: { state: string; category: string }) => i.state === "ASSIGNED" && i.category === "PAYMENT_FAILED",
      ),
    ).toBe(true);

    const first = await json(
      await call("GET", "/v1/booking/manual-review?limit=1", "supervisor@zx.demo"),
      200,
    );
    expect(first).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
    const second = await json(
      await call(
        "GET",
        `/v1/booking/manual-review?limit=1&cursor=${enc(first.nextCursor)}`,
        "supervisor@zx.demo",
      ),
      200,
    );
    expect(second.items[0].urn).toBe(all.items[1].urn);
  });

  it("shows no other airline's items", async () => {
    const vq = await openCase({ origin: "LHR", who: "supervisor@vq.demo" });
    const vqItem = await requestItem(vq);
    const zx = await json(
      await call("GET", "/v1/booking/manual-review?limit=200", "supervisor@zx.demo"),
      200,
    );
    expect(zx.items.map((i: { urn: string }) => i.urn)).not.toContain(vqItem);
    const own = await json(
      await call("GET", "/v1/booking/manual-review?limit=200", "supervisor@vq.demo"),
      200,
    );
    expect(own.items.map((i: { urn: string }) => i.urn)).toContain(vqItem);
  });

  it.each([
    ["operator@zx.demo", 403],
    ["finance@zx.demo", 403],
  ])("refuses %s with %d", async (who, status) => {
    expect((await call("GET", "/v1/booking/manual-review", who)).status).toBe(status);
  });

  it.each(["category=NOPE", "priority=URGENT", "state=CLOSED", "limit=0", "offset=10"])(
    "refuses the query %s with 400",
    async (query) => {
      const response = await call("GET", `/v1/booking/manual-review?${query}`, "supervisor@zx.demo");
      expect(response.status).toBe(400);
    },
  );
});

describe("claim (field manual)", () => {
  it("gives the item to the caller; a repeat changes nothing; audited", async () => {
    const urn = await requestItem(await openCase());
    const claimed = await json(await call("POST", manual(urn, "claim"), "operator.jfk@zx.demo"), 200);
    expect(claimed).toMatchObject({ urn, state: "ASSIGNED", assignedTo: "urn:user:zx-operator-jfk" });
    expect((await json(await call("POST", manual(urn, "claim"), "operator.jfk@zx.demo"), 200)).version).toBe(
      claimed.version,
    );
    expect((await entry(urn))?.assignedTo).toBe("urn:user:zx-operator-jfk");
    expect(await auditOf(urn)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: "review-item.claimed",
          actorUrn: "urn:user:zx-operator-jfk",
          before: { state: "OPEN", assignedTo: null },
          after: { state: "ASSIGNED", assignedTo: "urn:user:zx-operator-jfk" },
        }),
        expect.objectContaining({ action: "review-item.claim", outcome: { status: 200 } }),
      ]),
    );
  });

  it("of ten operators claiming at once, one wins and nine get 409 naming the winner", async () => {
    const urn = await requestItem(await openCase());
    const operators = await serviceOperators(10);
    const responses = await Promise.all(
      operators.map(({ token }) => t.call("POST", manual(urn, "claim"), token)),
    );
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const winners = bodies.filter((_, i) => responses[i]!.status === 200);
    expect(winners).toHaveLength(1);
    expect(operators.map((o) => o.actorUrn)).toContain(winners[0].assignedTo);
    const losers = bodies.filter((_, i) => responses[i]!.status === 409);
    expect(losers).toHaveLength(9);
    for (const loser of losers) {
      expect(loser).toMatchObject({
        type: `${ERRORS}/conflict/review-item-assigned`,
        assignedTo: winners[0].assignedTo,
      });
    }
  });

  it.each([
    ["another airline's operator", "operator@vq.demo", 403],
    ["an operator of another airport", "operator.jfk@zx.demo", 403],
    ["a finance auditor", "finance@zx.demo", 403],
  ])("refuses %s", async (_who, user, status) => {
    const urn = await requestItem(await openCase({ origin: "BOS" }));
    expect((await call("POST", manual(urn, "claim"), user)).status).toBe(status);
  });

  it("404 for an unknown item, 400 for a URN of another kind or a body", async () => {
    const unknown = await call("POST", manual(unknownItem(), "claim"), "operator@zx.demo");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).type).toBe(`${ERRORS}/not-found/review-item-not-found`);
    expect((await call("POST", manual("urn:case:x", "claim"), "operator@zx.demo")).status).toBe(400);
    const urn = await requestItem(await openCase());
    expect((await call("POST", manual(urn, "claim"), "operator@zx.demo", { assignee: "me" })).status).toBe(
      400,
    );
  });
});

describe("POST /v1/booking/manual-review/{urn}/assign", () => {
  it("assigns to a user of the airline, or the caller by default, whoever held it", async () => {
    const urn = await requestItem(await openCase());
    await json(await call("POST", manual(urn, "claim"), "operator.jfk@zx.demo"), 200);
    const assigned = await json(
      await call("POST", v1(urn, "assign"), "supervisor@zx.demo", { assignee: "urn:user:zx-operator" }),
      200,
    );
    expect(assigned).toMatchObject({ state: "ASSIGNED", assignedTo: "urn:user:zx-operator" });
    const self = await json(await call("POST", v1(urn, "assign"), "supervisor@zx.demo", {}), 200);
    expect(self.assignedTo).toBe("urn:user:zx-supervisor");
    expect(
      published.filter((e) => e.type === "review-item.assigned" && (e.data as { urn: string }).urn === urn),
    ).toHaveLength(3);
  });

  it.each([
    ["a user of another airline", "urn:user:vq-operator"],
    ["a read-only auditor", "urn:user:zx-finance"],
    ["an operator of another airport", "urn:user:zx-operator-jfk"],
    ["nobody known", "urn:user:ghost"],
  ])("refuses %s as assignee with 422", async (_who, assignee) => {
    const urn = await requestItem(await openCase({ origin: "BOS" }));
    const response = await call("POST", v1(urn, "assign"), "supervisor@zx.demo", { assignee });
    expect(response.status).toBe(422);
    expect((await response.json()).type).toBe(`${ERRORS}/unprocessable/assignee-not-allowed`);
  });

  it("refuses operators, other airlines, bad bodies and unknown items", async () => {
    const urn = await requestItem(await openCase());
    expect((await call("POST", v1(urn, "assign"), "operator@zx.demo", {})).status).toBe(403);
    expect((await call("POST", v1(urn, "assign"), "supervisor@vq.demo", {})).status).toBe(403);
    const bad = await call("POST", v1(urn, "assign"), "supervisor@zx.demo", { assignee: "zx-operator" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([expect.objectContaining({ in: "body", field: "/assignee" })]);
    expect((await call("POST", v1(unknownItem(), "assign"), "supervisor@zx.demo", {})).status).toBe(404);
  });
});

describe("POST /v1/booking/manual-review/{urn}/escalate", () => {
  it("raises the priority one level, releases the assignee and records the reason", async () => {
    const urn = await requestItem(await openCase(), "PAYMENT_FAILED");
    await json(await call("POST", manual(urn, "claim"), "operator@zx.demo"), 200);
    const escalated = await json(
      await call("POST", v1(urn, "escalate"), "supervisor@zx.demo", { reason: "card issuer down" }),
      200,
    );
    expect(escalated).toMatchObject({ state: "ESCALATED", priority: "HIGH", assignedTo: null });
    expect(await auditOf(urn)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: "review-item.escalated",
          actorUrn: "urn:user:zx-supervisor",
          reason: "card issuer down",
          before: expect.objectContaining({ priority: "MEDIUM" }),
          after: expect.objectContaining({ priority: "HIGH", state: "ESCALATED" }),
        }),
      ]),
    );
  });

  it("refuses operators, other airlines, a missing reason and unknown items", async () => {
    const urn = await requestItem(await openCase());
    expect((await call("POST", v1(urn, "escalate"), "operator@zx.demo", { reason: "x" })).status).toBe(403);
    expect((await call("POST", v1(urn, "escalate"), "supervisor@vq.demo", { reason: "x" })).status).toBe(403);
    const bad = await call("POST", v1(urn, "escalate"), "supervisor@zx.demo", {});
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toEqual([expect.objectContaining({ in: "body" })]);
    expect(
      (
        await call("POST", v1(unknownItem(), "escalate"), "supervisor@zx.demo", {
          reason: "x",
        })
      ).status,
    ).toBe(404);
  });
});

describe("resolve (both forms)", () => {
  it("a supervisor resolves an item someone else holds; it cannot be resolved twice", async () => {
    const urn = await requestItem(await openCase());
    await json(await call("POST", manual(urn, "claim"), "operator@zx.demo"), 200);
    const resolved = await json(
      await call("POST", v1(urn, "resolve"), "supervisor@zx.demo", {
        resolution: "REBOOKED",
        reason: "booked by phone",
      }),
      200,
    );
    expect(resolved).toMatchObject({
      state: "RESOLVED",
      assignedTo: "urn:user:zx-supervisor",
      slaDueAt: null,
      resolution: { resolution: "REBOOKED", reason: "booked by phone", by: "urn:user:zx-supervisor" },
    });
    const again = await call("POST", manual(urn, "resolve"), "supervisor@zx.demo", {
      resolution: "REBOOKED",
      reason: "x",
    });
    expect(again.status).toBe(409);
    expect((await again.json()).type).toBe(`${ERRORS}/conflict/review-item-resolved`);
    expect(await auditOf(urn)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: "review-item.resolved",
          reason: "booked by phone",
          actorUrn: "urn:user:zx-supervisor",
        }),
      ]),
    );
  });

  it("an airport operator resolves at its airport only, and not an item another operator holds", async () => {
    const jfk = await requestItem(await openCase({ origin: "JFK" }));
    const bos = await requestItem(await openCase({ origin: "BOS" }));
    const body = { resolution: "REBOOKED", reason: "rebooked at the desk" };
    expect((await call("POST", manual(bos, "resolve"), "operator.jfk@zx.demo", body)).status).toBe(403);
    await json(await call("POST", manual(jfk, "claim"), "operator@zx.demo"), 200);
    const held = await call("POST", manual(jfk, "resolve"), "operator.jfk@zx.demo", body);
    expect(held.status).toBe(409);
    expect(await held.json()).toMatchObject({ assignedTo: "urn:user:zx-operator" });
    await json(
      await call("POST", v1(jfk, "assign"), "supervisor@zx.demo", { assignee: "urn:user:zx-operator-jfk" }),
      200,
    );
    expect(
      (await json(await call("POST", manual(jfk, "resolve"), "operator.jfk@zx.demo", body), 200)).state,
    ).toBe("RESOLVED");
  });

  it("returns a case held in MANUAL_REVIEW to the normal flow, with who and why in the case's audit", async () => {
    const open = await openCase();
    const caseId = open.caseUrn.slice("urn:case:".length);
    await t.platform.runtime.actors.invoke(CaseActor, caseId, "toManualReview", {
      reason: "no policy matched",
      by: "urn:system:test",
      correlationUrn: "urn:trace:policy",
    });
    const item = await raisedItem(open.caseUrn, "POLICY_VIOLATION");
    const resolved = await json(
      await call("POST", manual(item.urn, "resolve"), "operator.jfk@zx.demo", {
        resolution: "POLICY_ADDED",
        reason: "policy for JFK activated",
      }),
      200,
    );
    expect(resolved.state).toBe("RESOLVED");
    const detail = await json(await call("GET", `/v1/cases/${enc(open.caseUrn)}`, "supervisor@zx.demo"), 200);
    expect(detail.status).toBe("OPEN");
    const trail = (
      await t.platform.audit.query({
        tenant: ZX,
        caseUrn: open.caseUrn,
        action: "case.returned-to-flow",
        limit: 500,
      })
    ).items.filter((e) => e.caseUrn === open.caseUrn);
    expect(trail).toEqual([
      expect.objectContaining({
        actorUrn: "urn:user:zx-operator-jfk",
        reason: expect.stringContaining("policy for JFK activated"),
        before: { status: "MANUAL_REVIEW" },
        after: { status: "OPEN" },
      }),
    ]);
  });

  it("refuses wrong roles, other airlines, bad bodies and unknown items", async () => {
    const urn = await requestItem(await openCase());
    const body = { resolution: "REBOOKED", reason: "x" };
    expect((await call("POST", v1(urn, "resolve"), "operator@zx.demo", body)).status).toBe(403);
    expect((await call("POST", manual(urn, "resolve"), "finance@zx.demo", body)).status).toBe(403);
    expect((await call("POST", manual(urn, "resolve"), "operator@vq.demo", body)).status).toBe(403);
    expect((await call("POST", v1(urn, "resolve"), "supervisor@vq.demo", body)).status).toBe(403);
    for (const bad of [
      { resolution: "rebooked", reason: "x" },
      { resolution: "REBOOKED" },
      { ...body, extra: 1 },
    ]) {
      const response = await call("POST", v1(urn, "resolve"), "supervisor@zx.demo", bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await call("POST", manual(unknownItem(), "resolve"), "operator@zx.demo", body)).status).toBe(404);
  });
});

describe("rebook and override", () => {
  it("rebook asks booking for each affected group, claims the item and is audited", async () => {
    const open = await openCase();
    const urn = await requestItem(open, "PARTIAL_FULFILLMENT", open.groups);
    const accepted = await json(
      await call("POST", manual(urn, "rebook"), "operator@zx.demo", {
        hotelUrn: "urn:hotel:spare",
        reason: "rooms at the spare",
      }),
      202,
    );
    expect(accepted).toMatchObject({
      assignedTo: "urn:user:zx-operator",
      rebooking: {
        kind: "rebook",
        hotelUrn: "urn:hotel:spare",
        providerOfferId: null,
        requestedBy: "urn:user:zx-operator",
        groups: open.groups.map((groupId) => ({ groupId, status: "REQUESTED" })),
      },
    });
    await expect
      .poll(() =>
        published
          .filter(
            (e) =>
              e.type === "booking.group-requested" &&
              (e.data as { reviewItemUrn: string }).reviewItemUrn === urn,
          )
          .map((e) => e.data),
      )
      .toEqual(
        open.groups.map((groupId) => ({
          caseUrn: open.caseUrn,
          groupId,
          hotelUrn: "urn:hotel:spare",
          reviewItemUrn: urn,
          requestedBy: "urn:user:zx-operator",
        })),
      );
    expect(await auditOf(urn)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: "review-item.rebook-requested", reason: "rooms at the spare" }),
      ]),
    );
  });

  it("override names the provider offer and is for supervisors", async () => {
    const open = await openCase();
    const urn = await requestItem(open);
    const body = { hotelUrn: "urn:hotel:spare", providerOfferId: "offer-77", reason: "contract rate" };
    expect((await call("POST", manual(urn, "override"), "operator@zx.demo", body)).status).toBe(403);
    const accepted = await json(await call("POST", manual(urn, "override"), "supervisor@zx.demo", body), 202);
    expect(accepted.rebooking).toMatchObject({ kind: "override", providerOfferId: "offer-77" });
    await expect
      .poll(() =>
        published.some(
          (e) =>
            e.type === "booking.group-requested" &&
            (e.data as { providerOfferId?: string }).providerOfferId === "offer-77",
        ),
      )
      .toBe(true);
  });

  it("refuses other airlines and airports, an item another operator holds, bad bodies and unknown items", async () => {
    const urn = await requestItem(await openCase());
    const body = { hotelUrn: "urn:hotel:x", reason: "x" };
    const atBoston = await requestItem(await openCase({ origin: "BOS" }));
    expect((await call("POST", manual(atBoston, "rebook"), "operator.jfk@zx.demo", body)).status).toBe(403);
    expect((await call("POST", manual(urn, "rebook"), "operator@vq.demo", body)).status).toBe(403);
    expect((await call("POST", manual(urn, "rebook"), "finance@zx.demo", body)).status).toBe(403);
    await json(await call("POST", manual(urn, "claim"), "operator.jfk@zx.demo"), 200);
    expect((await call("POST", manual(urn, "rebook"), "operator@zx.demo", body)).status).toBe(409);
    for (const bad of [
      { hotelUrn: "urn:case:x", reason: "x" },
      { hotelUrn: "urn:hotel:x" },
      { reason: "x" },
    ]) {
      expect(
        (await call("POST", manual(urn, "rebook"), "operator.jfk@zx.demo", bad)).status,
        JSON.stringify(bad),
      ).toBe(400);
    }
    expect(
      (
        await call("POST", manual(urn, "override"), "supervisor@zx.demo", {
          hotelUrn: "urn:hotel:x",
          reason: "x",
        })
      ).status,
    ).toBe(400);
    expect((await call("POST", manual(unknownItem(), "rebook"), "operator@zx.demo", body)).status).toBe(404);
  });
});

describe("relax", () => {
  it("stores a per-case policy override and asks allocation to run the wave again", async () => {
    const open = await openCase();
    const urn = await requestItem(open, "ALLOCATION_FAILED");
    const relaxed = await json(
      await call("POST", manual(urn, "relax"), "supervisor@zx.demo", {
        fields: { maxDistanceKm: 35, minStars: null },
        reason: "nothing within 25 km tonight",
      }),
      202,
    );
    expect(relaxed.relaxations).toEqual([
      expect.objectContaining({
        fields: { maxDistanceKm: 35, minStars: null },
        by: "urn:user:zx-supervisor",
      }),
    ]);
    const override = await t.platform.runtime.documents
      .collection(POLICY_OVERRIDES_COLLECTION)
      .get(open.caseUrn);
    expect(override).toMatchObject({
      tenant: ZX,
      caseUrn: open.caseUrn,
      fields: { maxDistanceKm: 35, minStars: null },
      by: "urn:user:zx-supervisor",
      reason: "nothing within 25 km tonight",
    });
    await expect
      .poll(
        () =>
          published.find((e) => e.type === "allocation.rerun-requested" && e.caseUrn === open.caseUrn)?.data,
      )
      .toMatchObject({ caseUrn: open.caseUrn, reason: "nothing within 25 km tonight", reviewItemUrn: urn });
    await json(
      await call("POST", manual(urn, "relax"), "supervisor@zx.demo", {
        fields: { maxNightlyRate: 250 },
        reason: "rates up",
      }),
      202,
    );
    expect(
      await t.platform.runtime.documents.collection(POLICY_OVERRIDES_COLLECTION).get(open.caseUrn),
    ).toMatchObject({
      fields: { maxDistanceKm: 35, minStars: null, maxNightlyRate: 250 },
      history: [
        expect.objectContaining({ reviewItemUrn: urn }),
        expect.objectContaining({ reason: "rates up" }),
      ],
    });
  });

  it("validates the fields against the policy constraint schema", async () => {
    const urn = await requestItem(await openCase());
    for (const fields of [
      { maxDistanceKm: -1 },
      { minStars: 6 },
      { maxBananas: 3 },
      {},
      { requiredAmenities: ["SPA"] },
    ]) {
      const response = await call("POST", manual(urn, "relax"), "supervisor@zx.demo", {
        fields,
        reason: "x",
      });
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect((await response.json()).errors[0].field).toMatch(/^\/fields/);
    }
  });

  it("refuses operators, other airlines and unknown items", async () => {
    const urn = await requestItem(await openCase());
    const body = { fields: { maxDistanceKm: 30 }, reason: "x" };
    expect((await call("POST", manual(urn, "relax"), "operator@zx.demo", body)).status).toBe(403);
    expect((await call("POST", manual(urn, "relax"), "supervisor@vq.demo", body)).status).toBe(403);
    expect((await call("POST", manual(unknownItem(), "relax"), "supervisor@zx.demo", body)).status).toBe(404);
  });
});

describe("split", () => {
  it("splits the item's group through the case; the parts replace it on the item", async () => {
    const open = await openCase({ mixedTier: true });
    const item = await raisedItem(open.caseUrn, "MIXED_TIER_GROUP");
    const n = open.groups[0]!.slice(1, -1);
    const split = await json(
      await call("POST", manual(item.urn, "split"), "operator@zx.demo", {
        into: [[`p${n}a1`], [`p${n}a2`]],
        reason: "business passenger travels apart",
      }),
      200,
    );
    expect(split.affectedGroups).toEqual([`${open.groups[0]}-1`, `${open.groups[0]}-2`]);
    const detail = await json(await call("GET", `/v1/cases/${enc(open.caseUrn)}`, "supervisor@zx.demo"), 200);
    expect(detail.passengerGroups.map((g: { id: string }) => g.id)).toEqual(
      expect.arrayContaining([`${open.groups[0]}-1`, `${open.groups[0]}-2`, open.groups[1]]),
    );
    expect(await auditOf(item.urn)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: "review-item.split", reason: "business passenger travels apart" }),
      ]),
    );
  });

  it("refuses passengers outside the item's groups (422), bad bodies, wrong roles, tenants and airports, unknown items", async () => {
    const open = await openCase({ mixedTier: true, origin: "BOS" });
    const item = await raisedItem(open.caseUrn, "MIXED_TIER_GROUP");
    const n = open.groups[0]!.slice(1, -1);
    const parts = { into: [[`p${n}a1`], [`p${n}a2`]], reason: "x" };
    expect((await call("POST", manual(item.urn, "split"), "operator.jfk@zx.demo", parts)).status).toBe(403);
    const outside = await call("POST", manual(item.urn, "split"), "operator@zx.demo", {
      into: [[`p${n}b1`], [`p${n}a1`]],
      reason: "x",
    });
    expect(outside.status).toBe(422);
    expect((await outside.json()).type).toBe(`${ERRORS}/unprocessable/split-outside-item`);
    expect(
      (
        await call("POST", manual(item.urn, "split"), "operator@zx.demo", {
          into: [[`p${n}a1`]],
          reason: "x",
        })
      ).status,
    ).toBe(400);
    const body = { into: [[`p${n}a1`], [`p${n}a2`]], reason: "x" };
    expect((await call("POST", manual(item.urn, "split"), "finance@zx.demo", body)).status).toBe(403);
    expect((await call("POST", manual(item.urn, "split"), "operator@vq.demo", body)).status).toBe(403);
    expect((await call("POST", manual(unknownItem(), "split"), "operator@zx.demo", body)).status).toBe(404);
  });
});

describe("GET /v1/booking/manual-review/{urn}", () => {
  it("refuses other airlines, other airports and auditors", async () => {
    const urn = await requestItem(await openCase({ origin: "BOS" }));
    expect((await call("GET", v1(urn), "operator@zx.demo")).status).toBe(200);
    expect((await call("GET", v1(urn), "operator.jfk@zx.demo")).status).toBe(403);
    expect((await call("GET", v1(urn), "operator@vq.demo")).status).toBe(403);
    expect((await call("GET", v1(urn), "finance@zx.demo")).status).toBe(403);
  });
});
