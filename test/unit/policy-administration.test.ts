import { describe, expect, it } from "vitest";
import { PolicyContextActor } from "../../actors/PolicyContextActor.js";
import { AuditLog } from "../../src/app/audit-log.js";
import { DocumentAuditTrail } from "../../src/app/document-audit-trail.js";
import { PolicyAdministration } from "../../src/app/policies/policy-administration.js";
import {
  POLICIES_COLLECTION,
  type PolicyDocument,
  PolicyIndex,
} from "../../src/app/policies/policy-index.js";
import { writeRevisioned } from "../../src/app/revisioned-index.js";
import type { Policy, PolicyInput } from "../../src/domain/policy/policy.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { ServiceRole } from "../../src/domain/roles.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { EmbeddedActorRuntime } from "../../src/runtime/embedded/actor-runtime.js";
import { EmbeddedEventBus } from "../../src/runtime/embedded/event-bus.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { MemoryStateStore } from "../../src/runtime/memory/state-store.js";
import { operatorPrincipal } from "../support/principals.js";

const ZX = "urn:airline:ZX";

/** Admins and supervisors sign in with a second factor (spec 5.1). */
function principal(role: ServiceRole, overrides: Partial<OperatorPrincipal> = {}): OperatorPrincipal {
  return operatorPrincipal(role, { amr: ["pwd", "otp"], ...overrides });
}

const admin = principal("ADMIN");
const supervisor = principal("OPS_SUPERVISOR");

async function setup() {
  const clock = new ManualClock("2026-11-21T08:00:00Z");
  const bus = new EmbeddedEventBus({ clock });
  const actors = new EmbeddedActorRuntime({ store: new MemoryStateStore(), bus, clock });
  actors.register(PolicyContextActor);
  await actors.start();
  const documents = new MemoryDocumentStore();
  const audit = new AuditLog(new DocumentAuditTrail(documents), clock);
  const index = new PolicyIndex(documents);
  const policies = new PolicyAdministration(actors, index, audit);
  const request = (who: OperatorPrincipal, reason?: string) => ({
    principal: who,
    correlationUrn: "urn:trace:unit",
    ...(reason ? { reason } : {}),
  });
  const create = (input: Partial<PolicyInput> = {}, reason?: string) =>
    policies.create(request(supervisor, reason), {
      name: "JFK business",
      context: { airport: "JFK", airline: "ZX" },
      tiers: ["BUSINESS"],
      ...input,
    });
  const trail = async (urn: string) =>
    (await audit.query({ tenant: ZX, entityUrn: urn, limit: 100 })).items.map(
      ({ action, actorUrn, reason, before, after, at }) => ({ action, actorUrn, reason, before, after, at }),
    );
  const stored = (urn: string) => documents.collection<PolicyDocument>(POLICIES_COLLECTION).get(urn);
  return { clock, actors, documents, index, policies, request, create, trail, stored };
}

type Setup = Awaited<ReturnType<typeof setup>>;

interface PolicyRow {
  from: string;
  move: string;
  to: string;
  /** Brings a policy into `from` (and whatever the row needs around it). */
  arrange(s: Setup): Promise<{ policy: Policy; sibling?: Policy }>;
  act(s: Setup, policy: Policy): Promise<Policy>;
  also(s: Setup, result: { policy: Policy; after: Policy; sibling?: Policy }): Promise<void>;
}

/** Spec 3.2, one entry per row. */
const TABLE_3_2: PolicyRow[] = [
  {
    from: "(none)",
    move: "create",
    to: "DRAFT",
    arrange: async () => ({ policy: undefined as unknown as Policy }),
    act: (s) => s.create(),
    also: async (s) => {
      // A DRAFT policy has no effect.
      expect(await s.index.resolve(ZX, { airport: "JFK", tier: "BUSINESS" })).toBeUndefined();
    },
  },
  {
    from: "DRAFT",
    move: "activate",
    to: "ACTIVE",
    arrange: async (s) => {
      const sibling = await s.create({ name: "previous" });
      await s.policies.activate(s.request(admin), sibling.urn);
      return { policy: await s.create(), sibling };
    },
    act: (s, policy) => s.policies.activate(s.request(admin, "new season"), policy.urn),
    also: async (s, { after, sibling }) => {
      // The previous version of the same context becomes ARCHIVED, in the same turn.
      expect((await s.stored(sibling!.urn))?.status).toBe("ARCHIVED");
      expect((await s.index.resolve(ZX, { airport: "JFK", tier: "BUSINESS" }))?.urn).toBe(after.urn);
    },
  },
  {
    from: "ACTIVE",
    move: "deactivate",
    to: "ARCHIVED",
    arrange: async (s) => {
      const policy = await s.create();
      return { policy: await s.policies.activate(s.request(admin), policy.urn) };
    },
    act: (s, policy) => s.policies.deactivate(s.request(admin, "season over"), policy.urn),
    also: async (s) => {
      expect(await s.index.resolve(ZX, { airport: "JFK", tier: "BUSINESS" })).toBeUndefined();
    },
  },
  {
    from: "ARCHIVED",
    move: "activate (rollback)",
    to: "ACTIVE",
    arrange: async (s) => {
      const policy = await s.create({ name: "rolled back to" });
      await s.policies.activate(s.request(admin), policy.urn);
      const sibling = await s.create({ name: "superseding" });
      await s.policies.activate(s.request(admin), sibling.urn);
      return { policy: (await s.policies.get(admin, policy.urn)).current, sibling };
    },
    act: (s, policy) => s.policies.activate(s.request(admin, "rollback"), policy.urn),
    also: async (s, { after, sibling }) => {
      expect((await s.stored(sibling!.urn))?.status).toBe("ARCHIVED");
      expect((await s.index.resolve(ZX, { airport: "JFK", tier: "BUSINESS" }))?.urn).toBe(after.urn);
    },
  },
];

