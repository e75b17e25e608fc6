import { runInNewContext } from "node:vm";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnauthorizedError } from "../../src/http/errors.js";
import { buildOpenApiDocument, type OpenApiOptions, openApiPath, SURFACES } from "../../src/http/openapi.js";
import { pageQuery } from "../../src/http/pagination.js";
import { defineRoute, type Route } from "../../src/http/route.js";
import { pageSchema, reasonSchema, timestampSchema, urnOf } from "../../src/http/schemas/common.js";
import { specificationRoutes } from "../../src/http/specification-routes.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { type ServedRoutes, serve } from "./http-server-fixture.js";

const caseSummary = {
  type: "object",
  required: ["caseUrn", "status"],
  properties: { caseUrn: urnOf("case"), status: { type: "string" }, openedAt: timestampSchema },
} as const;

const sampleRoutes: Route[] = [
  defineRoute({
    method: "GET",
    path: "/v1/cases",
    operationId: "listCases",
    summary: "List cases",
    tags: ["Cases"],
    access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] },
    query: pageQuery({ status: { type: "string" }, airport: { type: "string", pattern: "^[A-Z]{3}$" } }),
    responses: { 200: { description: "A page of cases", schema: pageSchema(caseSummary) } },
    handler: () => ({ status: 200, body: { items: [], nextCursor: null, hasMore: false } }),
  }),
  defineRoute({
    method: "POST",
    path: "/cases/:caseUrn/groups\\:merge",
    operationId: "mergeGroups",
    summary: "Merge passenger groups",
    tags: ["Cases"],
    access: { kind: "operator", anyOf: ["OPS_SUPERVISOR"], airportScoped: true },
    params: { type: "object", properties: { caseUrn: urnOf("case") } },
    body: {
      type: "object",
      required: ["groupIds", "reason"],
      properties: {
        groupIds: { type: "array", items: { type: "string" }, minItems: 2 },
        reason: reasonSchema,
      },
    },
    responses: {
      200: { description: "Merged", schema: caseSummary },
      409: { description: "The sub-case is locked by another operator (lockedBy, expiresInSeconds)" },
    },
    handler: ({ params }) => ({ status: 200, body: { caseUrn: params.caseUrn, status: "OPEN" } }),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/subcases/:subCaseUrn/compensate",
    operationId: "compensateSubCase",
    summary: "Compensate",
    tags: ["Sub-cases"],
    access: { kind: "operator", anyOf: ["AIRPORT_OPERATOR"] },
    body: {
      allOf: [
        { type: "object", properties: { version: { type: "integer" } }, required: ["version"] },
        { type: "object", properties: { reason: reasonSchema } },
      ],
    },
    responses: {
      202: {
        description: "Accepted",
        schema: { type: "object", properties: { correlationUrn: { type: "string" } } },
        headers: { Location: { description: "Progress resource" } },
      },
    },
    deprecated: { since: "2026-01-01", sunset: "2027-01-01" },
    handler: ({ correlationUrn }) => ({ status: 202, body: { correlationUrn } }),
  }),
  defineRoute({
    method: "GET",
    path: "/partner/v1/cases/:caseUrn",
    operationId: "partnerGetCase",
    summary: "Case state",
    tags: ["Cases"],
    access: { kind: "partner", scope: "cases.read" },
    responses: { 200: { description: "Case", schema: caseSummary } },
    handler: ({ params }) => ({ status: 200, body: { caseUrn: params.caseUrn, status: "OPEN" } }),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/me/voucher",
    operationId: "getVoucher",
    summary: "Printable voucher",
    tags: ["Me"],
    access: { kind: "passenger" },
    responses: { 200: { description: "HTML voucher", contentType: "text/html", schema: { type: "string" } } },
    handler: () => ({ status: 200, body: "<p>voucher</p>" }),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/auth/pnr-login",
    operationId: "pnrLogin",
    summary: "Log in with PNR and last name",
    tags: ["Auth"],
    surface: "passenger",
    access: { kind: "public" },
    idempotent: false,
    body: {
      type: "object",
      required: ["pnr", "lastName", "captcha"],
      properties: { pnr: { type: "string" }, lastName: { type: "string" }, captcha: { type: "string" } },
    },
    responses: { 200: { description: "Session" } },
    handler: () => ({ status: 200, body: {} }),
  }),
];

const options: OpenApiOptions = {
  version: "1.0.0",
  servers: {
    operator: "https://api.svc.example",
    partner: "https://api.svc.example",
    passenger: "https://xy.passenger.svc.example",
  },
  partnerTokenUrl: "https://auth.svc.example/oauth/token",
};

const allRoutes = [...sampleRoutes, ...specificationRoutes(sampleRoutes, options)];
const documents = Object.fromEntries(SURFACES.map((s) => [s, buildOpenApiDocument(s, allRoutes, options)]));
const operation = (surface: string, path: string, method: string) =>
  (documents[surface]!.paths[path] as Record<string, Record<string, any>>)[method]!;

