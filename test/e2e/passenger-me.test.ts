import { request } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CaseRevocations } from "../../src/passenger-identity/case-revocations.js";
import { PassengerSessionTokens } from "../../src/passenger-identity/session-tokens.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import { systemClock } from "../../src/runtime/clock.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";
import { declaration, json, ZX } from "./cases-fixtures.js";

const VQ = "urn:airline:VQ";

let t: TestPlatform;
/** Sessions signed as the platform signs them: the test is given the platform's passenger key. */
let sessions: PassengerSessionTokens;
/** The same claims under a key the platform does not know. */
let forger: PassengerSessionTokens;
let supervisor: string;

async function sessionTokens(jwk: Awaited<ReturnType<typeof exportJWK>>, passengerBase: string) {
  const issuer = passengerBase;
  return new PassengerSessionTokens({
    issuer,
    audience: `${issuer}/v1`,
    key: await loadPassengerSigningKey(jwk),
    revocations: new CaseRevocations(t.platform.runtime.documents),
    clock: systemClock,
  });
}

beforeAll(async () => {
  const platformKey = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  const otherKey = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  t = await startTestPlatform({
    env: {
      PASSENGER_SIGNING_KEY: JSON.stringify(platformKey),
      DEMAND_ON_INTAKE: "off",
      DEMO_POLICIES: "off",
    },
  });
  const passengerBase = t.platform.config.passengerBaseUrl.replace(/\/+$/, "");
  sessions = await sessionTokens(platformKey, passengerBase);
  forger = await sessionTokens(otherKey, passengerBase);
  supervisor = await t.operatorToken("supervisor@zx.demo");
});
afterAll(async () => {
  await t?.close();
});

async function openCase(
  externalEventId: string,
  token = supervisor,
  overrides: Record<string, unknown> = {},
) {
  const response = await t.call("POST", "/v1/cases", token, declaration(externalEventId, overrides));
  expect(response.status).toBe(201);
  return (await json(response)).urn as string;
}

