import { decodeJwt, decodeProtectedHeader } from "jose";
import type { Context } from "koa";
import * as oidc from "openid-client";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_USERS } from "../../src/demo/demo-users.js";
import {
  type Authenticator,
  createAuthenticator,
  type ProtectedAccess,
} from "../../src/http/auth/authenticator.js";
import { EmergencyRevocationList } from "../../src/http/auth/emergency-revocations.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { ProblemError } from "../../src/http/errors.js";
import { asProblemError } from "../../src/http/problem.js";
import { CLAIM } from "../../src/http/auth/claims.js";
import { totpCode } from "../../src/identity/totp.js";
import { ManualClock, systemClock } from "../../src/runtime/clock.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { type RunningIdentityProvider, startIdentityProvider, tokenRequest } from "./identity-fixture.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const operatorRoute: ProtectedAccess = { kind: "operator", anyOf: ["AIRPORT_OPERATOR", "FINANCE_AUDIT"] };
const casesRead: ProtectedAccess = { kind: "partner", scope: "cases.read" };

function bearer(token: string): Context {
  return {
    get: (name: string) => (name.toLowerCase() === "authorization" ? `Bearer ${token}` : ""),
  } as Context;
}

function authenticatorFor(running: RunningIdentityProvider): Authenticator {
  const trust = { issuer: running.issuer, jwks: running.idp.jwks };
  return createAuthenticator({
    operator: { ...trust, audience: running.audiences.operator },
    partner: { ...trust, audience: running.audiences.partner },
    // Passenger tokens come from another component; any Ed25519 key stands in for it here.
    passenger: {
      issuer: "http://127.0.0.1:1",
      audience: running.audiences.passenger,
      publicKey: { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" },
    },
    partnerRegistrations: (clientId) => running.directory.findPartnerRegistration(clientId),
    revocations: new EmergencyRevocationList(new MemoryDocumentStore(), systemClock),
    revokedGrants: running.revokedGrants,
    clock: systemClock,
  });
}

async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; wwwAuthenticate?: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  // A bad token is refused by http; a role the route does not allow, by src/app (a forbidden DomainError).
  expect(error instanceof ProblemError || (error instanceof DomainError && error.kind === "forbidden")).toBe(
    true,
  );
  const problem = asProblemError(error);
  return { status: problem.status, wwwAuthenticate: problem.headers["WWW-Authenticate"] };
}

function loginBody(running: RunningIdentityProvider, username: string, withOtp = true) {
  const user = DEMO_USERS.find((u) => u.username === username)!;
  return {
    grant_type: "password",
    username,
    password: user.password,
    audience: running.audiences.operator,
    ...(withOtp && user.totpSecret ? { otp: totpCode(user.totpSecret, Date.now()) } : {}),
  };
}

