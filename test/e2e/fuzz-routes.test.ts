/**
 * Every route of the three OpenAPI documents, called the way careless and hostile clients call
 * them: bodies and parameters drawn from the routes' own schemas and mutated, hostile strings, bad
 * tokens, huge and deeply nested bodies, bad encodings, oversized headers and URLs, malformed HTTP.
 * Whatever comes in, the answer is never a 5xx, every refusal is an RFC 7807 problem, and the
 * service is still alive at the end.
 */
import { connect } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { PassengerSessionTokens } from "../../src/passenger-identity/session-tokens.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import { systemClock } from "../../src/runtime/clock.js";
import { hostileStrings, valueFor } from "../support/schema-arbitrary.js";
import { skyhubToken, startTestPlatform, type TestPlatform } from "../support/platform.js";
import { declaration, ZX } from "./cases-fixtures.js";

type Surface = "operator" | "partner" | "passenger";
type Schema = Record<string, unknown>;

interface Operation {
  surface: Surface;
  method: string;
  path: string;
  pathParams: string[];
  query: Record<string, Schema>;
  body?: Schema;
}

interface FuzzedRequest {
  path: string;
  query: Record<string, string>;
  body?: string;
  token: string | undefined;
}

/** Requests per route: enough to reach each route's validation, refusals and handler. */
const RUNS_PER_ROUTE = 10;
const METHODS = ["get", "post", "put", "patch", "delete"];

let t: TestPlatform;
let operations: Operation[];
/** The fuzzed requests' tokens: the fuzz may well log them out (the logout routes are routes too). */
const validTokens = {} as Record<Surface, string>;
/** Tokens of other sessions, for the tests after the fuzz. */
const laterTokens = {} as Record<Surface, string>;
let caseUrn: string;

beforeAll(async () => {
  const passengerKey = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  t = await startTestPlatform({ env: { PASSENGER_SIGNING_KEY: JSON.stringify(passengerKey) } });
  const supervisor = await t.operatorToken("supervisor@zx.demo");
  const opened = await t.call("POST", "/v1/cases", supervisor, declaration("fuzz-1"));
  caseUrn = ((await opened.json()) as { urn: string }).urn;
  const passengerIssuer = t.platform.config.passengerBaseUrl.replace(/\/+$/, "");
  const sessions = new PassengerSessionTokens({
    issuer: passengerIssuer,
    audience: `${passengerIssuer}/v1`,
    key: await loadPassengerSigningKey(passengerKey),
    revocations: new CaseRevocations(t.platform.runtime.documents),
    clock: systemClock,
  });
  validTokens.operator = await t.operatorToken("admin@zx.demo");
  validTokens.partner = await skyhubToken(t.base);
  validTokens.passenger = (await sessions.mint({ tenant: ZX, caseUrn, groupId: "ABC123" })).token;
  const secondCase = await t.call("POST", "/v1/cases", supervisor, declaration("fuzz-2"));
  const secondCaseUrn = ((await secondCase.json()) as { urn: string }).urn;
  laterTokens.operator = supervisor;
  laterTokens.partner = validTokens.partner;
  laterTokens.passenger = (
    await sessions.mint({ tenant: ZX, caseUrn: secondCaseUrn, groupId: "ABC123" })
  ).token;
  operations = [];
  for (const surface of ["operator", "partner", "passenger"] as const) {
    const document = (await (await t.call("GET", `/openapi/${surface}/v1.json`)).json()) as {
      paths: Record<string, Record<string, Schema>>;
    };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (operation) operations.push(operationOf(surface, method, path, operation));
      }
    }
  }
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function operationOf(surface: Surface, method: string, path: string, operation: Schema): Operation {
  const parameters = (operation.parameters ?? []) as { in?: string; name?: string; schema?: Schema }[];
  const query: Record<string, Schema> = {};
  for (const parameter of parameters) {
    if (parameter.in === "query" && parameter.name) query[parameter.name] = parameter.schema ?? {};
  }
  const content = (operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
    ?.content;
  return {
    surface,
    method: method.toUpperCase(),
    path,
    pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string),
    query,
    ...(content?.["application/json"] ? { body: content["application/json"].schema ?? {} } : {}),
  };
}