function me(token: string) {
  return fetch(`${t.passengerBase}/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
}

/** GET /v1/me as sent to a named host (node:http: fetch sends the connected address as Host). */
function meOnHost(token: string, host: string, headers: Record<string, string> = {}): Promise<number> {
  const url = new URL(`${t.passengerBase}/v1/me`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { Host: host, Authorization: `Bearer ${token}`, ...headers } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("GET /v1/me", () => {
  it("shows the session's own group within its case, privately cached", async () => {
    const caseUrn = await openCase("evt-me-1");
    const { token } = await sessions.mint({ tenant: ZX, caseUrn, groupId: "ABC123" });
    const response = await me(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, max-age=60");
    expect(response.headers.get("vary")).toMatch(/Authorization/);
    const profile = await json(response);
    expect(profile).toMatchObject({
      caseUrn,
      caseStatus: "OPEN",
      flight: { number: "ZX100", origin: "JFK", destination: "LHR" },
      group: { id: "ABC123", pnr: "ABC123", subCaseUrn: expect.stringMatching(/^urn:sub-case:/) },
      tier: "ECONOMY",
      language: null,
    });
    expect(profile.passengers.map((p: { lastName: string }) => p.lastName)).toEqual(["Rivera", "Rivera"]);
    // Nothing of the other group of the same case.
    expect(JSON.stringify(profile)).not.toContain("Okafor");
  });

  it("lets a token for case A read case A only: case B is out of its reach", async () => {
    const caseA = await openCase("evt-me-a");
    const caseB = await openCase("evt-me-b");
    const { token: tokenA } = await sessions.mint({ tenant: ZX, caseUrn: caseA, groupId: "XYZ789" });
    const { token: tokenB } = await sessions.mint({ tenant: ZX, caseUrn: caseB, groupId: "XYZ789" });
    expect((await json(await me(tokenA))).caseUrn).toBe(caseA);
    expect((await json(await me(tokenB))).caseUrn).toBe(caseB);

    // Case A's token with its case claim pointed at case B: the signature no longer holds.
    const [header, payload, signature] = tokenA.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const pointedAtB = Buffer.from(JSON.stringify({ ...claims, case_urn: caseB })).toString("base64url");
    const tampered = await me(`${header}.${pointedAtB}.${signature}`);
    expect(tampered.status).toBe(401);
    expect(tampered.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);

    // A token for case B minted under another key.
    const { token: forged } = await forger.mint({ tenant: ZX, caseUrn: caseB, groupId: "XYZ789" });
    expect((await me(forged)).status).toBe(401);
  });

  it("refuses another airline's session on this airline's host (403) and a group no longer in the case (404)", async () => {
    const vqSupervisor = await t.operatorToken("supervisor@vq.demo");
    const vqCase = await openCase("evt-me-vq", vqSupervisor, {
      flight: {
        number: "VQ10",
        origin: "LHR",
        destination: "JFK",
        scheduledDeparture: "2026-11-21T22:00:00Z",
        status: "CANCELLED",
      },
    });
    const { token: vqToken } = await sessions.mint({ tenant: VQ, caseUrn: vqCase, groupId: "ABC123" });
    const crossTenant = await me(vqToken);
    expect(crossTenant.status).toBe(403);
    expect((await json(crossTenant)).type).toMatch(/\/cross-tenant$/);

    const caseUrn = await openCase("evt-me-gone");
    const { token } = await sessions.mint({ tenant: ZX, caseUrn, groupId: "NO-SUCH-GROUP" });
    const gone = await me(token);
    expect(gone.status).toBe(404);
    expect((await json(gone)).type).toMatch(/\/group-not-found$/);
  });

  it("honours a session on its own airline's host only, however the other airline's host is spelled", async () => {
    const caseUrn = await openCase("evt-me-hosts");
    const { token } = await sessions.mint({ tenant: ZX, caseUrn, groupId: "ABC123" });
    const port = new URL(t.passengerBase).port;
    expect(await meOnHost(token, `zx.localhost:${port}`)).toBe(200);
    expect(await meOnHost(token, `zx.localhost.:${port}`)).toBe(200);
    // Vesper Airways' host, as a browser or curl may spell it: every form is Vesper's.
    for (const host of [
      `vq.localhost:${port}`,
      "vq.localhost",
      `vq.localhost.:${port}`,
      `VQ.LocalHost.:${port}`,
    ]) {
      expect({ host, status: await meOnHost(token, host) }).toEqual({ host, status: 403 });
    }
    // X-Forwarded-Host is anyone's to send: it does not move the request to Zephyr's host.
    const forwarded = await meOnHost(token, `vq.localhost:${port}`, { "X-Forwarded-Host": "zx.localhost" });
    expect(forwarded).toBe(403);
  });

  it("ends with the case: after close, the session is refused", async () => {
    const caseUrn = await openCase("evt-me-close");
    const { token } = await sessions.mint({ tenant: ZX, caseUrn, groupId: "ABC123" });
    expect((await me(token)).status).toBe(200);
    const closed = await t.call("POST", `/v1/cases/${encodeURIComponent(caseUrn)}/close`, supervisor, {
      reason: "all passengers rebooked",
    });
    expect(closed.status).toBe(200);
    expect((await me(token)).status).toBe(403);
  });

  it("refuses operator and partner tokens, and no token at all (401)", async () => {
    const partner = await t.partnerToken("skyhub-zx");
    expect((await me(supervisor)).status).toBe(401);
    expect((await me(partner)).status).toBe(401);
    const anonymous = await fetch(`${t.passengerBase}/v1/me`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });
});

describe("passenger hosts set by PASSENGER_TENANT_HOSTS", () => {
  let configured: TestPlatform;
  let configuredSessions: PassengerSessionTokens;
  beforeAll(async () => {
    const key = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
    configured = await startTestPlatform({
      env: {
        PASSENGER_SIGNING_KEY: JSON.stringify(key),
        PASSENGER_TENANT_HOSTS: "zx.localhost=urn:airline:ZX,vq.localhost=urn:airline:VQ",
        DEMAND_ON_INTAKE: "off",
        DEMO_POLICIES: "off",
      },
    });
    const issuer = configured.platform.config.passengerBaseUrl.replace(/\/+$/, "");
    configuredSessions = new PassengerSessionTokens({
      issuer,
      audience: `${issuer}/v1`,
      key: await loadPassengerSigningKey(key),
      revocations: new CaseRevocations(configured.platform.runtime.documents),
      clock: systemClock,
    });
  });
  afterAll(async () => {
    await configured?.close();
  });

  it("serves no airline on a host in nobody's name unless PASSENGER_DEFAULT_TENANT names one", async () => {
    const token = await configured.operatorToken("supervisor@zx.demo");
    const opened = await configured.call("POST", "/v1/cases", token, declaration("evt-me-configured"));
    const caseUrn = (await json(opened)).urn as string;
    const { token: session } = await configuredSessions.mint({ tenant: ZX, caseUrn, groupId: "ABC123" });
    // `localhost` is not among the configured hosts.
    const bare = await fetch(`${configured.passengerBase}/v1/me`, {
      headers: { Authorization: `Bearer ${session}` },
    });
    expect(bare.status).toBe(403);
    expect((await json(bare)).detail).toMatch(/No airline serves passengers at this host/);
  });
});