describe("policy states and transitions (spec 3.2)", () => {
  it.each(TABLE_3_2)("$from --$move--> $to", async (row) => {
    const s = await setup();
    const { policy, sibling } = await row.arrange(s);
    if (policy) expect(policy.status).toBe(row.from);
    await s.clock.advance(60_000);
    const after = await row.act(s, policy);
    expect(after.status).toBe(row.to);
    expect((await s.stored(after.urn))?.status).toBe(row.to);
    await row.also(s, { policy, after, ...(sibling ? { sibling } : {}) });

    // Last row of the table: every change writes an audit entry with actor, time, reason, before/after.
    const entries = await s.trail(after.urn);
    const last = entries.at(-1)!;
    expect(last).toMatchObject({ actorUrn: expect.stringMatching(/^urn:user:/), after: { status: row.to } });
    expect(Date.parse(last.at)).toBe(s.clock.now());
    expect(last.before).toEqual(row.from === "(none)" ? null : expect.objectContaining({ status: row.from }));
    if (row.move !== "create") expect(last.reason).toBeTruthy();
  });

  it("audits the archived sibling of an activation with a reason naming its successor", async () => {
    const s = await setup();
    const first = await s.create();
    await s.clock.advance(1000);
    await s.policies.activate(s.request(admin), first.urn);
    const second = await s.create();
    await s.clock.advance(1000);
    await s.policies.activate(s.request(admin, "winter"), second.urn);
    const entries = await s.trail(first.urn);
    expect(entries.map((e) => e.action)).toEqual(["policy.create", "policy.activate", "policy.deactivate"]);
    expect(entries[2]).toMatchObject({
      reason: `Superseded by ${second.urn} (version 1): winter`,
      before: { status: "ACTIVE" },
      after: { status: "ARCHIVED" },
    });
  });

  it("changes and audits nothing when activation or deactivation repeats", async () => {
    const s = await setup();
    const policy = await s.create();
    for (const step of [
      () => s.policies.activate(s.request(admin), policy.urn),
      () => s.policies.activate(s.request(admin), policy.urn),
      () => s.policies.deactivate(s.request(admin), policy.urn),
      () => s.policies.deactivate(s.request(admin), policy.urn),
    ]) {
      await s.clock.advance(1000);
      await step();
    }
    expect((await s.trail(policy.urn)).map((e) => e.action)).toEqual([
      "policy.create",
      "policy.activate",
      "policy.deactivate",
    ]);
  });

  it("leaves exactly one ACTIVE policy after 20 concurrent activations in one context", async () => {
    const s = await setup();
    const drafts = await Promise.all(Array.from({ length: 20 }, (_, i) => s.create({ name: `draft ${i}` })));
    const results = await Promise.all(drafts.map((d) => s.policies.activate(s.request(admin), d.urn)));
    expect(results.every((r) => r.status === "ACTIVE")).toBe(true);
    const stored = await s.documents
      .collection<PolicyDocument>(POLICIES_COLLECTION)
      .findAll({ tenant: ZX, contextKey: "JFK|ZX|BUSINESS" });
    expect(stored).toHaveLength(20);
    expect(stored.filter((p) => p.status === "ACTIVE")).toHaveLength(1);
    const actor = await Promise.all(drafts.map((d) => s.policies.get(admin, d.urn)));
    expect(actor.filter((h) => h.current.status === "ACTIVE").map((h) => h.current.urn)).toEqual(
      stored.filter((p) => p.status === "ACTIVE").map((p) => p.urn),
    );
  });

  it("keeps activations of different contexts independent", async () => {
    const s = await setup();
    const business = await s.create();
    const economy = await s.create({ tiers: ["ECONOMY"] });
    const everyTier = await s.create({ tiers: [] });
    for (const p of [business, economy, everyTier]) await s.policies.activate(s.request(admin), p.urn);
    const active = await s.index.activePage(ZX, undefined, { limit: 50 });
    expect(active.items.map((p) => p.urn).sort()).toEqual([business.urn, economy.urn, everyTier.urn].sort());
  });
});

