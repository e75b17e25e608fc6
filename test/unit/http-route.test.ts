import Router from "@koa/router";
import { describe, expect, it } from "vitest";
import type { Principal } from "../../src/app/principals.js";
import { closeObjectSchemas } from "../../src/http/json-schema.js";
import { mountRoutes, type RouteDeps } from "../../src/http/request-pipeline.js";
import { defineRoute, pathParamNames } from "../../src/http/route.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";

const base = {
  operationId: "op",
  summary: "s",
  tags: ["T"],
  access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] },
  responses: { 200: { description: "ok" } },
  handler: () => ({ status: 200 as const, body: {} }),
} as const;

const clock = new ManualClock();
const deps: RouteDeps = {
  authenticate: async () => ({}) as Principal,
  counters: new MemoryCounterStore(clock),
  clock,
};

describe("defineRoute", () => {
  it("reads path parameters, skipping escaped colons", () => {
    expect(pathParamNames("/cases/:caseUrn/groups/:groupId/split")).toEqual(["caseUrn", "groupId"]);
    expect(pathParamNames("/cases/:caseUrn/passengers\\:bulk")).toEqual(["caseUrn"]);
  });

  it("gives every path parameter a string schema unless declared", () => {
    const route = defineRoute({ ...base, method: "GET", path: "/v1/cases/:caseUrn" });
    expect(route.params).toEqual({
      type: "object",
      properties: { caseUrn: { type: "string", minLength: 1 } },
      required: ["caseUrn"],
      additionalProperties: false,
    });
  });

  it("refuses a params schema that does not match the path", () => {
    expect(() =>
      defineRoute({
        ...base,
        method: "GET",
        path: "/v1/cases/:caseUrn",
        params: { type: "object", properties: { caseId: { type: "string" } } },
      }),
    ).toThrow(/exactly the path parameters caseUrn/);
  });

  it("requires a surface for public routes and refuses a contradicting one", () => {
    expect(() =>
      defineRoute({ ...base, method: "GET", path: "/version", access: { kind: "public" } }),
    ).toThrow(/must name its surface/);
    expect(() => defineRoute({ ...base, method: "GET", path: "/v1/x", surface: "partner" })).toThrow(
      /contradicts/,
    );
  });

  it("resolves idempotency and caching defaults from method and access", () => {
    const write = defineRoute({ ...base, method: "POST", path: "/v1/x" });
    const read = defineRoute({ ...base, method: "GET", path: "/v1/x" });
    const passengerRead = defineRoute({
      ...base,
      method: "GET",
      path: "/v1/me",
      access: { kind: "passenger" },
    });
    const optedOut = defineRoute({ ...base, method: "POST", path: "/v1/y", idempotent: false });
    expect([write.idempotent, read.idempotent, optedOut.idempotent]).toEqual([true, false, false]);
    expect([write.cache, read.cache, passengerRead.cache]).toEqual(["none", "none", "passenger-private"]);
    expect(() => defineRoute({ ...base, method: "GET", path: "/v1/x", idempotent: true })).toThrow(
      /writes only/,
    );
  });

  it("refuses a deprecation without a sunset after it starts", () => {
    expect(() =>
      defineRoute({
        ...base,
        method: "GET",
        path: "/v1/x",
        deprecated: { since: "2027-01-01", sunset: "2026-01-01" },
      }),
    ).toThrow(/sunset after since/);
  });

  it("refuses duplicate operation ids and invalid schemas when mounting", () => {
    const a = defineRoute({ ...base, method: "GET", path: "/v1/a" });
    const b = defineRoute({ ...base, method: "GET", path: "/v1/b" });
    expect(() => mountRoutes(new Router(), [a, b], deps)).toThrow(/Duplicate operationId op/);
    const badSchema = defineRoute({
      ...base,
      method: "POST",
      path: "/v1/c",
      body: { type: "object", properties: { n: { type: "string", minimum: "one" } } },
    });
    expect(() => mountRoutes(new Router(), [badSchema], deps)).toThrow();
  });
});

