import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  applyDefaults,
  createPolicy,
  type Policy,
  type PolicyInput,
} from "../../src/domain/policy/policy.js";
import { policyContextKey } from "../../src/domain/policy/policy-context.js";
import { activate, deactivate } from "../../src/domain/policy/policy-lifecycle.js";
import { patchPolicy } from "../../src/domain/policy/policy-patch.js";
import { resolvePolicy } from "../../src/domain/policy/policy-resolution.js";
import { policyCreateSchema, policyPatchSchema } from "../../src/domain/policy/policy-schema.js";
import { caseTier } from "../../src/domain/policy/tiers.js";
import { refusal } from "../support/refusal.js";

const t0 = new Date("2026-11-21T10:00:00Z");
const t1 = new Date("2026-11-21T11:00:00Z");

// The options src/http/validation.ts uses for bodies.
const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: true, coerceTypes: false });
const validateCreate = ajv.compile(policyCreateSchema as object);
const validatePatch = ajv.compile(policyPatchSchema as object);

function policy(
  id: string,
  input: Partial<PolicyInput> = {},
  status: Policy["status"] = "ACTIVE",
  at = t0,
): Policy {
  return { ...createPolicy({ name: id, context: {}, ...input }, `urn:policy:${id}`, at), status };
}

describe("policy create schema", () => {
  const valid = {
    name: "JFK economy",
    context: { airport: "JFK", airline: "ZX" },
    tiers: ["ECONOMY", "PREMIUM_ECONOMY"],
    constraints: {
      minStars: 3,
      maxDistanceKm: 15,
      maxNightlyRate: 180,
      requiredAmenities: ["24H_RECEPTION", "AIRPORT_SHUTTLE"],
      excludedChains: ["chain-9"],
      acceptedPayments: ["GUARANTEE", "CARD"],
      allowProviders: ["hotelbeds", "direct"],
    },
    buffers: { lateCheckoutMinutes: 120, earlyCheckInMinutes: 60 },
    mode: "BATCH",
    autoApproveDemand: true,
    maxAutomaticRoomsPerWave: 40,
    incrementalRequiresApproval: true,
    consolidationWeight: 0.2,
    allocationWeights: { cost: 0.5, distance: 0.3, consolidation: 0.2 },
    transport: {
      mode: "SHUTTLE",
      perTier: { BUSINESS: "PRIVATE_CAR" },
      minutesBeforePickup: 30,
      shuttleCapacity: 20,
    },
    provenance: { source: "ai", confidence: 0.8, prompt: "economy at JFK, 3 stars" },
  };

  it("accepts a complete body", () => {
    expect(validateCreate(structuredClone(valid)), JSON.stringify(validateCreate.errors)).toBe(true);
  });

  it("fills the documented defaults into a minimal body", () => {
    const body: Record<string, unknown> = {
      name: "minimal",
      context: {},
      constraints: {},
      allocationWeights: {},
    };
    expect(validateCreate(body)).toBe(true);
    expect(body).toMatchObject({
      mode: "ON_DEMAND",
      autoApproveDemand: false,
      constraints: { acceptedPayments: ["GUARANTEE"], requiredAmenities: [], excludedChains: [] },
      allocationWeights: { cost: 0.6, distance: 0.25 },
    });
  });

  it.each([
    ["missing name", (b: any) => delete b.name, ""],
    ["missing context", (b: any) => delete b.context, ""],
    ["unknown top-level field", (b: any) => (b.colour = "red"), ""],
    ["unknown constraint", (b: any) => (b.constraints.minRating = 3), "/constraints"],
    ["airport not IATA", (b: any) => (b.context.airport = "jfk"), "/context/airport"],
    ["minStars 0", (b: any) => (b.constraints.minStars = 0), "/constraints/minStars"],
    ["minStars 6", (b: any) => (b.constraints.minStars = 6), "/constraints/minStars"],
    ["minStars 3.5", (b: any) => (b.constraints.minStars = 3.5), "/constraints/minStars"],
    ["maxDistanceKm 0", (b: any) => (b.constraints.maxDistanceKm = 0), "/constraints/maxDistanceKm"],
    [
      "maxNightlyRate negative",
      (b: any) => (b.constraints.maxNightlyRate = -1),
      "/constraints/maxNightlyRate",
    ],
    [
      "unknown amenity",
      (b: any) => (b.constraints.requiredAmenities = ["POOL"]),
      "/constraints/requiredAmenities/0",
    ],
    [
      "unknown payment",
      (b: any) => (b.constraints.acceptedPayments = ["CASH"]),
      "/constraints/acceptedPayments/0",
    ],
    ["no payment", (b: any) => (b.constraints.acceptedPayments = []), "/constraints/acceptedPayments"],
    [
      "repeated amenity",
      (b: any) => (b.constraints.requiredAmenities = ["FREE_BREAKFAST", "FREE_BREAKFAST"]),
      "/constraints/requiredAmenities",
    ],
    [
      "provider not an id",
      (b: any) => (b.constraints.allowProviders = ["Hotel Beds"]),
      "/constraints/allowProviders/0",
    ],
    [
      "negative late checkout",
      (b: any) => (b.buffers.lateCheckoutMinutes = -10),
      "/buffers/lateCheckoutMinutes",
    ],
    [
      "fractional early check-in",
      (b: any) => (b.buffers.earlyCheckInMinutes = 1.5),
      "/buffers/earlyCheckInMinutes",
    ],
    ["buffer over a day", (b: any) => (b.buffers.lateCheckoutMinutes = 1441), "/buffers/lateCheckoutMinutes"],
    ["unknown mode", (b: any) => (b.mode = "SCHEDULED"), "/mode"],
    ["negative room bound", (b: any) => (b.maxAutomaticRoomsPerWave = -1), "/maxAutomaticRoomsPerWave"],
    ["auto-approval without a bound", (b: any) => delete b.maxAutomaticRoomsPerWave, ""],
    ["consolidationWeight above 1", (b: any) => (b.consolidationWeight = 1.1), "/consolidationWeight"],
    ["cost weight negative", (b: any) => (b.allocationWeights.cost = -0.1), "/allocationWeights/cost"],
    [
      "distance weight above 1",
      (b: any) => (b.allocationWeights.distance = 2),
      "/allocationWeights/distance",
    ],
    ["unknown tier", (b: any) => (b.tiers = ["GOLD"]), "/tiers/0"],
    ["unknown transport mode", (b: any) => (b.transport.mode = "HELICOPTER"), "/transport/mode"],
    [
      "perTier with unknown tier",
      (b: any) => (b.transport.perTier = { GOLD: "SHUTTLE" }),
      "/transport/perTier",
    ],
    [
      "perTier with unknown mode",
      (b: any) => (b.transport.perTier = { FIRST: "LIMO" }),
      "/transport/perTier/FIRST",
    ],
    ["shuttle capacity 0", (b: any) => (b.transport.shuttleCapacity = 0), "/transport/shuttleCapacity"],
    [
      "negative pickup minutes",
      (b: any) => (b.transport.minutesBeforePickup = -5),
      "/transport/minutesBeforePickup",
    ],
    ["provenance of another source", (b: any) => (b.provenance.source = "human"), "/provenance/source"],
    ["confidence above 1", (b: any) => (b.provenance.confidence = 1.5), "/provenance/confidence"],
  ])("refuses %s", (_name, spoil, path) => {
    const body = structuredClone(valid);
    spoil(body);
    expect(validateCreate(body)).toBe(false);
    expect(validateCreate.errors?.map((e) => e.instancePath)).toContain(path);
  });
});