describe("OpenAPI documents", () => {
  it.each(SURFACES)("the %s document is valid OpenAPI 3.1", async (surface) => {
    const result = await new Validator().validate(documents[surface]!);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("documents every route in exactly one surface", () => {
    const documented = SURFACES.flatMap((s) =>
      Object.values(documents[s]!.paths).flatMap((item) => Object.values(item).map((op) => op.operationId)),
    );
    expect(documented.sort()).toEqual(allRoutes.map((r) => r.operationId).sort());
  });

  it("converts koa paths to OpenAPI templates", () => {
    expect(openApiPath("/v1/cases/:caseUrn/manifest")).toBe("/v1/cases/{caseUrn}/manifest");
    expect(openApiPath("/cases/:caseUrn/groups\\:merge")).toBe("/cases/{caseUrn}/groups:merge");
    expect(Object.keys(documents.operator!.paths)).toContain("/cases/{caseUrn}/groups:merge");
  });

  it("describes parameters, body and responses from the declarations", () => {
    const list = operation("operator", "/v1/cases", "get");
    expect(list.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "limit",
          in: "query",
          required: false,
          schema: expect.objectContaining({ default: 50, maximum: 200 }),
        }),
        expect.objectContaining({ name: "cursor", in: "query", required: false }),
        expect.objectContaining({
          name: "airport",
          in: "query",
          schema: { type: "string", pattern: "^[A-Z]{3}$" },
        }),
      ]),
    );
    expect(list.responses["200"].content["application/json"].schema.required).toEqual([
      "items",
      "nextCursor",
      "hasMore",
    ]);

    const merge = operation("operator", "/cases/{caseUrn}/groups:merge", "post");
    expect(merge.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "caseUrn", in: "path", required: true }),
        { $ref: "#/components/parameters/IdempotencyKey" },
      ]),
    );
    const body = merge.requestBody.content["application/json"].schema;
    expect(merge.requestBody.required).toBe(true);
    expect(body.additionalProperties).toBe(false);
    expect(merge.responses["409"].description).toContain("locked");
    expect(merge.description).toContain("OPS_SUPERVISOR");

    const compensate = operation("operator", "/v1/subcases/{subCaseUrn}/compensate", "post");
    expect(compensate.requestBody.content["application/json"].schema.unevaluatedProperties).toBe(false);
    expect(compensate.deprecated).toBe(true);
    expect(compensate.responses["202"].headers).toHaveProperty("Location");
    expect(compensate.responses["202"].headers).toHaveProperty("Sunset");

    const voucher = operation("passenger", "/v1/me/voucher", "get");
    expect(voucher.responses["200"].content).toHaveProperty("text/html");
    expect(voucher.responses["200"].headers).toHaveProperty("Cache-Control");
  });

  it("adds the shared problem responses, all referencing the Problem schema", () => {
    const merge = operation("operator", "/cases/{caseUrn}/groups:merge", "post");
    for (const status of ["400", "401", "403", "404", "409", "422", "429", "503"]) {
      expect(merge.responses[status].content["application/problem+json"].schema).toEqual({
        $ref: "#/components/schemas/Problem",
      });
    }
    const login = operation("passenger", "/v1/auth/pnr-login", "post");
    expect(login.responses).not.toHaveProperty("401");
    expect(login.parameters).not.toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
  });

  it("declares the security of each surface", () => {
    expect(documents.operator!.components).toMatchObject({
      securitySchemes: { operatorBearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    });
    expect(documents.passenger!.components).toMatchObject({
      securitySchemes: { passengerSession: { type: "http", scheme: "bearer" } },
    });
    expect(documents.partner!.components).toMatchObject({
      securitySchemes: {
        partnerOAuth: {
          type: "oauth2",
          flows: {
            clientCredentials: {
              tokenUrl: options.partnerTokenUrl,
              scopes: expect.objectContaining({ "cases.read": expect.any(String) }),
            },
          },
        },
      },
    });
    expect(operation("partner", "/partner/v1/cases/{caseUrn}", "get").security).toEqual([
      { partnerOAuth: ["cases.read"] },
    ]);
    expect(operation("operator", "/v1/cases", "get").security).toEqual([{ operatorBearer: [] }]);
    expect(operation("passenger", "/v1/me/voucher", "get").security).toEqual([{ passengerSession: [] }]);
    expect(operation("passenger", "/v1/auth/pnr-login", "post").security).toEqual([]);
  });
});

describe("specification routes", () => {
  let served: ServedRoutes;
  let base: string;

  beforeAll(async () => {
    const clock = new ManualClock();
    served = await serve(allRoutes, {
      authenticate: async () => {
        throw new UnauthorizedError("invalid_token");
      },
      counters: new MemoryCounterStore(clock),
      clock,
    });
    base = served.base;
  });

  afterAll(() => {
    served.close();
  });

  it.each(SURFACES)(
    "serves a valid %s document at /openapi/<surface>/v1.json without a token",
    async (surface) => {
      const response = await fetch(`${base}/openapi/${surface}/v1.json`);
      expect(response.status).toBe(200);
      const document = await response.json();
      expect(document.openapi).toBe("3.1.0");
      expect(document.info.title).toContain(
        surface === "operator" ? "Operator" : surface === "partner" ? "Partner" : "Passenger",
      );
      expect((await new Validator().validate(document)).valid).toBe(true);
    },
  );

  it("serves a docs page that loads Swagger UI from this host only", async () => {
    const response = await fetch(`${base}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>/);
    const loaded = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(loaded.length).toBeGreaterThanOrEqual(3);
    for (const path of loaded) expect(path).toMatch(/^\/docs\/assets\//);
  });

  it("points Swagger UI at the three documents", async () => {
    const script = await (await fetch(`${base}/docs/assets/docs.js`)).text();
    let options: { urls?: { name: string; url: string }[]; validatorUrl?: unknown; dom_id?: string } = {};
    const SwaggerUIBundle = Object.assign(
      (given: typeof options) => {
        options = given;
        return {};
      },
      { presets: { apis: {} } },
    );
    runInNewContext(script, { window: {}, SwaggerUIBundle, SwaggerUIStandalonePreset: {} });
    expect(options.urls?.map((entry) => entry.url).sort()).toEqual(
      SURFACES.map((s) => `/openapi/${s}/v1.json`).sort(),
    );
    expect(options.validatorUrl).toBeNull();
    expect(options.dom_id).toBe("#swagger-ui");
  });
});