describe("embedded identity provider", () => {
  let running: RunningIdentityProvider;
  let authenticator: Authenticator;

  beforeAll(async () => {
    running = await startIdentityProvider();
    authenticator = authenticatorFor(running);
  });
  afterAll(() => running.close());

  describe("discovery and keys", () => {
    it("publishes OIDC discovery with the token endpoint at /auth/oauth/token", async () => {
      const response = await fetch(`${running.issuer}/.well-known/openid-configuration`);
      expect(response.status).toBe(200);
      const metadata = (await response.json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        issuer: running.issuer,
        token_endpoint: running.tokenUrl,
        jwks_uri: `${running.issuer}/jwks`,
        code_challenge_methods_supported: ["S256"],
      });
      expect(metadata.grant_types_supported).toEqual(
        expect.arrayContaining(["authorization_code", "refresh_token", "client_credentials", "password"]),
      );
    });

    it("serves the RS256 public key with its kid and nothing private", async () => {
      const jwks = (await (await fetch(`${running.issuer}/jwks`)).json()) as {
        keys: Record<string, unknown>[];
      };
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0]).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig", kid: expect.any(String) });
      expect(Object.keys(jwks.keys[0]!).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
      expect(jwks).toEqual(running.idp.jwks);
    });
  });

  describe("password grant", () => {
    const members = DEMO_USERS.filter((u) => u.membership);

    it.each(members.map((u) => [u.username, u.membership!.role] as const))(
      "logs in %s (%s) with exactly the operator claims",
      async (username) => {
        const user = DEMO_USERS.find((u) => u.username === username)!;
        const { status, body } = await tokenRequest(running, loginBody(running, username));
        expect(status).toBe(200);
        expect(body).toMatchObject({
          token_type: "Bearer",
          expires_in: 900,
          refresh_token: expect.any(String),
        });
        expect(decodeProtectedHeader(body.access_token)).toMatchObject({ alg: "RS256", typ: "at+jwt" });
        const claims = decodeJwt(body.access_token);
        expect(claims).toEqual({
          iss: running.issuer,
          sub: user.id,
          aud: running.audiences.operator,
          exp: claims.iat! + 900,
          iat: expect.any(Number),
          jti: expect.any(String),
          scope: "openid profile email",
          [CLAIM.airline]: user.membership!.airlineUrn,
          [CLAIM.role]: user.membership!.role,
          [CLAIM.operatorUrn]: `urn:user:${user.id}`,
          ...(user.membership!.airport ? { [CLAIM.airport]: user.membership!.airport } : {}),
          amr: user.totpSecret ? ["pwd", "otp"] : ["pwd"],
          gid: expect.any(String),
        });
        const principal = await authenticator.authenticate(bearer(body.access_token), operatorRoute);
        expect(principal).toMatchObject({ surface: "operator", role: user.membership!.role });
      },
    );

    it("refuses ADMIN, OPS_SUPERVISOR and FINANCE_AUDIT without a TOTP code", async () => {
      for (const username of ["admin@zx.demo", "supervisor@vq.demo", "finance@zx.demo"]) {
        const { status, body } = await tokenRequest(running, loginBody(running, username, false));
        expect(status).toBe(400);
        expect(body.error).toBe("invalid_grant");
        expect(body.error_description).toMatch(
          /multi-factor authentication is required .* provide the TOTP code/,
        );
      }
    });

    it("refuses a wrong TOTP code and a wrong password", async () => {
      const wrongOtp = await tokenRequest(running, { ...loginBody(running, "admin@vq.demo"), otp: "000000" });
      expect(wrongOtp.body).toEqual({ error: "invalid_grant", error_description: "invalid one-time code" });
      const wrongPassword = await tokenRequest(running, {
        ...loginBody(running, "operator@zx.demo"),
        password: "x",
      });
      expect(wrongPassword.body).toEqual({
        error: "invalid_grant",
        error_description: "invalid username or password",
      });
    });

    it("refuses a user who belongs to no organization", async () => {
      const { status, body } = await tokenRequest(running, {
        grant_type: "password",
        username: "unaffiliated@demo",
        password: "demo-unaffiliated",
        audience: running.audiences.operator,
      });
      expect(status).toBe(400);
      expect(body).toEqual({
        error: "invalid_grant",
        error_description: "the user is not a member of any organization",
      });
    });

    it("refuses a request without audience, and an audience the console may not have", async () => {
      const { audience: _omitted, ...withoutAudience } = loginBody(running, "operator@zx.demo");
      expect(await tokenRequest(running, withoutAudience)).toEqual({
        status: 400,
        body: { error: "invalid_request", error_description: "audience is required" },
      });
      const partnerAudience = await tokenRequest(running, {
        ...loginBody(running, "operator@zx.demo"),
        audience: running.audiences.partner,
      });
      expect(partnerAudience.body.error).toBe("invalid_target");
    });
  });

  describe("refresh tokens", () => {
    it("rotates the refresh token and keeps the family and its claims", async () => {
      const login = await tokenRequest(running, loginBody(running, "admin@zx.demo"));
      const refreshed = await tokenRequest(running, {
        grant_type: "refresh_token",
        refresh_token: login.body.refresh_token,
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.refresh_token).not.toBe(login.body.refresh_token);
      const before = decodeJwt(login.body.access_token);
      const after = decodeJwt(refreshed.body.access_token);
      expect(after.gid).toBe(before.gid);
      expect(after.amr).toEqual(["pwd", "otp"]);
      expect(after.aud).toBe(running.audiences.operator);
      expect(decodeProtectedHeader(refreshed.body.access_token).typ).toBe("at+jwt");
      await expect(
        authenticator.authenticate(bearer(refreshed.body.access_token), operatorRoute),
      ).resolves.toBeDefined();
    });

    it("on reuse revokes the whole family, and the family's access token is refused with 401", async () => {
      const login = await tokenRequest(running, loginBody(running, "supervisor@zx.demo"));
      const other = await tokenRequest(running, loginBody(running, "supervisor@zx.demo"));
      const rotated = await tokenRequest(running, {
        grant_type: "refresh_token",
        refresh_token: login.body.refresh_token,
      });
      await expect(
        authenticator.authenticate(bearer(rotated.body.access_token), operatorRoute),
      ).resolves.toBeDefined();

      const reuse = await tokenRequest(running, {
        grant_type: "refresh_token",
        refresh_token: login.body.refresh_token,
      });
      expect(reuse.status).toBe(400);
      expect(reuse.body.error).toBe("invalid_grant");
      const newest = await tokenRequest(running, {
        grant_type: "refresh_token",
        refresh_token: rotated.body.refresh_token,
      });
      expect(newest.body.error).toBe("invalid_grant");

      for (const token of [login.body.access_token, rotated.body.access_token]) {
        expect(await refusalOf(authenticator.authenticate(bearer(token), operatorRoute))).toEqual({
          status: 401,
          wwwAuthenticate: 'Bearer error="invalid_token"',
        });
      }
      // Another login of the same user is another family and keeps working.
      await expect(
        authenticator.authenticate(bearer(other.body.access_token), operatorRoute),
      ).resolves.toBeDefined();
    });

    it("revoking the refresh token (logout) ends the family's access tokens too", async () => {
      const login = await tokenRequest(running, loginBody(running, "operator@vq.demo"));
      const revoke = await fetch(`${running.issuer}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: login.body.refresh_token, client_id: "operator-console" }),
      });
      expect(revoke.status).toBe(200);
      expect(
        (await refusalOf(authenticator.authenticate(bearer(login.body.access_token), operatorRoute))).status,
      ).toBe(401);
    });
  });

  describe("refresh-token lifetime", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    // oidc-provider reads the system time, so only Date is faked: no timers, no waiting.
    it("refuses a refresh token unused for 7 days", async () => {
      const login = await tokenRequest(running, loginBody(running, "operator@zx.demo"));
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 6 * DAY_MS });
      const inTime = await tokenRequest(running, {
        grant_type: "refresh_token",
        refresh_token: login.body.refresh_token,
      });
      expect(inTime.status).toBe(200);
      vi.setSystemTime(Date.now() + 7 * DAY_MS + 60_000);
      const idle = await tokenRequest(running, {
        grant_type: "refresh_token",
        refresh_token: inTime.body.refresh_token,
      });
      expect(idle.body).toMatchObject({ error: "invalid_grant" });
    });

    it("ends the family 30 days after login however often it is refreshed", async () => {
      const login = await tokenRequest(running, loginBody(running, "operator@zx.demo"));
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
      let refreshToken = login.body.refresh_token as string;
      for (let day = 6; day <= 29; day += 6) {
        vi.setSystemTime(Date.now() + 6 * DAY_MS);
        const refreshed = await tokenRequest(running, {
          grant_type: "refresh_token",
          refresh_token: refreshToken,
        });
        expect(refreshed.status, `day ${day}`).toBe(200);
        refreshToken = refreshed.body.refresh_token;
      }
      vi.setSystemTime(Date.now() + 6 * DAY_MS + 60_000);
      const late = await tokenRequest(running, { grant_type: "refresh_token", refresh_token: refreshToken });
      expect(late.body).toMatchObject({ error: "invalid_grant" });
    });
  });

  describe("client credentials", () => {
    const partnerClaimsOf = (token: string) => decodeJwt(token);

    it("issues the partner token of spec 5.3 for a JSON body", async () => {
      const { status, body } = await tokenRequest(running, {
        grant_type: "client_credentials",
        client_id: "regulator-vq",
        client_secret: "demo-secret-regulator-vq",
        audience: running.audiences.partner,
      });
      expect(status).toBe(200);
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: "Bearer",
        expires_in: 3600,
        scope: "cases.read disruptions.events.subscribe policies.read metrics.read",
      });
      expect(decodeProtectedHeader(body.access_token)).toMatchObject({ alg: "RS256", typ: "at+jwt" });
      const claims = partnerClaimsOf(body.access_token);
      expect(claims).toEqual({
        iss: running.issuer,
        sub: "regulator-vq@clients",
        aud: running.audiences.partner,
        exp: claims.iat! + 3600,
        iat: expect.any(Number),
        jti: expect.any(String),
        scope: "cases.read disruptions.events.subscribe policies.read metrics.read",
        gty: "client-credentials",
        [CLAIM.partnerUrn]: "urn:partner:aero-regulator",
        [CLAIM.tenantUrn]: "urn:airline:VQ",
      });
      await expect(authenticator.authenticate(bearer(body.access_token), casesRead)).resolves.toMatchObject({
        surface: "partner",
        tenant: "urn:airline:VQ",
        tier: 2,
      });
    });

    it("accepts a form body with client_secret_basic, and with client_secret_post", async () => {
      const basic = Buffer.from("skyhub-zx:demo-secret-skyhub-zx").toString("base64");
      const withBasic = await fetch(running.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
        body: new URLSearchParams({ grant_type: "client_credentials", audience: running.audiences.partner }),
      });
      expect(withBasic.status).toBe(200);
      const withPost = await fetch(running.tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: "skyhub-zx",
          client_secret: "demo-secret-skyhub-zx",
          resource: running.audiences.partner,
          scope: "cases.read bookings.read",
        }),
      });
      expect(withPost.status).toBe(200);
      const body = (await withPost.json()) as { access_token: string };
      expect(partnerClaimsOf(body.access_token).scope).toBe("cases.read bookings.read");
    });

    it("refuses a wrong secret, a missing audience, an unregistered scope and the operator audience", async () => {
      const base = {
        grant_type: "client_credentials",
        client_id: "skyhub-zx",
        client_secret: "demo-secret-skyhub-zx",
      };
      const wrongSecret = await tokenRequest(running, {
        ...base,
        client_secret: "guess",
        audience: running.audiences.partner,
      });
      expect(wrongSecret.status).toBe(401);
      expect(wrongSecret.body.error).toBe("invalid_client");
      expect(await tokenRequest(running, base)).toEqual({
        status: 400,
        body: { error: "invalid_request", error_description: "audience is required" },
      });
      const extraScope = await tokenRequest(running, {
        ...base,
        audience: running.audiences.partner,
        scope: "metrics.read",
      });
      expect(extraScope.body.error).toBe("invalid_scope");
      const operatorAudience = await tokenRequest(running, { ...base, audience: running.audiences.operator });
      expect(operatorAudience.body.error).toBe("invalid_target");
    });

    it("gives a partner token that fails on operator routes and an operator token that fails on partner routes", async () => {
      const partner = await tokenRequest(running, {
        grant_type: "client_credentials",
        client_id: "skyhub-zx",
        client_secret: "demo-secret-skyhub-zx",
        audience: running.audiences.partner,
      });
      const operator = await tokenRequest(running, loginBody(running, "operator@zx.demo"));
      expect(
        (await refusalOf(authenticator.authenticate(bearer(partner.body.access_token), operatorRoute)))
          .status,
      ).toBe(401);
      expect(
        (await refusalOf(authenticator.authenticate(bearer(operator.body.access_token), casesRead))).status,
      ).toBe(401);
    });

    it("works with the stock openid-client library (discovery, then client credentials)", async () => {
      const config = await oidc.discovery(
        new URL(running.issuer),
        "tripdesk-vq",
        undefined,
        oidc.ClientSecretBasic("demo-secret-tripdesk-vq-2"),
        { execute: [oidc.allowInsecureRequests] },
      );
      expect(config.serverMetadata().token_endpoint).toBe(running.tokenUrl);
      const tokens = await oidc.clientCredentialsGrant(config, { resource: running.audiences.partner });
      expect(tokens.token_type).toBe("bearer");
      expect(tokens.expires_in).toBe(3600);
      expect(decodeJwt(tokens.access_token)).toMatchObject({
        sub: "tripdesk-vq@clients",
        [CLAIM.partnerUrn]: "urn:partner:tripdesk",
        [CLAIM.tenantUrn]: "urn:airline:VQ",
      });
    });
  });

  describe("authorization code with PKCE for the console", () => {
    /** A browser: follows redirects by hand and keeps cookies. */
    async function browse(url: string, init: RequestInit = {}, jar = new Map<string, string>()) {
      const response = await fetch(url, {
        ...init,
        redirect: "manual",
        headers: {
          ...(init.headers as Record<string, string>),
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(";");
        const [name, value] = pair!.split("=");
        jar.set(name!, value ?? "");
      }
      return { response, jar };
    }

    async function signIn(username: string, otp: string | undefined) {
      const config = await oidc.discovery(
        new URL(running.issuer),
        "operator-console",
        undefined,
        oidc.None(),
        {
          execute: [oidc.allowInsecureRequests],
        },
      );
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const authorizationUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: `${running.baseUrl}/console/callback`,
        scope: "openid profile email",
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
      });
      const start = await browse(authorizationUrl.href);
      expect(start.response.status).toBe(303);
      const loginPageUrl = new URL(start.response.headers.get("location")!, running.baseUrl).href;
      const page = await browse(loginPageUrl, {}, start.jar);
      expect(await page.response.text()).toContain('name="otp"');
      const user = DEMO_USERS.find((u) => u.username === username)!;
      const submitted = await browse(
        `${loginPageUrl}/login`,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ username, password: user.password, otp: otp ?? "" }),
        },
        page.jar,
      );
      return { config, verifier, state, submitted };
    }

    /** Signs in through the login page and exchanges the code with the stock client, keeping its cookies. */
    async function codeGrant(username: string) {
      const secret = DEMO_USERS.find((u) => u.username === username)!.totpSecret;
      const { config, verifier, state, submitted } = await signIn(
        username,
        secret ? totpCode(secret, Date.now()) : undefined,
      );
      expect(submitted.response.status).toBe(303);
      const resume = await browse(
        new URL(submitted.response.headers.get("location")!, running.baseUrl).href,
        {},
        submitted.jar,
      );
      const callback = new URL(resume.response.headers.get("location")!);
      expect(callback.pathname).toBe("/console/callback");
      const setCookies: string[] = [];
      config[oidc.customFetch] = async (url, options) => {
        const response = await fetch(url, options as RequestInit);
        setCookies.push(...response.headers.getSetCookie());
        return response;
      };
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      return { tokens, setCookies };
    }

    /** The console's refresh: no token in the body, the cookie instead. */
    async function cookieRefresh(cookie: string | undefined) {
      const response = await fetch(running.tokenUrl, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(cookie ? { cookie: `operator_refresh=${cookie}` } : {}),
        },
        body: new URLSearchParams({ grant_type: "refresh_token", client_id: "operator-console" }),
      });
      return {
        status: response.status,
        body: (await response.json()) as Record<string, any>,
        cookie: refreshCookieOf(response.headers.getSetCookie()),
      };
    }

    function refreshCookieOf(setCookies: string[]) {
      const header = setCookies.find((c) => c.startsWith("operator_refresh="));
      return header === undefined
        ? undefined
        : { value: header.split(";")[0]!.slice("operator_refresh=".length), header: header.toLowerCase() };
    }

    it("signs an ADMIN in with password and TOTP and issues tokens with amr otp", async () => {
      const { tokens } = await codeGrant("admin@vq.demo");
      const claims = decodeJwt(tokens.access_token);
      expect(claims).toMatchObject({
        aud: running.audiences.operator,
        sub: "vq-admin",
        amr: ["pwd", "otp"],
        scope: "openid profile email",
        [CLAIM.role]: "ADMIN",
        [CLAIM.airline]: "urn:airline:VQ",
      });
      expect(tokens.claims()).toMatchObject({ sub: "vq-admin", email: "admin@vq.demo" });
      const admin = await authenticator.authenticate(bearer(tokens.access_token), {
        kind: "operator",
        anyOf: ["ADMIN"],
      });
      expect(admin).toMatchObject({ role: "ADMIN", tenant: "urn:airline:VQ" });
    });

    it("keeps the console's refresh token in an httpOnly SameSite=Strict cookie of the token folder, never in the JSON", async () => {
      const { tokens, setCookies } = await codeGrant("admin@vq.demo");
      expect(tokens.refresh_token).toBeUndefined();
      const cookie = refreshCookieOf(setCookies)!;
      expect(cookie.value.length).toBeGreaterThan(20);
      expect(cookie.header).toContain("path=/auth/oauth/");
      expect(cookie.header).toContain("httponly");
      expect(cookie.header).toContain("samesite=strict");
      // Kept for the refresh token's idle lifetime (7 days), renewed by every rotation.
      const expires = Date.parse(/expires=([^;]+)/.exec(cookie.header)![1]!);
      expect(Math.abs(expires - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);
      // Served over http here; an https issuer makes it Secure.
      expect(cookie.header).not.toContain("secure");

      const refreshed = await cookieRefresh(cookie.value);
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.refresh_token).toBeUndefined();
      expect(decodeJwt(refreshed.body.access_token)).toMatchObject({
        amr: ["pwd", "otp"],
        gid: decodeJwt(tokens.access_token).gid,
        sub: "vq-admin",
      });
      expect(refreshed.cookie!.value).not.toBe(cookie.value);
      expect((await cookieRefresh(undefined)).status).toBe(400);

      // The rotated-away cookie is a reuse: the family ends (spec 5.1) and the cookie is dropped.
      const reuse = await cookieRefresh(cookie.value);
      expect(reuse.body.error).toBe("invalid_grant");
      expect(reuse.cookie!.header).toContain("expires=thu, 01 jan 1970");
      expect((await cookieRefresh(refreshed.cookie!.value)).body.error).toBe("invalid_grant");
      expect(
        (await refusalOf(authenticator.authenticate(bearer(refreshed.body.access_token), operatorRoute)))
          .status,
      ).toBe(401);
    });

    it("revokes the cookie's refresh token at logout and drops the cookie", async () => {
      const { tokens, setCookies } = await codeGrant("operator@vq.demo");
      const cookie = refreshCookieOf(setCookies)!.value;
      const revoke = (withCookie: boolean) =>
        fetch(`${running.issuer}/oauth/revoke`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            ...(withCookie ? { cookie: `operator_refresh=${cookie}` } : {}),
          },
          body: new URLSearchParams({ client_id: "operator-console", token_type_hint: "refresh_token" }),
        });
      const revoked = await revoke(true);
      expect(revoked.status).toBe(200);
      expect(refreshCookieOf(revoked.headers.getSetCookie())!.header).toContain("expires=thu, 01 jan 1970");
      expect((await cookieRefresh(cookie)).body.error).toBe("invalid_grant");
      expect(
        (await refusalOf(authenticator.authenticate(bearer(tokens.access_token), operatorRoute))).status,
      ).toBe(401);
      // Without a cookie there is nothing to revoke, which RFC 7009 answers like a revocation.
      expect((await revoke(false)).status).toBe(200);
    });

    it("asks for the missing second factor on a screen of its own, and refuses a user with no organization", async () => {
      const noOtp = await signIn("supervisor@zx.demo", undefined);
      expect(noOtp.submitted.response.status).toBe(200);
      const screen = await noOtp.submitted.response.text();
      expect(screen).toContain(
        "Multi-factor authentication is required: role OPS_SUPERVISOR requires a second factor",
      );
      expect(screen).toContain("One-time code");
      // No passkey enrolled: the screen offers none, and loads no script.
      expect(screen).not.toContain("Sign in with a passkey");
      expect(screen).not.toContain("<script");
      const otpAction = /action="([^"]+\/otp)"/.exec(screen)![1]!;
      const secret = DEMO_USERS.find((u) => u.username === "supervisor@zx.demo")!.totpSecret!;
      const wrong = await browse(
        new URL(otpAction, running.baseUrl).href,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "otp=000000",
        },
        noOtp.submitted.jar,
      );
      expect(await wrong.response.text()).toContain("invalid one-time code");
      const confirmed = await browse(
        new URL(otpAction, running.baseUrl).href,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ otp: totpCode(secret, Date.now()) }),
        },
        wrong.jar,
      );
      expect(confirmed.response.status).toBe(303);
      expect(confirmed.response.headers.get("location")).toContain("/auth/auth/");
      const orphan = await signIn("unaffiliated@demo", undefined);
      expect(await orphan.submitted.response.text()).toContain(
        "the user is not a member of any organization",
      );
    });
  });

  describe("service tokens", () => {
    it("mints a token the operator API accepts for its role, and the emergency list can end it", async () => {
      const revocations = new EmergencyRevocationList(new MemoryDocumentStore(), systemClock);
      const trust = { issuer: running.issuer, jwks: running.idp.jwks };
      const api = createAuthenticator({
        operator: { ...trust, audience: running.audiences.operator },
        partner: { ...trust, audience: running.audiences.partner },
        passenger: {
          issuer: "http://127.0.0.1:1",
          audience: running.audiences.passenger,
          jwksUri: "http://127.0.0.1:1/jwks",
        },
        partnerRegistrations: (id) => running.directory.findPartnerRegistration(id),
        revocations,
        revokedGrants: running.revokedGrants,
        clock: systemClock,
      });
      const minted = await running.idp.mintServiceToken({
        tenant: "urn:airline:ZX",
        role: "INTEGRATION",
        ttl: 3600,
      });
      const integrationRoute: ProtectedAccess = { kind: "operator", anyOf: ["INTEGRATION"] };
      await expect(api.authenticate(bearer(minted.token), integrationRoute)).resolves.toMatchObject({
        actorUrn: minted.actorUrn,
        role: "INTEGRATION",
        tenant: "urn:airline:ZX",
      });
      expect((await refusalOf(api.authenticate(bearer(minted.token), operatorRoute))).status).toBe(403);

      await revocations.add({ kind: "token", value: minted.tokenId }, "rotated by the airline");
      expect(await refusalOf(api.authenticate(bearer(minted.token), integrationRoute))).toEqual({
        status: 401,
        wwwAuthenticate: 'Bearer error="invalid_token"',
      });
    });

    it("scopes a service token to one airport of the tenant and refuses a foreign airport", async () => {
      const minted = await running.idp.mintServiceToken({
        tenant: "urn:airline:ZX",
        role: "AIRPORT_OPERATOR",
        airport: "BOS",
        ttl: 600,
      });
      expect(decodeJwt(minted.token)).toMatchObject({
        [CLAIM.airport]: "BOS",
        [CLAIM.serviceToken]: true,
        exp: expect.any(Number),
      });
      await expect(
        running.idp.mintServiceToken({
          tenant: "urn:airline:ZX",
          role: "AIRPORT_OPERATOR",
          airport: "LHR",
          ttl: 600,
        }),
      ).rejects.toThrow(/not an airport of urn:airline:ZX/);
      await expect(
        running.idp.mintServiceToken({
          tenant: "urn:airline:ZX",
          role: "FINANCE_AUDIT" as "ADMIN",
          ttl: 600,
        }),
      ).rejects.toThrow(/role must be one of/);
    });
  });
});

describe("partner secret rotation", () => {
  let running: RunningIdentityProvider;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    running = await startIdentityProvider(clock);
  });
  afterAll(() => running.close());

  const request = (secret: string) =>
    tokenRequest(running, {
      grant_type: "client_credentials",
      client_id: "tripdesk-vq",
      client_secret: secret,
      audience: running.audiences.partner,
    });

  it("accepts the old and the new secret inside the 14-day window, only the new one after it", async () => {
    expect((await request("demo-secret-tripdesk-vq-1")).status).toBe(200);
    expect((await request("demo-secret-tripdesk-vq-2")).status).toBe(200);
    await clock.advance(13 * DAY_MS);
    const old = await request("demo-secret-tripdesk-vq-1");
    expect(old.status).toBe(401);
    expect(old.body.error).toBe("invalid_client");
    expect((await request("demo-secret-tripdesk-vq-2")).status).toBe(200);
  });

  it("accepts the old secret through client_secret_basic too", async () => {
    const rotating = await running.directory.findPartnerRegistration("tripdesk-vq");
    expect(rotating?.previousSecret).toBeDefined();
    const fresh = await startIdentityProvider(new ManualClock(Date.now()));
    try {
      const response = await fetch(fresh.tokenUrl, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from("tripdesk-vq:demo-secret-tripdesk-vq-1").toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "client_credentials", audience: fresh.audiences.partner }),
      });
      expect(response.status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