describe("policy patch schema", () => {
  it.each([
    [{ constraints: { minStars: 4 } }],
    [{ constraints: { minStars: null, allowProviders: null } }],
    [{ reason: "raise the bar", buffers: { lateCheckoutMinutes: 30 } }],
    [{ transport: { shuttleCapacity: null } }],
  ])("accepts %j", (body) => {
    expect(validatePatch(body), JSON.stringify(validatePatch.errors)).toBe(true);
  });

  it.each([
    [{}],
    [{ context: { airport: "LHR" } }],
    [{ version: 7 }],
    [{ status: "ACTIVE" }],
    [{ constraints: {} }],
    [{ constraints: { minStars: 9 } }],
    [{ allocationWeights: { cost: 1.2 } }],
    [{ maxAutomaticRoomsPerWave: 2.5 }],
    [{ buffers: { earlyCheckInMinutes: null } }],
  ])("refuses %j", (body) => {
    expect(validatePatch(body)).toBe(false);
  });
});

describe("applyDefaults", () => {
  it("fills every default and normalizes the context and tiers", () => {
    const rules = applyDefaults({
      name: "p",
      context: { airport: "JFK" },
      tiers: ["FIRST", "ECONOMY", "FIRST"],
    });
    expect(rules).toEqual({
      name: "p",
      context: { airport: "JFK", airline: "*" },
      tiers: ["ECONOMY", "FIRST"],
      constraints: { requiredAmenities: [], excludedChains: [], acceptedPayments: ["GUARANTEE"] },
      buffers: { lateCheckoutMinutes: 0, earlyCheckInMinutes: 0 },
      mode: "ON_DEMAND",
      autoApproveDemand: false,
      maxAutomaticRoomsPerWave: 0,
      incrementalRequiresApproval: false,
      consolidationWeight: 0.15,
      allocationWeights: { cost: 0.6, distance: 0.25, consolidation: 0.15 },
      transport: { mode: "SHUTTLE", perTier: {} },
    });
  });

  it.each([
    [{ consolidationWeight: 0.3 }, 0.3],
    [{ allocationWeights: { consolidation: 0.4 } }, 0.4],
    [{ consolidationWeight: 0.2, allocationWeights: { consolidation: 0.2 } }, 0.2],
  ])("mirrors the consolidation weight %j", (input, expected) => {
    const rules = applyDefaults({ name: "p", context: {}, ...input });
    expect(rules.consolidationWeight).toBe(expected);
    expect(rules.allocationWeights.consolidation).toBe(expected);
  });

  it("refuses two different consolidation weights", () => {
    const error = refusal(() =>
      applyDefaults({
        name: "p",
        context: {},
        consolidationWeight: 0.2,
        allocationWeights: { consolidation: 0.3 },
      }),
    );
    expect(error.code).toBe("consolidation-weight-mismatch");
  });

  it("creates a DRAFT at version 1", () => {
    const created = createPolicy({ name: "p", context: {} }, "urn:policy:p", t0);
    expect(created).toMatchObject({
      urn: "urn:policy:p",
      status: "DRAFT",
      version: 1,
      createdAt: t0.toISOString(),
    });
  });
});

