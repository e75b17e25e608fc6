import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/app/audit-entry.js";
import { POLICY_OVERRIDES_COLLECTION } from "../../src/app/policies/policy-overrides.js";
import type { DomainEvent } from "../../src/domain/domain-event.js";
import { topicFor } from "../../src/domain/domain-event.js";
import { startTestPlatform, type TestPlatform } from "../support/platform.js";
import { itemWithRecommendations } from "./exception-agent-fixture.js";
import { json } from "../support/responses.js";
import { recordEvents } from "../support/event-recorder.js";

const ZX = "urn:airline:ZX";
const ERRORS = "https://errors.svc.example/v1";
const SUPERVISOR = "urn:user:zx-supervisor";
const ADMIN = "urn:user:zx-admin";
const enc = encodeURIComponent;

let t: TestPlatform;
const tokens: Record<string, string> = {};
const published: DomainEvent[] = [];

const USERS = [
  "admin@zx.demo",
  "supervisor@zx.demo",
  "operator@zx.demo",
  "finance@zx.demo",
  "supervisor@vq.demo",
];

beforeAll(async () => {
  t = await startTestPlatform({ env: { RATE_LIMIT_SCALE: "20" } });
  for (const user of USERS) tokens[user] = await t.operatorToken(user);
  recordEvents(
    t.platform.runtime.bus,
    {
      name: "test.exception-agent",
      topic: topicFor({ tenant: ZX }),
      types: [
        "booking.group-requested",
        "agent-action.proposed",
        "agent-action.approved",
        "agent-action.rejected",
        "agent-action.executed",
      ],
    },
    published,
  );
});
afterAll(async () => {
  await t?.close();
});

const call = (method: string, path: string, who: string, body?: unknown) =>
  t.call(method, path, tokens[who] ?? who, body);
const agent = (urn: string, verb: string) => `/v1/agent/${enc(urn)}/${verb}`;
const auditOf = async (urn: string): Promise<AuditEntry[]> =>
  (await t.platform.audit.query({ tenant: ZX, entityUrn: urn, limit: 500 })).items;

interface Action {
  urn: string;
  tool: string;
  arguments: Record<string, unknown>;
  state: string;
  rank: number;
  irreversible: boolean;
  execution: { by: string; as: string; error: { code: string } | null } | null;
}

async function triage(itemUrn: string, who = "supervisor@zx.demo") {
  const body = await json(await call("POST", "/v1/agent/triage", who, { reviewItemUrn: itemUrn }), 200);
  return body.triages[0] as {
    reviewItemUrn: string;
    classification: { cause: string; explanation: string; evidence: unknown[] };
    proposals: Action[];
  };
}

