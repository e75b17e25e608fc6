import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { expectBodyFieldError, json } from "../support/responses.js";

let t: TestPlatform;
const tokens: Record<string, string> = {};
const token = async (who: string) => {
  tokens[who] ??= await t.operatorToken(who);
  return tokens[who]!;
};

beforeAll(async () => {
  // These tests start from no policy and ask for demand themselves.
  t = await startTestPlatform({ env: { DEMAND_ON_INTAKE: "off", DEMO_POLICIES: "off" } });
});
afterAll(async () => {
  await t?.close();
});

interface Policy {
  urn: string;
  status: string;
  version: number;
  [field: string]: unknown;
}

const enc = encodeURIComponent;

let names = 0;
async function draft(body: Record<string, unknown> = {}, who = "supervisor@zx.demo"): Promise<Policy> {
  const response = await t.call("POST", "/v1/policies", await token(who), {
    name: `policy ${++names}`,
    context: { airport: "JFK", airline: "ZX" },
    ...body,
  });
  return json(response, 201);
}

async function activate(urn: string, body?: unknown, who = "admin@zx.demo"): Promise<Response> {
  return t.call("POST", `/v1/policies/${enc(urn)}/activate`, await token(who), body);
}

async function activeOfContext(tiers: string[], airport = "JFK"): Promise<Policy[]> {
  const page = await json<{ items: Policy[] }>(
    await t.call("GET", "/v1/policies/active?limit=200", await token("operator@zx.demo")),
    200,
  );
  return page.items.filter(
    (p) =>
      (p.context as { airport: string }).airport === airport &&
      JSON.stringify(p.tiers) === JSON.stringify(tiers),
  );
}