describe("patchPolicy", () => {
  const base = policy(
    "p",
    {
      tiers: ["ECONOMY"],
      constraints: { minStars: 3, maxDistanceKm: 10, requiredAmenities: ["24H_RECEPTION"] },
      transport: { perTier: { ECONOMY: "SHUTTLE" }, shuttleCapacity: 12 },
    },
    "DRAFT",
  );

  it("merges one level deep, bumps the version and returns before and after", () => {
    const { before, after, reason } = patchPolicy(
      base,
      { reason: "stricter", constraints: { minStars: 4 }, buffers: { lateCheckoutMinutes: 60 } },
      t1,
    );
    expect(before).toBe(base);
    expect(reason).toBe("stricter");
    expect(after.version).toBe(2);
    expect(after.updatedAt).toBe(t1.toISOString());
    expect(after.constraints).toEqual({ ...base.constraints, minStars: 4 });
    expect(after.buffers).toEqual({ lateCheckoutMinutes: 60, earlyCheckInMinutes: 0 });
    expect(after.status).toBe("DRAFT");
  });

  it("removes optional fields given as null and replaces arrays and perTier", () => {
    const { after } = patchPolicy(
      base,
      {
        constraints: { maxDistanceKm: null, requiredAmenities: ["FREE_BREAKFAST"] },
        transport: { perTier: { FIRST: "PRIVATE_CAR" }, shuttleCapacity: null },
      },
      t1,
    );
    expect(after.constraints).not.toHaveProperty("maxDistanceKm");
    expect(after.constraints.requiredAmenities).toEqual(["FREE_BREAKFAST"]);
    expect(after.transport).toEqual({ mode: "SHUTTLE", perTier: { FIRST: "PRIVATE_CAR" } });
  });

  it("keeps the two consolidation weights equal", () => {
    expect(patchPolicy(base, { consolidationWeight: 0.3 }, t1).after.allocationWeights.consolidation).toBe(
      0.3,
    );
    expect(
      patchPolicy(base, { allocationWeights: { consolidation: 0.1 } }, t1).after.consolidationWeight,
    ).toBe(0.1);
  });

  it("refuses a patch that changes nothing", () => {
    expect(refusal(() => patchPolicy(base, { reason: "just because" }, t1)).code).toBe("empty-patch");
  });

  it("refuses to change the tier set of an ACTIVE policy, but allows it on a DRAFT", () => {
    const active = { ...base, status: "ACTIVE" as const };
    const error = refusal(() => patchPolicy(active, { tiers: ["BUSINESS"] }, t1));
    expect(error).toMatchObject({ kind: "conflict", code: "active-policy-context-change" });
    expect(patchPolicy(active, { tiers: ["ECONOMY"] }, t1).after.version).toBe(2);
    expect(patchPolicy(base, { tiers: ["BUSINESS"] }, t1).after.tiers).toEqual(["BUSINESS"]);
  });
});