function baseOf(surface: Surface): string {
  return surface === "passenger" ? t.passengerBase : t.base;
}

function requestsFor(operation: Operation): fc.Arbitrary<FuzzedRequest> {
  const pathValue = fc.oneof(fc.constant(caseUrn), fc.string({ maxLength: 30 }), hostileStrings);
  const token = fc.oneof(
    { arbitrary: fc.constant(validTokens[operation.surface]), weight: 4 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        "garbage",
        "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.",
        validTokens[operation.surface === "operator" ? "partner" : "operator"],
        "x".repeat(6_000),
      ),
      weight: 1,
    },
  );
  const query = fc.record(
    Object.fromEntries(
      Object.entries(operation.query).map(([name, schema]) => [name, valueFor(schema).map(asQueryValue)]),
    ),
    { requiredKeys: [] },
  );
  const body = operation.body
    ? valueFor(operation.body).map((value) => JSON.stringify(value) ?? "null")
    : fc.constant(undefined);
  return fc.record({
    path: fc
      .array(pathValue, { minLength: operation.pathParams.length, maxLength: operation.pathParams.length })
      .map((values) =>
        operation.pathParams.reduce(
          (path, name, index) => path.replace(`{${name}}`, pathSegment(values[index] ?? "")),
          operation.path,
        ),
      ),
    query,
    body,
    token,
  }) as fc.Arbitrary<FuzzedRequest>;
}

/** Percent-encodes every byte, lone surrogates included (encodeURIComponent throws on those). */
function pathSegment(value: string): string {
  return [...Buffer.from(value)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
}

function asQueryValue(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

async function send(
  surface: Surface,
  method: string,
  path: string,
  request: {
    token?: string | undefined;
    body?: string | Uint8Array<ArrayBuffer> | undefined;
    headers?: Record<string, string>;
  },
): Promise<Response> {
  return fetch(`${baseOf(surface)}${path}`, {
    method,
    headers: {
      ...(request.token ? { Authorization: `Bearer ${request.token}` } : {}),
      ...(request.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...request.headers,
    },
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
}

/** A refusal is a problem document whose status is the response's; nothing is a 5xx. */
async function expectNoServerError(response: Response, what: string): Promise<void> {
  expect(response.status, what).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.headers.get("content-type"), what).toMatch(/^application\/problem\+json/);
    const problem = (await response.json()) as { type?: unknown; title?: unknown; status?: unknown };
    expect(problem.status, what).toBe(response.status);
    expect(typeof problem.type, what).toBe("string");
    expect(typeof problem.title, what).toBe("string");
  } else {
    await response.arrayBuffer();
  }
}

function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let offset = 0; offset < bytes.length; offset += 64 * 1024) {
        controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
      }
      controller.close();
    },
  });
}

async function expectAlive(): Promise<void> {
  expect((await fetch(`${t.base}/healthz`)).status).toBe(200);
  expect((await fetch(`${t.passengerBase}/openapi/passenger/v1.json`)).status).toBe(200);
}