describe("policy versions", () => {
  it("bumps the version on patch and keeps every version", async () => {
    const s = await setup();
    const policy = await s.create({ constraints: { minStars: 3 } });
    const patched = await s.policies.patch(s.request(supervisor, "stricter"), policy.urn, {
      constraints: { minStars: 4, maxDistanceKm: 12 },
    });
    expect(patched).toMatchObject({
      version: 2,
      status: "DRAFT",
      constraints: { minStars: 4, maxDistanceKm: 12 },
    });
    const history = await s.policies.get(admin, policy.urn);
    expect(history.versions.map((v) => [v.version, v.constraints.minStars])).toEqual([
      [1, 3],
      [2, 4],
    ]);
    expect((await s.trail(policy.urn)).find((e) => e.action === "policy.patch")).toMatchObject({
      reason: "stricter",
      before: { version: 1 },
      after: { version: 2 },
    });
  });

  it("restores an earlier version's rules as a new version when activating with a version", async () => {
    const s = await setup();
    const policy = await s.create({ constraints: { minStars: 3 } });
    await s.policies.activate(s.request(admin), policy.urn);
    await s.policies.patch(s.request(supervisor), policy.urn, {
      constraints: { minStars: 5, maxNightlyRate: 90 },
    });
    const restored = await s.policies.activate(s.request(admin, "v2 finds no hotels"), policy.urn, 1);
    expect(restored).toMatchObject({ version: 3, status: "ACTIVE", constraints: { minStars: 3 } });
    expect(restored.constraints.maxNightlyRate).toBeUndefined();
    expect((await s.index.resolve(ZX, { airport: "JFK", tier: "BUSINESS" }))?.version).toBe(3);
    await expect(s.policies.activate(s.request(admin), policy.urn, 7)).rejects.toMatchObject({
      kind: "not-found",
      code: "policy-version",
    });
  });

  it("refuses a patch that would move the policy to another tier set", async () => {
    const s = await setup();
    const policy = await s.create();
    await expect(
      s.policies.patch(s.request(supervisor), policy.urn, { tiers: ["FIRST"] }),
    ).rejects.toMatchObject({
      kind: "conflict",
      code: "policy-context-fixed",
    });
    const same = await s.policies.patch(s.request(supervisor), policy.urn, {
      tiers: ["BUSINESS"],
      name: "renamed",
    });
    expect(same).toMatchObject({ version: 2, name: "renamed" });
  });

  it("refuses to deactivate a DRAFT", async () => {
    const s = await setup();
    const policy = await s.create();
    await expect(s.policies.deactivate(s.request(admin), policy.urn)).rejects.toMatchObject({
      kind: "conflict",
      code: "policy-not-active",
    });
  });
});

describe("policy access", () => {
  it("refuses another airline's policies and policies for another airline's context", async () => {
    const s = await setup();
    const policy = await s.create();
    const otherAirline = principal("ADMIN", { tenant: "urn:airline:VQ" });
    await expect(s.policies.activate(s.request(otherAirline), policy.urn)).rejects.toMatchObject({
      kind: "forbidden",
      code: "tenant-mismatch",
    });
    await expect(s.policies.get(otherAirline, policy.urn)).rejects.toMatchObject({ kind: "forbidden" });
    await expect(
      s.policies.create(s.request(supervisor), { name: "VQ's", context: { airline: "VQ" } }),
    ).rejects.toMatchObject({ kind: "forbidden", code: "tenant-mismatch" });
  });

  it("keeps an airport-scoped caller to its airport's policies for changes, and lets it read every-airport ones", async () => {
    const s = await setup();
    const scoped = principal("ADMIN", { airport: "BOS" });
    const everywhere = await s.create({ context: {} });
    const jfk = await s.create();
    expect((await s.policies.get(scoped, everywhere.urn)).current.urn).toBe(everywhere.urn);
    await expect(s.policies.get(scoped, jfk.urn)).rejects.toMatchObject({
      kind: "forbidden",
      code: "airport-mismatch",
    });
    await expect(s.policies.activate(s.request(scoped), everywhere.urn)).rejects.toMatchObject({
      kind: "forbidden",
    });
    await expect(s.policies.create(s.request(scoped), { name: "x", context: {} })).rejects.toMatchObject({
      kind: "forbidden",
    });
    expect(
      await s.policies.create(s.request(scoped), { name: "x", context: { airport: "BOS" } }),
    ).toMatchObject({
      status: "DRAFT",
    });
  });

  it("answers not-found for URNs no policy has", async () => {
    const s = await setup();
    for (const urn of [
      "urn:policy:abc",
      "urn:policy:0123456789abcdef01234567.1",
      "urn:policy:0123456789abcdef01234567.x",
    ]) {
      await expect(s.policies.get(admin, urn)).rejects.toMatchObject({ kind: "not-found" });
      await expect(s.policies.activate(s.request(admin), urn)).rejects.toMatchObject({ kind: "not-found" });
    }
    const policy = await s.create();
    const sibling = policy.urn.replace(/\.1$/, ".2");
    await expect(s.policies.patch(s.request(supervisor), sibling, { name: "x" })).rejects.toMatchObject({
      kind: "not-found",
    });
  });
});