describe("policy context key", () => {
  it("ignores tier order and repeats", () => {
    const a = policy("a", { context: { airport: "JFK", airline: "ZX" }, tiers: ["FIRST", "BUSINESS"] });
    const b = policy("b", {
      context: { airport: "JFK", airline: "ZX" },
      tiers: ["BUSINESS", "FIRST", "FIRST"],
    });
    expect(policyContextKey(a)).toBe(policyContextKey(b));
    expect(policyContextKey(a)).not.toBe(policyContextKey({ ...a, tiers: ["FIRST"] }));
    expect(policyContextKey(a)).not.toBe(
      policyContextKey({ ...a, context: { airport: "LHR", airline: "ZX" } }),
    );
  });
});

describe("policy state machine (spec 3.2)", () => {
  const jfk = { context: { airport: "JFK", airline: "ZX" }, tiers: ["ECONOMY" as const] };
  const current = policy("current", jfk, "ACTIVE");
  const otherTiers = policy("other-tiers", { ...jfk, tiers: ["BUSINESS"] }, "ACTIVE");
  const otherAirport = policy(
    "other-airport",
    { ...jfk, context: { airport: "LHR", airline: "ZX" } },
    "ACTIVE",
  );
  const active = [current, otherTiers, otherAirport];

  it.each([
    ["DRAFT", "ACTIVE"],
    ["ARCHIVED", "ACTIVE"],
  ] as const)("activate moves %s to %s and archives only the same context", (from, to) => {
    const next = policy("next", jfk, from);
    const result = activate(next, active, t1);
    expect(result.changed).toBe(true);
    expect(result.activated.before.status).toBe(from);
    expect(result.activated.after).toMatchObject({ status: to, updatedAt: t1.toISOString(), version: 1 });
    expect(result.archived.map((c) => [c.before.urn, c.before.status, c.after.status])).toEqual([
      ["urn:policy:current", "ACTIVE", "ARCHIVED"],
    ]);
  });

  it("activating an ACTIVE policy changes nothing", () => {
    const result = activate(current, active, t1);
    expect(result).toMatchObject({ changed: false, archived: [] });
    expect(result.activated.after).toBe(current);
  });

  it("deactivate archives an ACTIVE policy; repeating it changes nothing; a DRAFT cannot be deactivated", () => {
    const once = deactivate(current, t1);
    expect(once).toMatchObject({ changed: true, after: { status: "ARCHIVED" } });
    expect(deactivate(once.after, t1).changed).toBe(false);
    expect(refusal(() => deactivate(policy("d", jfk, "DRAFT"), t1))).toMatchObject({
      kind: "conflict",
      code: "policy-not-active",
    });
  });

  it("rollback: the archived version becomes active and the newer one is archived", () => {
    const archived = deactivate(current, t0).after;
    const newer = activate(policy("newer", jfk, "DRAFT"), [], t0).activated.after;
    const rollback = activate(archived, [newer], t1);
    expect(rollback.activated.after.status).toBe("ACTIVE");
    expect(rollback.archived.map((c) => c.after.urn)).toEqual(["urn:policy:newer"]);
  });
});