describe("the operator OpenAPI document", () => {
  it("lists the four agent routes of spec 4.1", async () => {
    const document = (await (await t.call("GET", "/openapi/operator/v1.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const paths = Object.keys(document.paths).map((p) => p.replace(/\{[^}]+\}/g, "{}"));
    for (const path of [
      "/v1/agent/triage",
      "/v1/agent/{}/approve",
      "/v1/agent/{}/reject",
      "/v1/agent/{}/execute",
    ]) {
      expect(paths).toContain(path);
    }
  });
});

describe("the agent on a new review item", () => {
  it("proposes by itself when the item is created: the item's recommendations become its first proposals, audited", async () => {
    const { itemUrn } = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    await expect
      .poll(
        () =>
          published.filter(
            (e) =>
              e.type === "agent-action.proposed" &&
              (e.data as { reviewItemUrn: string }).reviewItemUrn === itemUrn,
          ).length,
      )
      .toBe(2);
    const proposed = published.filter(
      (e) =>
        e.type === "agent-action.proposed" && (e.data as { reviewItemUrn: string }).reviewItemUrn === itemUrn,
    );
    const result = await triage(itemUrn);
    // Triage finds the same actions the creation proposed.
    expect(result.proposals.map((p) => p.urn).sort()).toEqual(
      proposed.map((e) => (e.data as { urn: string }).urn).sort(),
    );
    const audit = await auditOf(result.proposals[0]!.urn);
    expect(audit.filter((e) => e.action === "agent-action.proposed")).toEqual([
      expect.objectContaining({ actorUrn: "urn:system:exception-agent", caseUrn: expect.any(String) }),
    ]);
  });
});

describe("POST /v1/agent/triage", () => {
  it("classifies the cause and proposes at most three actions ranked by viability, each with reason and evidence", async () => {
    const { itemUrn, caseUrn } = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    const result = await triage(itemUrn);
    expect(result.classification).toMatchObject({ cause: "HOTELS_FULL", explanation: expect.any(String) });
    expect(result.proposals.map((p) => [p.rank, p.tool, p.arguments, p.state, p.irreversible])).toEqual([
      [1, "proposeRebook", { hotelUrn: "urn:hotel:spare" }, "PROPOSED", true],
      [2, "relax", { fields: { maxDistanceKm: 35 } }, "PROPOSED", false],
    ]);
    for (const proposal of result.proposals) {
      expect(proposal).toMatchObject({ reason: expect.any(String), caseUrn, reviewItemUrn: itemUrn });
      expect((proposal as unknown as { evidence: unknown[] }).evidence.length).toBeGreaterThan(0);
    }
    const again = await triage(itemUrn);
    expect(again.proposals.map((p) => p.urn)).toEqual(result.proposals.map((p) => p.urn));

    const byCase = await json(await call("POST", "/v1/agent/triage", "supervisor@zx.demo", { caseUrn }), 200);
    expect(byCase.triages.map((x: { reviewItemUrn: string }) => x.reviewItemUrn)).toContain(itemUrn);
  });

  it("refuses roles below OPS_SUPERVISOR, another airline, an unknown item and a body naming neither or both", async () => {
    const { itemUrn, caseUrn } = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    for (const who of ["operator@zx.demo", "finance@zx.demo", "supervisor@vq.demo"]) {
      expect((await call("POST", "/v1/agent/triage", who, { reviewItemUrn: itemUrn })).status).toBe(403);
    }
    const unknown = await call("POST", "/v1/agent/triage", "supervisor@zx.demo", {
      reviewItemUrn: `urn:review-item:${randomUUID()}`,
    });
    expect(unknown.status).toBe(404);
    for (const body of [{}, { reviewItemUrn: itemUrn, caseUrn }]) {
      const refused = await call("POST", "/v1/agent/triage", "supervisor@zx.demo", body);
      expect(refused.status).toBe(422);
      expect((await refused.json()).type).toBe(`${ERRORS}/unprocessable/triage-subject`);
    }
    expect((await call("POST", "/v1/agent/triage", "supervisor@zx.demo", { tool: "book" })).status).toBe(400);
  });
});

describe("approve, reject, execute", () => {
  it("an unapproved rebook is refused; once approved it runs as the approver through the review queue, audited", async () => {
    const { itemUrn, groups } = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    const [rebook] = (await triage(itemUrn)).proposals;
    const early = await call("POST", agent(rebook!.urn, "execute"), "admin@zx.demo");
    expect(early.status).toBe(403);
    expect((await early.json()).type).toBe(`${ERRORS}/forbidden/agent-action-not-approved`);

    const approved = await json(
      await call("POST", agent(rebook!.urn, "approve"), "supervisor@zx.demo", { reason: "spare has rooms" }),
      200,
    );
    expect(approved).toMatchObject({
      state: "APPROVED",
      approval: { by: SUPERVISOR, reason: "spare has rooms" },
    });

    const executed = await json(await call("POST", agent(rebook!.urn, "execute"), "admin@zx.demo"), 200);
    expect(executed).toMatchObject({
      state: "EXECUTED",
      execution: { by: ADMIN, as: SUPERVISOR, error: null },
    });

    const item = await json(
      await call("GET", `/v1/booking/manual-review/${enc(itemUrn)}`, "supervisor@zx.demo"),
      200,
    );
    expect(item).toMatchObject({
      assignedTo: SUPERVISOR,
      rebooking: { kind: "rebook", hotelUrn: "urn:hotel:spare", requestedBy: SUPERVISOR },
    });
    await expect
      .poll(() =>
        published.some(
          (e) =>
            e.type === "booking.group-requested" &&
            (e.data as { reviewItemUrn: string }).reviewItemUrn === itemUrn &&
            (e.data as { requestedBy: string }).requestedBy === SUPERVISOR &&
            (e.data as { groupId: string }).groupId === groups[1],
        ),
      )
      .toBe(true);
    // The item's trail reads as the approver's own rebook; the action's trail has every step.
    const itemAudit = await auditOf(itemUrn);
    expect(itemAudit).toContainEqual(
      expect.objectContaining({ action: "review-item.rebook-requested", actorUrn: SUPERVISOR }),
    );
    const actionAudit = (await auditOf(rebook!.urn)).map((e) => [e.action, e.actorUrn]);
    expect(actionAudit).toEqual(
      expect.arrayContaining([
        ["agent-action.proposed", "urn:system:exception-agent"],
        ["agent-action.approved", SUPERVISOR],
        ["agent-action.executed", ADMIN],
      ]),
    );

    for (const verb of ["approve", "reject", "execute"]) {
      const late = await call("POST", agent(rebook!.urn, verb), "supervisor@zx.demo");
      expect(late.status).toBe(409);
      expect((await late.json()).type).toBe(`${ERRORS}/conflict/agent-action-decided`);
    }
  });

  it("a rejected action is neither approved nor executed (409); a reversible one nobody approved runs as the caller", async () => {
    const first = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    const [, relaxFirst] = (await triage(first.itemUrn)).proposals;
    const rejected = await json(
      await call("POST", agent(relaxFirst!.urn, "reject"), "supervisor@zx.demo", {
        reason: "keep the distance",
      }),
      200,
    );
    expect(rejected).toMatchObject({
      state: "REJECTED",
      rejection: { by: SUPERVISOR, reason: "keep the distance" },
    });
    for (const verb of ["approve", "execute"]) {
      expect((await call("POST", agent(relaxFirst!.urn, verb), "admin@zx.demo")).status).toBe(409);
    }

    const second = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    const [, relax] = (await triage(second.itemUrn)).proposals;
    expect(relax).toMatchObject({ tool: "relax", irreversible: false });
    const executed = await json(await call("POST", agent(relax!.urn, "execute"), "supervisor@zx.demo"), 200);
    expect(executed).toMatchObject({ state: "EXECUTED", execution: { as: SUPERVISOR, error: null } });
    const override = await t.platform.runtime.documents
      .collection<{ _id: string; fields: Record<string, unknown> }>(POLICY_OVERRIDES_COLLECTION)
      .get(second.caseUrn);
    expect(override?.fields).toMatchObject({ maxDistanceKm: 35 });
  });

  it("two executions at once: the review queue is asked once, the other caller gets 409", async () => {
    const { itemUrn } = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    const [rebook] = (await triage(itemUrn)).proposals;
    await json(await call("POST", agent(rebook!.urn, "approve"), "supervisor@zx.demo"), 200);
    const responses = await Promise.all([
      call("POST", agent(rebook!.urn, "execute"), "supervisor@zx.demo"),
      call("POST", agent(rebook!.urn, "execute"), "admin@zx.demo"),
    ]);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = await responses.find((r) => r.status === 200)!.json();
    expect(winner).toMatchObject({ state: "EXECUTED", execution: { as: SUPERVISOR, error: null } });
    const requests = published.filter(
      (e) =>
        e.type === "booking.group-requested" &&
        (e.data as { reviewItemUrn: string }).reviewItemUrn === itemUrn,
    );
    expect(requests).toHaveLength(1);
  });

  it("a mixed-tier group the case raised is split by tier: proposed when the item appears, executed through the queue", async () => {
    const opened = await json(
      await call("POST", "/v1/cases", "supervisor@zx.demo", {
        externalEventId: `exception-agent-mixed-${randomUUID()}`,
        flight: {
          number: "ZX990",
          origin: "JFK",
          destination: "MAD",
          scheduledDeparture: "2026-12-01T22:00:00Z",
          status: "CANCELLED",
        },
        nextFlight: { number: "ZX991", scheduledDeparture: "2026-12-02T18:00:00Z" },
        passengerGroups: [
          {
            id: "MIX",
            pnr: "PNRMIX",
            passengers: [
              { id: "m1", lastName: "Rivera", tier: "ECONOMY" },
              { id: "m2", lastName: "Rivera", tier: "BUSINESS" },
              { id: "m3", lastName: "Rivera", tier: "ECONOMY" },
            ],
          },
        ],
      }),
      201,
    );
    const items = t.platform.runtime.documents.collection<{
      _id: string;
      urn: string;
      caseUrn: string;
      category: string;
    }>("review-items");
    await expect
      .poll(async () => items.findOne({ caseUrn: opened.urn, category: "MIXED_TIER_GROUP" }))
      .toBeDefined();
    const item = (await items.findOne({ caseUrn: opened.urn, category: "MIXED_TIER_GROUP" }))!;
    const result = await triage(item.urn);
    expect(result.classification.cause).toBe("MIXED_TIERS");
    expect(result.proposals).toEqual([
      expect.objectContaining({
        rank: 1,
        tool: "split",
        arguments: { into: [["m1", "m3"], ["m2"]] },
        irreversible: false,
      }),
    ]);
    const executed = await json(
      await call("POST", agent(result.proposals[0]!.urn, "execute"), "supervisor@zx.demo"),
      200,
    );
    expect(executed).toMatchObject({ state: "EXECUTED", execution: { as: SUPERVISOR, error: null } });
    const after = await json(
      await call("GET", `/v1/booking/manual-review/${enc(item.urn)}`, "supervisor@zx.demo"),
      200,
    );
    expect(after.affectedGroups).toEqual(["MIX-1", "MIX-2"]);
  });

  it("a review queue refusal leaves the action FAILED with the refusal", async () => {
    const { itemUrn } = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    const [rebook, relax] = (await triage(itemUrn)).proposals;
    await json(
      await call("POST", `/v1/booking/manual-review/${enc(itemUrn)}/resolve`, "supervisor@zx.demo", {
        resolution: "REBOOKED",
        reason: "booked by phone",
      }),
      200,
    );
    const failed = await json(await call("POST", agent(relax!.urn, "execute"), "supervisor@zx.demo"), 200);
    expect(failed).toMatchObject({ state: "FAILED", execution: { error: { code: "review-item-resolved" } } });
    expect(rebook!.state).toBe("PROPOSED");
  });

  it("refuses roles below OPS_SUPERVISOR and another airline (403), an unknown action (404), a URN of another kind (400)", async () => {
    const { itemUrn } = await itemWithRecommendations(t, tokens["supervisor@zx.demo"]!);
    const [rebook] = (await triage(itemUrn)).proposals;
    for (const who of ["operator@zx.demo", "finance@zx.demo", "supervisor@vq.demo"]) {
      for (const verb of ["approve", "reject", "execute"]) {
        expect((await call("POST", agent(rebook!.urn, verb), who)).status).toBe(403);
      }
    }
    const unknown = await call(
      "POST",
      agent(`urn:agent-action:${randomUUID()}`, "approve"),
      "supervisor@zx.demo",
    );
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).type).toBe(`${ERRORS}/not-found/agent-action-not-found`);
    expect((await call("POST", agent("urn:case:x", "approve"), "supervisor@zx.demo")).status).toBe(400);
    // Nothing the refused callers tried changed the action.
    expect((await triage(itemUrn)).proposals[0]!.state).toBe("PROPOSED");
  });
});