describe("policy resolution over the index (most specific wins)", () => {
  async function activeSet(s: Setup, inputs: Partial<PolicyInput>[]) {
    const urns: string[] = [];
    for (const input of inputs) {
      const policy = await s.create({ name: JSON.stringify(input), ...input });
      await s.policies.activate(s.request(admin), policy.urn);
      urns.push(policy.urn);
    }
    return urns;
  }

  it.each([
    [
      "an exact airport beats every airport",
      [
        { context: {}, tiers: [] },
        { context: { airport: "JFK" }, tiers: [] },
      ],
      { airport: "JFK" },
      1,
    ],
    [
      "then a policy listing the tier beats one for every tier",
      [
        { context: { airport: "JFK" }, tiers: [] },
        { context: { airport: "JFK" }, tiers: ["BUSINESS"] },
      ],
      { airport: "JFK", tier: "BUSINESS" },
      1,
    ],
    [
      "an exact airport still beats a tier match elsewhere",
      [
        { context: { airport: "JFK" }, tiers: [] },
        { context: {}, tiers: ["BUSINESS"] },
      ],
      { airport: "JFK", tier: "BUSINESS" },
      0,
    ],
    [
      "a shorter tier list beats a longer one",
      [
        { context: { airport: "JFK" }, tiers: ["BUSINESS", "FIRST"] },
        { context: { airport: "JFK" }, tiers: ["BUSINESS"] },
      ],
      { airport: "JFK", tier: "BUSINESS" },
      1,
    ],
    [
      "then an exact airline beats every airline",
      [
        { context: { airport: "JFK", airline: "*" }, tiers: [] },
        { context: { airport: "JFK", airline: "ZX" }, tiers: [] },
      ],
      { airport: "JFK" },
      1,
    ],
    [
      "a tier policy does not apply without a tier",
      [{ context: { airport: "JFK" }, tiers: ["BUSINESS"] }],
      { airport: "JFK" },
      -1,
    ],
    [
      "another airport's policy does not apply",
      [{ context: { airport: "BOS" }, tiers: [] }],
      { airport: "JFK" },
      -1,
    ],
  ] as const)("%s", async (_, inputs, query, winner) => {
    const s = await setup();
    const urns = await activeSet(s, inputs as unknown as Partial<PolicyInput>[]);
    const resolved = await s.index.resolve(ZX, query);
    expect(resolved?.urn).toBe(winner === -1 ? undefined : urns[winner]);
  });

  it("ignores other airlines' policies", async () => {
    const s = await setup();
    await activeSet(s, [{ context: {}, tiers: [] }]);
    expect(await s.index.resolve("urn:airline:VQ", { airport: "JFK" })).toBeUndefined();
  });
});

describe("the policy index only moves forward", () => {
  it("keeps the newer revision when an older copy arrives late", async () => {
    const documents = new MemoryDocumentStore();
    const collection = documents.collection<{ _id: string; revision: number; status: string }>("policies");
    await writeRevisioned(collection, [{ _id: "p", revision: 2, status: "ARCHIVED" }]);
    await writeRevisioned(collection, [{ _id: "p", revision: 1, status: "ACTIVE" }]);
    expect(await collection.get("p")).toMatchObject({ revision: 2, status: "ARCHIVED" });
    await writeRevisioned(collection, [{ _id: "p", revision: 3, status: "ACTIVE" }]);
    expect(await collection.get("p")).toMatchObject({ revision: 3, status: "ACTIVE" });
  });
});