describe("caseTier", () => {
  const group = (...passengers: { tier?: string; cabinClass?: string }[]) => ({
    passengers: passengers.map((p, i) => ({ id: `p${i}`, lastName: "L", ...p })),
  });

  it("is the tier every passenger travels in, a cabin class standing in for a missing tier", () => {
    expect(caseTier([group({ tier: "BUSINESS" }), group({ cabinClass: "BUSINESS" })])).toBe("BUSINESS");
  });

  it("is null when the passengers span tiers, a tier is unknown, or there are no passengers", () => {
    expect(caseTier([group({ tier: "ECONOMY" }), group({ tier: "FIRST" })])).toBeNull();
    expect(caseTier([group({ tier: "ECONOMY" }, {})])).toBeNull();
    expect(caseTier([group({ tier: "GOLD" })])).toBeNull();
    expect(caseTier([])).toBeNull();
  });
});

describe("resolvePolicy", () => {
  const anywhere = policy("anywhere");
  const jfkAllTiers = policy("jfk", { context: { airport: "JFK" } });
  const jfkBusiness = policy("jfk-business", { context: { airport: "JFK" }, tiers: ["BUSINESS"] });
  const jfkPremium = policy("jfk-premium", { context: { airport: "JFK" }, tiers: ["BUSINESS", "FIRST"] });
  const anyAirportFirst = policy("first", { tiers: ["FIRST"] });
  const jfkZx = policy("jfk-zx", { context: { airport: "JFK", airline: "ZX" } });
  const draftJfkEconomy = policy(
    "draft",
    { context: { airport: "JFK", airline: "ZX" }, tiers: ["ECONOMY"] },
    "DRAFT",
  );
  const all = [anywhere, jfkAllTiers, jfkBusiness, jfkPremium, anyAirportFirst, jfkZx, draftJfkEconomy];

  it.each([
    [
      "an exact airport beats a wildcard airport with the tier",
      { airport: "JFK", airline: "ZX", tier: "FIRST" },
      "jfk-premium",
    ],
    ["a listed tier beats all tiers", { airport: "JFK", airline: "QQ", tier: "BUSINESS" }, "jfk-business"],
    [
      "an exact airline beats a wildcard airline",
      { airport: "JFK", airline: "ZX", tier: "ECONOMY" },
      "jfk-zx",
    ],
    ["the wildcard applies elsewhere", { airport: "LHR", airline: "ZX", tier: "ECONOMY" }, "anywhere"],
    ["a tier policy applies at any airport", { airport: "LHR", airline: "ZX", tier: "FIRST" }, "first"],
    ["no tier asked: only all-tier policies", { airport: "JFK", airline: "QQ" }, "jfk"],
  ] as const)("%s", (_name, query, expected) => {
    expect(resolvePolicy(all, query)?.urn).toBe(`urn:policy:${expected}`);
  });

  it("ignores DRAFT and ARCHIVED policies and answers undefined when nothing matches", () => {
    const onlyInactive = [draftJfkEconomy, { ...jfkZx, status: "ARCHIVED" as const }];
    expect(resolvePolicy(onlyInactive, { airport: "JFK", airline: "ZX", tier: "ECONOMY" })).toBeUndefined();
    expect(resolvePolicy([jfkBusiness], { airport: "JFK", airline: "ZX", tier: "ECONOMY" })).toBeUndefined();
  });

  it("breaks a tie by the most recent change, whatever the input order", () => {
    const older = policy("older", { tiers: ["BUSINESS", "ECONOMY"] }, "ACTIVE", t0);
    const newer = policy("newer", { tiers: ["BUSINESS", "FIRST"] }, "ACTIVE", t1);
    const query = { airport: "JFK", airline: "ZX", tier: "BUSINESS" } as const;
    expect(resolvePolicy([older, newer], query)?.urn).toBe("urn:policy:newer");
    expect(resolvePolicy([newer, older], query)?.urn).toBe("urn:policy:newer");
  });
});

