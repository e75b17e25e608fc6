/**
 * Second factors over HTTP (spec 5.1): the rules the token endpoint enforces for scripts, the
 * step-up on a high-risk address, and the passkey enrolment routes' refusals. The full passkey
 * ceremony needs an authenticator: test/e2e/browser-webauthn.test.ts drives Chromium's virtual one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_USERS } from "../../src/demo/demo-users.js";
import { SMS_ADMIN, SMS_FINANCE, smsUsersDirectory } from "../support/sms-users.js";
import {
  startIdentityProvider,
  tokenRequest,
  type RunningIdentityProvider,
} from "../integration/identity-fixture.js";
import { type TestPlatform, startTestPlatform } from "../support/platform.js";

const HIGH_RISK = "192.0.2.0/24";

let t: TestPlatform;
let idp: RunningIdentityProvider;
beforeAll(async () => {
  t = await startTestPlatform({ env: { MFA_HIGH_RISK_ADDRESSES: HIGH_RISK } });
  idp = await startIdentityProvider(undefined, {
    directory: smsUsersDirectory(),
  });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

function passwordGrant(running: RunningIdentityProvider, username: string, password: string) {
  return tokenRequest(running, {
    grant_type: "password",
    username,
    password,
    audience: running.audiences.operator,
  });
}

describe("second factors at the token endpoint", () => {
  it("refuses an ADMIN whose only factor is SMS, saying SMS is not allowed for ADMIN", async () => {
    const refused = await passwordGrant(idp, SMS_ADMIN.username, SMS_ADMIN.password);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: "invalid_grant",
      error_description: expect.stringContaining("SMS is not allowed for ADMIN"),
    });
  });

  it("takes SMS for FINANCE_AUDIT as the last resort, which only the login page sends (a script cannot answer it)", async () => {
    const refused = await passwordGrant(idp, SMS_FINANCE.username, SMS_FINANCE.password);
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toMatch(
      /last resort.*code by SMS, which only the login page sends/,
    );
  });

  it("steps an AIRPORT_OPERATOR up from a high-risk address and refuses, with nothing enrolled", async () => {
    const operator = DEMO_USERS.find((u) => u.username === "operator@zx.demo")!;
    const body = {
      grant_type: "password",
      username: operator.username,
      password: operator.password,
      audience: t.credentials.audiences.operator,
    };
    const post = (forwardedFor: string) =>
      fetch(`${t.base}/auth/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
        body: JSON.stringify(body),
      });
    const risky = await post("192.0.2.77");
    expect(risky.status).toBe(400);
    expect(((await risky.json()) as { error_description: string }).error_description).toMatch(
      /a second factor is required \(sign-in from a high-risk address\) and none is enrolled/,
    );
    expect((await post("198.51.100.4")).status).toBe(200);
  });
});

describe("passkey enrolment routes", () => {
  it("starts a registration ceremony for the operator host as relying party", async () => {
    const token = await t.operatorToken("operator@zx.demo");
    const list = await t.call("GET", "/v1/me/passkeys", token);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ items: [] });

    const options = await t.call("POST", "/v1/me/passkeys/registration-options", token);
    expect(options.status).toBe(200);
    expect(await options.json()).toMatchObject({
      rp: { id: "localhost", name: expect.any(String) },
      user: { name: "operator@zx.demo" },
      challenge: expect.any(String),
      attestation: "none",
    });
  });

  it("refuses an answer that is not a valid registration with a problem, and an unknown passkey with 404", async () => {
    const token = await t.operatorToken("supervisor@zx.demo");
    const withoutCeremony = await t.call("POST", "/v1/me/passkeys", token, { name: "Laptop", response: {} });
    expect(withoutCeremony.status).toBe(422);
    expect(withoutCeremony.headers.get("content-type")).toContain("application/problem+json");
    expect(((await withoutCeremony.json()) as { detail: string }).detail).toMatch(
      /no passkey ceremony is in progress/,
    );

    await t.call("POST", "/v1/me/passkeys/registration-options", token);
    const forged = await t.call("POST", "/v1/me/passkeys", token, {
      name: "Laptop",
      response: { id: "abc", rawId: "abc", type: "public-key", response: {}, clientExtensionResults: {} },
    });
    expect(forged.status).toBe(422);
    expect(((await forged.json()) as { detail: string }).detail).toMatch(/could not be verified/);

    const missing = await t.call("DELETE", "/v1/me/passkeys/nothing-here", token);
    expect(missing.status).toBe(404);
    const badBody = await t.call("POST", "/v1/me/passkeys", token, { name: "" });
    expect(badBody.status).toBe(400);
  });

  it("is for people: a service token may not enrol", async () => {
    const admin = await t.operatorToken("admin@zx.demo");
    const minted = await t.call("POST", "/v1/admin/service-tokens", admin, { role: "AIRPORT_OPERATOR" });
    const { token } = (await minted.json()) as { token: string };
    const refused = await t.call("POST", "/v1/me/passkeys/registration-options", token);
    expect(refused.status).toBe(403);
  });
});