describe("closeObjectSchemas", () => {
  it("closes declared objects at every depth and leaves free-form maps open", () => {
    const closed = closeObjectSchemas({
      type: "object",
      properties: {
        flight: { type: "object", properties: { number: { type: "string" } } },
        legs: { type: "array", items: { type: "object", properties: { at: { type: "string" } } } },
        fields: { type: "object" },
        open: { type: "object", properties: {}, additionalProperties: true },
      },
    });
    expect(closed).toEqual({
      type: "object",
      additionalProperties: false,
      properties: {
        flight: { type: "object", properties: { number: { type: "string" } }, additionalProperties: false },
        legs: {
          type: "array",
          items: { type: "object", properties: { at: { type: "string" } }, additionalProperties: false },
        },
        fields: { type: "object" },
        open: { type: "object", properties: {}, additionalProperties: true },
      },
    });
  });

  it("closes a combination with unevaluatedProperties and leaves its branches open", () => {
    const closed = closeObjectSchemas({
      allOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { b: { type: "string" } } },
      ],
    });
    expect(closed).toEqual({
      type: "object",
      unevaluatedProperties: false,
      allOf: [
        { type: "object", properties: { a: { type: "string" } } },
        { type: "object", properties: { b: { type: "string" } } },
      ],
    });
  });

  it("does not change the schema it was given", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } } as const;
    closeObjectSchemas(schema);
    expect(schema).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });
});

describe("handler input types", () => {
  it("types params, query, body and principal from the declaration", () => {
    const route = defineRoute({
      method: "POST",
      path: "/v1/cases/:caseUrn/notes",
      operationId: "typed",
      summary: "s",
      tags: ["T"],
      access: { kind: "partner", scope: "cases.read" },
      query: {
        type: "object",
        properties: { limit: { type: "integer", default: 5 }, tag: { type: "string" } },
      },
      body: {
        type: "object",
        required: ["text"],
        properties: { text: { type: "string" }, kind: { enum: ["A", "B"] } },
      },
      responses: {
        201: { description: "ok", schema: { type: "object", properties: { id: { type: "string" } } } },
      },
      handler: ({ params, query, body, principal }) => {
        const caseUrn: string = params.caseUrn;
        const limit: number = query.limit;
        const tag: string | undefined = query.tag;
        const text: string = body.text;
        const kind: "A" | "B" | undefined = body.kind;
        const tier: 1 | 2 | 3 = principal.tier;
        // @ts-expect-error: undeclared body member
        body.other;
        return { status: 201, body: { id: `${caseUrn}${limit}${tag}${text}${kind}${tier}` } };
      },
    });
    expect(route.operationId).toBe("typed");
  });

  it("accepts only declared success statuses with their body schema", () => {
    const declaration = {
      method: "GET",
      path: "/v1/x",
      operationId: "statuses",
      summary: "s",
      tags: ["T"],
      access: { kind: "passenger" },
      responses: {
        200: { description: "ok", schema: { type: "object", properties: { id: { type: "string" } } } },
      },
    } as const;
    // @ts-expect-error: 201 is not declared
    defineRoute({ ...declaration, handler: () => ({ status: 201, body: { id: "x" } }) });
    // @ts-expect-error: id must be a string
    defineRoute({ ...declaration, handler: () => ({ status: 200, body: { id: 1 } }) });
    expect(defineRoute({ ...declaration, handler: () => ({ status: 200, body: { id: "x" } }) }).cache).toBe(
      "passenger-private",
    );
  });
});

describe("closing object schemas", () => {
  it("keeps if/then conditions working: they apply to the parent object, not a closed copy of it", async () => {
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const schema = closeObjectSchemas({
      type: "object",
      properties: { auto: { type: "boolean" }, max: { type: "integer" } },
      if: { properties: { auto: { const: true } }, required: ["auto"] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword under test
      then: { required: ["max"] },
    } as const);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate({ auto: true })).toBe(false);
    expect(validate({ auto: true, max: 3 })).toBe(true);
    expect(validate({ auto: false })).toBe(true);
    expect(validate({ auto: false, extra: 1 })).toBe(false);
  });
});