describe("the meal allowance of a policy", () => {
  const allowance = { amount: 15, perTier: { BUSINESS: 30 }, fromMinutes: 120, minutesPerMeal: 300 };

  it("is optional, validated, and kept as given", () => {
    expect(validateCreate({ name: "p", context: {}, mealAllowance: allowance })).toBe(true);
    expect(applyDefaults({ name: "p", context: {}, mealAllowance: allowance }).mealAllowance).toEqual(
      allowance,
    );
    expect(applyDefaults({ name: "p", context: {} })).not.toHaveProperty("mealAllowance");
    for (const spoilt of [
      { perTier: { BUSINESS: 30 } },
      { amount: 0 },
      { amount: 10, perTier: { GOLD: 5 } },
      { amount: 10, minutesPerMeal: 30 },
      { amount: 10, colour: "red" },
    ]) {
      expect(validateCreate({ name: "p", context: {}, mealAllowance: spoilt }), JSON.stringify(spoilt)).toBe(
        false,
      );
    }
  });

  it("is replaced by a patch and removed by null", () => {
    expect(validatePatch({ mealAllowance: { amount: 20 } })).toBe(true);
    expect(validatePatch({ mealAllowance: null })).toBe(true);
    const base = policy("m", { mealAllowance: allowance }, "DRAFT");
    expect(patchPolicy(base, { mealAllowance: { amount: 20 } }, t1).after.mealAllowance).toEqual({
      amount: 20,
    });
    expect(patchPolicy(base, { mealAllowance: null }, t1).after).not.toHaveProperty("mealAllowance");
    expect(patchPolicy(base, { name: "renamed" }, t1).after.mealAllowance).toEqual(allowance);
  });
});

describe("the prediction rules of a policy (spec 6.1 threshold)", () => {
  const prediction = { threshold: 0.55, draftCase: true };

  it("are optional, validated, and kept as given", () => {
    expect(validateCreate({ name: "p", context: {}, prediction })).toBe(true);
    expect(applyDefaults({ name: "p", context: {}, prediction }).prediction).toEqual(prediction);
    expect(applyDefaults({ name: "p", context: {} })).not.toHaveProperty("prediction");
    for (const spoilt of [
      {},
      { threshold: 1.5 },
      { threshold: -0.1 },
      { draftCase: "yes" },
      { colour: "red" },
    ]) {
      expect(validateCreate({ name: "p", context: {}, prediction: spoilt }), JSON.stringify(spoilt)).toBe(
        false,
      );
    }
  });

  it("are replaced by a patch and removed by null", () => {
    expect(validatePatch({ prediction: { threshold: 0.9 } })).toBe(true);
    expect(validatePatch({ prediction: null })).toBe(true);
    const base = policy("p", { prediction }, "DRAFT");
    expect(patchPolicy(base, { prediction: { threshold: 0.9 } }, t1).after.prediction).toEqual({
      threshold: 0.9,
    });
    expect(patchPolicy(base, { prediction: null }, t1).after).not.toHaveProperty("prediction");
    expect(patchPolicy(base, { name: "renamed" }, t1).after.prediction).toEqual(prediction);
  });
});