describe("policies over HTTP (spec 2.4, 3.2, 4.1-4.3)", () => {
  it("creates a DRAFT with the spec's defaults, in both the /v1 and the field-manual form", async () => {
    const created = await draft({ tiers: ["BUSINESS"] });
    expect(created).toMatchObject({
      urn: expect.stringMatching(/^urn:policy:[0-9a-f]{24}\.\d+$/),
      status: "DRAFT",
      version: 1,
      context: { airport: "JFK", airline: "ZX" },
      allocationWeights: { cost: 0.6, distance: 0.25, consolidation: 0.15 },
      consolidationWeight: 0.15,
      constraints: { acceptedPayments: ["GUARANTEE"], requiredAmenities: [], excludedChains: [] },
    });
    const manual = await json(
      await t.call("POST", "/policies", await token("admin@zx.demo"), {
        name: "field manual",
        context: { airport: "BOS" },
      }),
      201,
    );
    expect(manual).toMatchObject({ status: "DRAFT", context: { airport: "BOS", airline: "*" } });

    // A DRAFT has no effect.
    const resolved = await json<{ policy: unknown }>(
      await t.call("GET", "/v1/policies/resolve?airport=BOS", await token("operator@zx.demo")),
      200,
    );
    expect(resolved.policy).toBeNull();
  });

  it("activates atomically, archives the previous policy of the context, rolls back, deactivates, and audits each change", async () => {
    const first = await draft({ tiers: ["FIRST"] });
    const second = await draft({ tiers: ["FIRST"] });
    expect(await json(await activate(first.urn, { reason: "winter rules" }), 200)).toMatchObject({
      status: "ACTIVE",
    });
    expect(await json(await activate(second.urn), 200)).toMatchObject({ status: "ACTIVE" });
    expect((await activeOfContext(["FIRST"])).map((p) => p.urn)).toEqual([second.urn]);

    // Rollback: activating the archived policy archives the one active now.
    const rolledBack = await json(
      await t.call("POST", `/policies/${enc(first.urn)}/activate`, await token("admin@zx.demo")),
      200,
    );
    expect(rolledBack).toMatchObject({ urn: first.urn, status: "ACTIVE" });
    expect((await activeOfContext(["FIRST"])).map((p) => p.urn)).toEqual([first.urn]);

    const deactivated = await json(
      await t.call("POST", `/v1/policies/${enc(first.urn)}/deactivate`, await token("admin@zx.demo"), {
        reason: "season over",
      }),
      200,
    );
    expect(deactivated.status).toBe("ARCHIVED");
    expect(await activeOfContext(["FIRST"])).toEqual([]);

    const trail = await json<{ items: Array<Record<string, any>> }>(
      await t.call("GET", `/v1/audit/entity/${enc(first.urn)}`, await token("finance@zx.demo")),
      200,
    );
    // Entries of one millisecond have no defined order, so each is found by what it says.
    const changes = trail.items.filter((e) => String(e.action).startsWith("policy."));
    expect(changes.map((e) => e.action).sort()).toEqual([
      "policy.activate",
      "policy.activate",
      "policy.create",
      "policy.deactivate",
      "policy.deactivate",
    ]);
    expect(changes.find((e) => e.reason === "winter rules")).toMatchObject({
      action: "policy.activate",
      actorUrn: "urn:user:zx-admin",
      before: { status: "DRAFT" },
      after: { status: "ACTIVE" },
      at: expect.any(String),
    });
    expect(changes.find((e) => String(e.reason).startsWith(`Superseded by ${second.urn}`))).toMatchObject({
      action: "policy.deactivate",
      before: { status: "ACTIVE" },
      after: { status: "ARCHIVED" },
    });
    expect(changes.find((e) => e.reason === "season over")).toMatchObject({
      action: "policy.deactivate",
      after: { status: "ARCHIVED" },
    });
  });

  it("leaves exactly one ACTIVE policy after 20 concurrent activations in one context", async () => {
    const drafts = await Promise.all(
      Array.from({ length: 20 }, () =>
        draft({ tiers: ["CREW"], context: { airport: "ORD", airline: "ZX" } }),
      ),
    );
    const responses = await Promise.all(drafts.map((d) => activate(d.urn)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const active = await activeOfContext(["CREW"], "ORD");
    expect(active).toHaveLength(1);
    const states = await Promise.all(
      drafts.map(
        async (d) =>
          (
            await json(
              await t.call("GET", `/v1/policies/${enc(d.urn)}`, await token("operator@zx.demo")),
              200,
            )
          ).status,
      ),
    );
    expect(states.filter((s) => s === "ACTIVE")).toHaveLength(1);
    expect(states.filter((s) => s === "ARCHIVED")).toHaveLength(19);
  });

  it("patches with a version bump, keeps every version, and restores an earlier version on activation", async () => {
    const policy = await draft({ tiers: ["ECONOMY"], constraints: { minStars: 3 } });
    const patched = await json(
      await t.call("POST", `/v1/policies/${enc(policy.urn)}/patch`, await token("supervisor@zx.demo"), {
        constraints: { minStars: 4, maxNightlyRate: 180 },
        reason: "better hotels",
      }),
      200,
    );
    expect(patched).toMatchObject({ version: 2, constraints: { minStars: 4, maxNightlyRate: 180 } });

    const restored = await json(await activate(policy.urn, { version: 1, reason: "back to v1" }), 200);
    expect(restored).toMatchObject({ version: 3, status: "ACTIVE", constraints: { minStars: 3 } });
    expect(restored.constraints).not.toHaveProperty("maxNightlyRate");
    const read = await json<Policy & { versions: Policy[] }>(
      await t.call("GET", `/v1/policies/${enc(policy.urn)}`, await token("operator@zx.demo")),
      200,
    );
    expect(read.versions.map((v) => v.version)).toEqual([1, 2, 3]);

    const tierChange = await t.call(
      "POST",
      `/v1/policies/${enc(policy.urn)}/patch`,
      await token("supervisor@zx.demo"),
      {
        tiers: ["BUSINESS"],
      },
    );
    expect(tierChange.status).toBe(409);
    const noVersion = await activate(policy.urn, { version: 9 });
    expect(noVersion.status).toBe(404);
  });

  it("patches only the version the editor read when it names one (409 version-mismatch otherwise)", async () => {
    const policy = await draft({ tiers: ["ECONOMY"], constraints: { minStars: 3 } });
    const patch = async (body: Record<string, unknown>) =>
      t.call("POST", `/v1/policies/${enc(policy.urn)}/patch`, await token("supervisor@zx.demo"), body);
    const first = await json(await patch({ expectedVersion: 1, constraints: { minStars: 4 } }), 200);
    expect(first).toMatchObject({ version: 2, constraints: { minStars: 4 } });
    const stale = await json(await patch({ expectedVersion: 1, constraints: { minStars: 5 } }), 409);
    expect(stale.type).toMatch(/\/conflict\/version-mismatch$/);
    expect(stale.currentVersion).toBe(2);
    const read = await json<Policy>(
      await t.call("GET", `/v1/policies/${enc(policy.urn)}`, await token("operator@zx.demo")),
      200,
    );
    expect(read).toMatchObject({ version: 2, constraints: { minStars: 4 } });
  });

  it("resolves the most specific active policy: airport, then tier, then airline", async () => {
    const everywhere = await draft({ name: "everywhere", context: {} });
    const atBos = await draft({ name: "BOS, every tier", context: { airport: "BOS", airline: "*" } });
    const atBosBusiness = await draft({
      name: "BOS business",
      context: { airport: "BOS" },
      tiers: ["BUSINESS"],
    });
    for (const p of [everywhere, atBos, atBosBusiness]) expect((await activate(p.urn)).status).toBe(200);

    const resolve = async (query: string) =>
      (
        await json<{ policy: Policy | null }>(
          await t.call("GET", `/v1/policies/resolve?${query}`, await token("operator@zx.demo")),
          200,
        )
      ).policy?.urn;
    expect(await resolve("airport=BOS&tier=BUSINESS")).toBe(atBosBusiness.urn);
    expect(await resolve("airport=BOS&tier=ECONOMY")).toBe(atBos.urn);
    expect(await resolve("airport=BOS")).toBe(atBos.urn);
    expect(await resolve("airport=ORD&tier=FIRST")).toBe(everywhere.urn);

    expect(
      (await t.call("GET", "/v1/policies/resolve?airport=BOS", await token("operator.jfk@zx.demo"))).status,
    ).toBe(403);
    expect((await t.call("GET", "/v1/policies/resolve", await token("operator@zx.demo"))).status).toBe(400);
    expect(
      (await t.call("GET", "/v1/policies/resolve?airport=BOS&tier=GOLD", await token("operator@zx.demo")))
        .status,
    ).toBe(400);
  });

  it("drafts a policy from a description with rule-based synthesis", async () => {
    for (const path of ["/policies/synthesize", "/v1/policies/generate-ai"]) {
      const description =
        "4 stars within 10 km of JFK, max 150 a night, airport shuttle and breakfast for business";
      const synthesized = await json(
        await t.call("POST", path, await token("supervisor@zx.demo"), { description }),
        201,
      );
      expect(synthesized).toMatchObject({
        status: "DRAFT",
        context: { airport: "JFK", airline: "ZX" },
        tiers: ["BUSINESS"],
        constraints: {
          minStars: 4,
          maxDistanceKm: 10,
          maxNightlyRate: 150,
          requiredAmenities: ["AIRPORT_SHUTTLE", "FREE_BREAKFAST"],
        },
        provenance: { source: "ai", confidence: expect.any(Number), prompt: description },
      });
    }
    const nothing = await t.call("POST", "/policies/synthesize", await token("supervisor@zx.demo"), {
      description: "make it nice",
    });
    expect(nothing.status).toBe(422);
    const empty = await t.call("POST", "/policies/synthesize", await token("supervisor@zx.demo"), {
      description: "",
    });
    expect(empty.status).toBe(400);
  });

  it("lets partners with policies.read list their airline's active policies, and nobody else's", async () => {
    const policy = await draft({
      name: "partner-visible",
      context: { airport: "JFK" },
      tiers: ["PREMIUM_ECONOMY"],
    });
    await activate(policy.urn);
    const page = await json<{ items: Policy[] }>(
      await t.call("GET", "/partner/v1/policies?limit=200", await t.partnerToken("skyhub-zx")),
      200,
    );
    expect(page.items.map((p) => p.urn)).toContain(policy.urn);
    expect(page.items.every((p) => p.status === "ACTIVE")).toBe(true);

    const otherAirline = await json<{ items: Policy[] }>(
      await t.call("GET", "/partner/v1/policies", await t.partnerToken("regulator-vq")),
      200,
    );
    expect(otherAirline.items.map((p) => p.urn)).not.toContain(policy.urn);

    const withoutScope = await t.call("GET", "/partner/v1/policies", await t.partnerToken("tripdesk-vq"));
    expect(withoutScope.status).toBe(403);
    expect(withoutScope.headers.get("www-authenticate")).toContain("policies.read");
  });
});

describe("policy and demand routes in the OpenAPI documents", () => {
  it("lists them in valid OpenAPI 3.1 documents", async () => {
    const operator = await (await t.call("GET", "/openapi/operator/v1.json")).json();
    expect((await new Validator().validate(operator)).valid).toBe(true);
    expect(Object.keys(operator.paths)).toEqual(
      expect.arrayContaining([
        "/v1/policies",
        "/policies",
        "/v1/policies/generate-ai",
        "/policies/synthesize",
        "/v1/policies/active",
        "/v1/policies/resolve",
        "/v1/policies/{policyUrn}/patch",
        "/v1/policies/{policyUrn}/activate",
        "/policies/{policyUrn}/activate",
        "/v1/policies/{policyUrn}/deactivate",
        "/v1/demand/case/{caseUrn}",
        "/demand/case/{caseUrn}",
        "/v1/demand/{demandUrn}/approve",
        "/v1/demand/{demandUrn}/reject",
        "/demand/{demandUrn}/approve",
        "/demand/{demandUrn}/reject",
        "/v1/demand/pending/approvals",
        "/demand/case/{caseUrn}/summary",
        "/v1/demand/case/{caseUrn}/summary",
      ]),
    );
    const partner = await (await t.call("GET", "/openapi/partner/v1.json")).json();
    expect((await new Validator().validate(partner)).valid).toBe(true);
    expect(Object.keys(partner.paths)).toContain("/partner/v1/policies");
  });
});

describe("policy route refusals", () => {
  it("refuses the wrong role on every route", async () => {
    const policy = await draft();
    const cases: [string, string, string, unknown?][] = [
      ["operator@zx.demo", "POST", "/v1/policies", { name: "x", context: {} }],
      ["finance@zx.demo", "POST", "/policies", { name: "x", context: {} }],
      ["operator@zx.demo", "POST", "/v1/policies/generate-ai", { description: "4 stars" }],
      ["operator@zx.demo", "POST", "/policies/synthesize", { description: "4 stars" }],
      ["operator@zx.demo", "POST", `/v1/policies/${enc(policy.urn)}/patch`, { name: "y" }],
      ["supervisor@zx.demo", "POST", `/v1/policies/${enc(policy.urn)}/activate`],
      ["supervisor@zx.demo", "POST", `/policies/${enc(policy.urn)}/activate`],
      ["supervisor@zx.demo", "POST", `/v1/policies/${enc(policy.urn)}/deactivate`],
      ["finance@zx.demo", "GET", "/v1/policies/active"],
      ["finance@zx.demo", "GET", "/v1/policies/resolve?airport=JFK"],
      ["finance@zx.demo", "GET", `/v1/policies/${enc(policy.urn)}`],
    ];
    for (const [who, method, path, body] of cases) {
      const response = await t.call(method, path, await token(who), body);
      expect(response.status, `${who} ${method} ${path}`).toBe(403);
    }
    const operatorOnPartner = await t.call("GET", "/partner/v1/policies", await token("operator@zx.demo"));
    expect(operatorOnPartner.status).toBe(401);
  });

  it("refuses another airline's policies with 403", async () => {
    const policy = await draft();
    const cases: [string, string, string, unknown?][] = [
      ["supervisor@vq.demo", "POST", `/v1/policies/${enc(policy.urn)}/patch`, { name: "mine now" }],
      ["admin@vq.demo", "POST", `/v1/policies/${enc(policy.urn)}/activate`],
      ["admin@vq.demo", "POST", `/policies/${enc(policy.urn)}/activate`],
      ["admin@vq.demo", "POST", `/v1/policies/${enc(policy.urn)}/deactivate`],
      ["operator@vq.demo", "GET", `/v1/policies/${enc(policy.urn)}`],
      ["supervisor@zx.demo", "POST", "/v1/policies", { name: "for VQ", context: { airline: "VQ" } }],
      ["supervisor@zx.demo", "POST", "/policies", { name: "for VQ", context: { airline: "VQ" } }],
    ];
    for (const [who, method, path, body] of cases) {
      const response = await t.call(method, path, await token(who), body);
      expect(response.status, `${who} ${method} ${path}`).toBe(403);
    }
    const vqActive = await json<{ items: Policy[] }>(
      await t.call("GET", "/v1/policies/active", await token("operator@vq.demo")),
      200,
    );
    expect(vqActive.items.map((p) => p.urn)).not.toContain(policy.urn);
  });

  it("answers 404 for unknown policies and 400 for URNs of another kind", async () => {
    const unknown = ["urn:policy:000000000000000000000000.1", "urn:policy:nothing-here"];
    for (const urn of unknown) {
      for (const [method, path, who, body] of [
        ["POST", `/v1/policies/${enc(urn)}/patch`, "supervisor@zx.demo", { name: "x" }],
        ["POST", `/v1/policies/${enc(urn)}/activate`, "admin@zx.demo", undefined],
        ["POST", `/policies/${enc(urn)}/activate`, "admin@zx.demo", undefined],
        ["POST", `/v1/policies/${enc(urn)}/deactivate`, "admin@zx.demo", undefined],
        ["GET", `/v1/policies/${enc(urn)}`, "operator@zx.demo", undefined],
      ] as const) {
        const response = await t.call(method, path, await token(who), body);
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    }
    const wrongKind = await activate("urn:case:123");
    expect(wrongKind.status).toBe(400);
  });

  it("refuses a DRAFT deactivation with 409", async () => {
    const policy = await draft();
    const response = await t.call(
      "POST",
      `/v1/policies/${enc(policy.urn)}/deactivate`,
      await token("admin@zx.demo"),
    );
    expect(response.status).toBe(409);
  });

  const badCreates: [string, Record<string, unknown>, string][] = [
    ["missing name", { context: {} }, "/name"],
    ["empty name", { name: "", context: {} }, "/name"],
    ["unknown top-level field", { name: "x", context: {}, colour: "red" }, "/colour"],
    ["unknown constraint", { name: "x", context: {}, constraints: { minRooms: 1 } }, "/constraints/minRooms"],
    ["minStars 0", { name: "x", context: {}, constraints: { minStars: 0 } }, "/constraints/minStars"],
    ["minStars 6", { name: "x", context: {}, constraints: { minStars: 6 } }, "/constraints/minStars"],
    ["minStars 3.5", { name: "x", context: {}, constraints: { minStars: 3.5 } }, "/constraints/minStars"],
    [
      "maxDistanceKm 0",
      { name: "x", context: {}, constraints: { maxDistanceKm: 0 } },
      "/constraints/maxDistanceKm",
    ],
    [
      "maxDistanceKm 1001",
      { name: "x", context: {}, constraints: { maxDistanceKm: 1001 } },
      "/constraints/maxDistanceKm",
    ],
    [
      "maxNightlyRate 0",
      { name: "x", context: {}, constraints: { maxNightlyRate: 0 } },
      "/constraints/maxNightlyRate",
    ],
    [
      "unknown amenity",
      { name: "x", context: {}, constraints: { requiredAmenities: ["SPA"] } },
      "/constraints/requiredAmenities/0",
    ],
    [
      "unknown payment",
      { name: "x", context: {}, constraints: { acceptedPayments: ["CASH"] } },
      "/constraints/acceptedPayments/0",
    ],
    [
      "no payment",
      { name: "x", context: {}, constraints: { acceptedPayments: [] } },
      "/constraints/acceptedPayments",
    ],
    [
      "cost weight -0.1",
      { name: "x", context: {}, allocationWeights: { cost: -0.1 } },
      "/allocationWeights/cost",
    ],
    [
      "distance weight 1.1",
      { name: "x", context: {}, allocationWeights: { distance: 1.1 } },
      "/allocationWeights/distance",
    ],
    ["consolidationWeight 1.5", { name: "x", context: {}, consolidationWeight: 1.5 }, "/consolidationWeight"],
    [
      "late checkout -1",
      { name: "x", context: {}, buffers: { lateCheckoutMinutes: -1 } },
      "/buffers/lateCheckoutMinutes",
    ],
    [
      "early check-in 1441",
      { name: "x", context: {}, buffers: { earlyCheckInMinutes: 1441 } },
      "/buffers/earlyCheckInMinutes",
    ],
    [
      "rooms per wave -1",
      { name: "x", context: {}, maxAutomaticRoomsPerWave: -1 },
      "/maxAutomaticRoomsPerWave",
    ],
    [
      "rooms per wave 10001",
      { name: "x", context: {}, maxAutomaticRoomsPerWave: 10001 },
      "/maxAutomaticRoomsPerWave",
    ],
    [
      "auto-approval without bound",
      { name: "x", context: {}, autoApproveDemand: true },
      "/maxAutomaticRoomsPerWave",
    ],
    [
      "shuttle capacity 0",
      { name: "x", context: {}, transport: { shuttleCapacity: 0 } },
      "/transport/shuttleCapacity",
    ],
    [
      "shuttle capacity 101",
      { name: "x", context: {}, transport: { shuttleCapacity: 101 } },
      "/transport/shuttleCapacity",
    ],
    ["unknown transport mode", { name: "x", context: {}, transport: { mode: "BOAT" } }, "/transport/mode"],
    ["unknown tier", { name: "x", context: {}, tiers: ["GOLD"] }, "/tiers/0"],
    ["lower-case airport", { name: "x", context: { airport: "jfk" } }, "/context/airport"],
    ["unknown mode", { name: "x", context: {}, mode: "NIGHTLY" }, "/mode"],
  ];
  it.each(badCreates)("refuses a create body with %s (400, field errors)", async (_, body, field) => {
    for (const path of ["/v1/policies", "/policies"]) {
      const response = await t.call("POST", path, await token("supervisor@zx.demo"), body);
      await expectBodyFieldError(response, field);
    }
  });

  it("refuses bad patch, activate, deactivate and synthesis bodies", async () => {
    const policy = await draft();
    const bad: [string, unknown][] = [
      [`/v1/policies/${enc(policy.urn)}/patch`, {}],
      [`/v1/policies/${enc(policy.urn)}/patch`, { context: { airport: "BOS" } }],
      [`/v1/policies/${enc(policy.urn)}/patch`, { constraints: { minStars: 9 } }],
      [`/v1/policies/${enc(policy.urn)}/patch`, { allocationWeights: { cost: 2 } }],
      [`/v1/policies/${enc(policy.urn)}/activate`, { version: 0 }],
      [`/v1/policies/${enc(policy.urn)}/activate`, { because: "x" }],
      [`/policies/${enc(policy.urn)}/activate`, { reason: "" }],
      [`/v1/policies/${enc(policy.urn)}/deactivate`, { reason: 5 }],
      ["/policies/synthesize", { description: "4 stars", extra: true }],
      ["/v1/policies/generate-ai", {}],
    ];
    for (const [path, body] of bad) {
      const who = path.includes("activate") ? "admin@zx.demo" : "supervisor@zx.demo";
      const response = await t.call("POST", path, await token(who), body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
    }
  });
});