describe("fuzzed requests on every documented route", () => {
  it("covers the three documents", () => {
    const surfaces = new Set(operations.map((operation) => operation.surface));
    expect([...surfaces].sort()).toEqual(["operator", "partner", "passenger"]);
    expect(operations.length).toBeGreaterThan(60);
  });

  it("never answers a 5xx, and refuses with problems", { timeout: 600_000 }, async () => {
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(requestsFor(operation), async (request) => {
          const search = new URLSearchParams(request.query).toString();
          const response = await send(
            operation.surface,
            operation.method,
            `${request.path}${search ? `?${search}` : ""}`,
            request,
          );
          await expectNoServerError(
            response,
            `${operation.method} ${operation.path} ${JSON.stringify(request).slice(0, 300)}`,
          );
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
    await expectAlive();
  });
});

describe("hostile bodies, headers and connections", () => {
  const writes = () => operations.filter((operation) => operation.body !== undefined);

  it("answers an oversized body with a 413 problem the client can read, on every write route", {
    timeout: 300_000,
  }, async () => {
    const oversized = JSON.stringify({ filler: "a".repeat(3 * 1024 * 1024) });
    const statuses = new Map<string, number>();
    for (const operation of writes()) {
      const path = operation.path.replace(/\{[^}]+\}/g, encodeURIComponent(caseUrn));
      const response = await send(operation.surface, operation.method, path, {
        token: laterTokens[operation.surface],
        body: oversized,
      });
      await expectNoServerError(response, `${operation.method} ${operation.path}`);
      statuses.set(`${operation.method} ${operation.path}`, response.status);
    }
    // Refusals that come before the body (a role, a missing case) are answered as such; every
    // route that reads the body says 413.
    const tooLarge = [...statuses.values()].filter((status) => status === 413).length;
    expect(tooLarge).toBeGreaterThan(statuses.size / 2);
    for (const surface of ["operator", "partner", "passenger"] as const) {
      expect(
        [...statuses].some(
          ([route, status]) =>
            status === 413 &&
            writes().some((o) => o.surface === surface && route === `${o.method} ${o.path}`),
        ),
      ).toBe(true);
    }
    // Without a token the refusal comes first, and the client, still sending, reads it: with a
    // declared length and chunked alike.
    for (const body of [oversized, () => chunked(oversized)]) {
      const anonymous = await fetch(`${t.base}/v1/cases`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: typeof body === "string" ? body : body(),
        duplex: "half",
      } as RequestInit);
      expect(anonymous.status).toBe(401);
      await expectNoServerError(anonymous, "anonymous oversized");
    }
    const streamed = await fetch(`${t.base}/v1/cases`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${laterTokens.operator}` },
      body: chunked(oversized),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await expectNoServerError(streamed, "chunked oversized");
    await expectAlive();
  });

  it("refuses deep nesting, bad encodings and non-JSON with 4xx problems", async () => {
    const token = laterTokens.operator;
    const bodies: (string | Uint8Array<ArrayBuffer>)[] = [
      `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
      `${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`,
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]),
      new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      '{"a":1,"a":2',
      "\u0000",
    ];
    for (const body of bodies) {
      for (const [surface, path] of [
        ["operator", "/v1/cases"],
        ["partner", "/partner/v1/disruptions"],
        ["passenger", "/v1/auth/pnr-login"],
      ] as const) {
        const response = await send(surface, "POST", path, {
          token: surface === "passenger" ? undefined : laterTokens[surface],
          body,
        });
        expect(response.status, `${path} ${String(body).slice(0, 40)}`).toBeGreaterThanOrEqual(400);
        await expectNoServerError(response, `${path} ${String(body).slice(0, 40)}`);
      }
    }
    const unknownCharset = await send("operator", "POST", "/v1/cases", {
      token,
      body: "{}",
      headers: { "Content-Type": "application/json; charset=klingon" },
    });
    expect(unknownCharset.status).toBe(415);
    await expectNoServerError(unknownCharset, "charset");
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    await expectAlive();
  });

  it("answers oversized headers and URLs with a 431 problem", async () => {
    for (const response of [
      await fetch(`${t.base}/v1/cases`, { headers: { "X-Filler": "a".repeat(20_000) } }),
      await fetch(`${t.base}/v1/cases?q=${"a".repeat(20_000)}`),
      await fetch(`${t.passengerBase}/v1/me?q=${"a".repeat(20_000)}`),
    ]) {
      expect(response.status).toBe(431);
      await expectNoServerError(response, "431");
    }
    await expectAlive();
  });

  it("answers a malformed request line with a 400 problem", async () => {
    const { port, hostname } = new URL(t.base);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write("GET /v1/cases HTTP/9.9 \u0001\r\n\r\n"),
      );
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      socket.on("end", () => resolve(received));
      socket.on("error", reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)) as { status: number; type: string };
    expect(body.status).toBe(400);
    expect(body.type).toMatch(/\/invalid\/malformed-request$/);
    await expectAlive();
  });
});
