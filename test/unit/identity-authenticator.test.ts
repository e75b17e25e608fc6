import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { base64url, exportJWK, type JWTPayload, SignJWT } from "jose";
import type { Context } from "koa";
import { beforeEach, describe, expect, it } from "vitest";
import type { OperatorPrincipal, Principal } from "../../src/app/principals.js";
import { InsufficientScopeError } from "../../src/http/auth/insufficient-scope.js";
import { assertAirport, assertTenant } from "../../src/app/authorization.js";
import {
  type Authenticator,
  createAuthenticator,
  type ProtectedAccess,
} from "../../src/http/auth/authenticator.js";
import { EmergencyRevocationList } from "../../src/http/auth/emergency-revocations.js";
import { tokenVerifier } from "../../src/http/auth/token-verifier.js";
import { DomainError } from "../../src/domain/domain-error.js";
import { ProblemError, UnauthorizedError } from "../../src/http/errors.js";
import { asProblemError, problemBody } from "../../src/http/problem.js";
import { CircuitOpenError } from "../../src/vendors/circuit-open-error.js";
import { CLAIM } from "../../src/http/auth/claims.js";
import { CounterStoreRevokedGrants } from "../../src/http/auth/revoked-grants.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";

const ISSUER = "https://idp.test/auth";
const PASSENGER_ISSUER = "https://passenger.test";
const AUD = {
  operator: "https://api.test/v1",
  partner: "https://api.test/partner/v1",
  passenger: "https://zx.passenger.test/v1",
};
const KID = "idp-key-1";

const idpKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const attackerKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const passengerKeys = generateKeyPairSync("ed25519");

const anyOperator: ProtectedAccess = { kind: "operator", anyOf: ["AIRPORT_OPERATOR", "FINANCE_AUDIT"] };
const supervisorRoute: ProtectedAccess = { kind: "operator", anyOf: ["OPS_SUPERVISOR"] };
const casesReadRoute: ProtectedAccess = { kind: "partner", scope: "cases.read" };
const passengerRoute: ProtectedAccess = { kind: "passenger" };

function request(authorization?: string): Context {
  return {
    get: (name: string) => (name.toLowerCase() === "authorization" ? (authorization ?? "") : ""),
  } as Context;
}

function bearer(token: string): Context {
  return request(`Bearer ${token}`);
}

describe("authenticator", () => {
  let clock: ManualClock;
  let now: number;
  let revocations: EmergencyRevocationList;
  let revokedGrants: CounterStoreRevokedGrants;
  let authenticator: Authenticator;

  const operatorClaims = (overrides: JWTPayload = {}): JWTPayload => ({
    iss: ISSUER,
    sub: "zx-supervisor",
    aud: AUD.operator,
    iat: now,
    exp: now + 900,
    jti: "op-token-1",
    scope: "openid profile email",
    [CLAIM.airline]: "urn:airline:ZX",
    [CLAIM.role]: "OPS_SUPERVISOR",
    [CLAIM.operatorUrn]: "urn:user:zx-supervisor",
    amr: ["pwd", "otp"],
    gid: "grant-1",
    ...overrides,
  });

  const partnerClaims = (overrides: JWTPayload = {}): JWTPayload => ({
    iss: ISSUER,
    sub: "skyhub-zx@clients",
    aud: AUD.partner,
    iat: now,
    exp: now + 3600,
    jti: "partner-token-1",
    scope: "cases.read bookings.read",
    gty: "client-credentials",
    [CLAIM.partnerUrn]: "urn:partner:skyhub",
    [CLAIM.tenantUrn]: "urn:airline:ZX",
    ...overrides,
  });

  const passengerClaims = (overrides: JWTPayload = {}): JWTPayload => ({
    iss: PASSENGER_ISSUER,
    sub: "urn:passenger-session:7d0c",
    aud: AUD.passenger,
    exp: now + 7 * 86400,
    case_urn: "urn:case:c1",
    group_id: "PNR123",
    tenant: "urn:airline:ZX",
    ...overrides,
  });

  async function rs256(
    claims: JWTPayload,
    key: KeyObject = idpKeys.privateKey,
    header: Record<string, unknown> = {},
  ) {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: KID, typ: "at+jwt", ...header })
      .sign(key);
  }

  async function eddsa(claims: JWTPayload) {
    return new SignJWT(claims).setProtectedHeader({ alg: "EdDSA" }).sign(passengerKeys.privateKey);
  }

  /** The refusal as thrown (a ProblemError, or a DomainError for a forbidden role) and as answered. */
  async function refusal(ctx: Context, access: ProtectedAccess): Promise<ProblemError> {
    const error = await thrownBy(ctx, access);
    expect(error instanceof ProblemError || error instanceof DomainError).toBe(true);
    return asProblemError(error);
  }

  async function thrownBy(ctx: Context, access: ProtectedAccess): Promise<unknown> {
    return authenticator.authenticate(ctx, access).then(
      () => undefined,
      (e: unknown) => e,
    );
  }

  async function expect401(ctx: Context, access: ProtectedAccess, reason: "invalid_token" | "expired_token") {
    const error = await refusal(ctx, access);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.status).toBe(401);
    expect(error.headers["WWW-Authenticate"]).toBe(`Bearer error="${reason}"`);
    return error;
  }

  beforeEach(async () => {
    clock = new ManualClock("2026-03-01T12:00:00Z");
    now = Math.floor(clock.now() / 1000);
    revocations = new EmergencyRevocationList(new MemoryDocumentStore(), clock);
    revokedGrants = new CounterStoreRevokedGrants(new MemoryCounterStore(clock));
    const jwks = { keys: [{ ...(await exportJWK(idpKeys.publicKey)), kid: KID, alg: "RS256", use: "sig" }] };
    authenticator = createAuthenticator({
      operator: { issuer: ISSUER, audience: AUD.operator, jwks },
      partner: { issuer: ISSUER, audience: AUD.partner, jwks },
      passenger: { issuer: PASSENGER_ISSUER, audience: AUD.passenger, publicKey: passengerKeys.publicKey },
      partnerRegistrations: async (clientId) =>
        clientId === "skyhub-zx"
          ? { tier: 1, airlineUrn: "urn:airline:ZX", partnerUrn: "urn:partner:skyhub" }
          : undefined,
      revocations,
      revokedGrants,
      clock,
      skewSeconds: 30,
      mfaRequiredRoles: ["ADMIN", "OPS_SUPERVISOR", "FINANCE_AUDIT"],
    });
  });

  describe("accepts valid tokens of each surface", () => {
    it("builds the operator principal from the namespaced claims", async () => {
      const principal = await authenticator.authenticate(
        bearer(await rs256(operatorClaims())),
        supervisorRoute,
      );
      expect(principal).toEqual({
        surface: "operator",
        actorUrn: "urn:user:zx-supervisor",
        tenant: "urn:airline:ZX",
        role: "OPS_SUPERVISOR",
        amr: ["pwd", "otp"],
        grantId: "grant-1",
        tokenId: "op-token-1",
        expiresAt: (now + 900) * 1000,
      });
    });

    it("lets a role through where a role it inherits is required", async () => {
      const admin = operatorClaims({ [CLAIM.role]: "ADMIN" });
      await expect(
        authenticator.authenticate(bearer(await rs256(admin)), supervisorRoute),
      ).resolves.toMatchObject({
        role: "ADMIN",
      });
    });

    it("carries the airport of an airport-scoped operator", async () => {
      const scoped = operatorClaims({
        [CLAIM.role]: "AIRPORT_OPERATOR",
        [CLAIM.airport]: "JFK",
        amr: ["pwd"],
      });
      await expect(
        authenticator.authenticate(bearer(await rs256(scoped)), anyOperator),
      ).resolves.toMatchObject({
        airport: "JFK",
      });
    });

    it("builds the partner principal with its registration's tier", async () => {
      const principal = await authenticator.authenticate(
        bearer(await rs256(partnerClaims())),
        casesReadRoute,
      );
      expect(principal).toEqual({
        surface: "partner",
        actorUrn: "urn:partner:skyhub",
        clientId: "skyhub-zx",
        tenant: "urn:airline:ZX",
        scopes: new Set(["cases.read", "bookings.read"]),
        tier: 1,
        expiresAt: (now + 3600) * 1000,
      });
    });

    it("builds the passenger principal from an Ed25519 session token", async () => {
      const principal = await authenticator.authenticate(
        bearer(await eddsa(passengerClaims())),
        passengerRoute,
      );
      expect(principal).toEqual({
        surface: "passenger",
        actorUrn: "urn:passenger-session:7d0c",
        tenant: "urn:airline:ZX",
        caseUrn: "urn:case:c1",
        groupId: "PNR123",
        expiresAt: (now + 7 * 86400) * 1000,
      });
    });

    it("accepts any surface's valid token on an any-token route", async () => {
      const surfaces = await Promise.all(
        [await rs256(operatorClaims()), await rs256(partnerClaims()), await eddsa(passengerClaims())].map(
          async (token) => (await authenticator.authenticate(bearer(token), { kind: "any-token" })).surface,
        ),
      );
      expect(surfaces).toEqual(["operator", "partner", "passenger"]);
    });

    it("tolerates 30 seconds of clock skew on exp", async () => {
      const token = await rs256(operatorClaims({ exp: now - 20 }));
      await expect(authenticator.authenticate(bearer(token), supervisorRoute)).resolves.toMatchObject({
        surface: "operator",
      });
    });
  });

  describe("refuses with 401 invalid_token", () => {
    it("no token", async () => {
      await expect401(request(), supervisorRoute, "invalid_token");
    });

    it("another authentication scheme", async () => {
      await expect401(request("Basic c2t5aHViOnNlY3JldA=="), supervisorRoute, "invalid_token");
    });

    it("garbage", async () => {
      await expect401(bearer("not.a.jwt"), supervisorRoute, "invalid_token");
      await expect401(bearer("garbage"), { kind: "any-token" }, "invalid_token");
    });

    it("alg none", async () => {
      const header = base64url.encode(JSON.stringify({ alg: "none", typ: "at+jwt", kid: KID }));
      const payload = base64url.encode(JSON.stringify(operatorClaims()));
      await expect401(bearer(`${header}.${payload}.`), supervisorRoute, "invalid_token");
    });

    it("HS256 signed with the issuer's public key as the secret", async () => {
      const asSecret = (key: KeyObject) =>
        new TextEncoder().encode(key.export({ type: "spki", format: "pem" }).toString());
      const operatorForgery = await new SignJWT(operatorClaims())
        .setProtectedHeader({ alg: "HS256", kid: KID, typ: "at+jwt" })
        .sign(asSecret(idpKeys.publicKey));
      await expect401(bearer(operatorForgery), supervisorRoute, "invalid_token");
      const passengerForgery = await new SignJWT(passengerClaims())
        .setProtectedHeader({ alg: "HS256" })
        .sign(asSecret(passengerKeys.publicKey));
      await expect401(bearer(passengerForgery), passengerRoute, "invalid_token");
    });

    it("a signature by another key under the issuer's kid", async () => {
      await expect401(
        bearer(await rs256(operatorClaims(), attackerKeys.privateKey)),
        supervisorRoute,
        "invalid_token",
      );
    });

    it("a wrong issuer", async () => {
      const token = await rs256(operatorClaims({ iss: "https://evil.test/auth" }));
      await expect401(bearer(token), supervisorRoute, "invalid_token");
    });

    it("a token that is not an access token (typ)", async () => {
      const idToken = await rs256(operatorClaims(), idpKeys.privateKey, { typ: "JWT" });
      await expect401(bearer(idToken), supervisorRoute, "invalid_token");
    });

    it("an operator token on a partner route, and a partner token on an operator route", async () => {
      await expect401(bearer(await rs256(operatorClaims())), casesReadRoute, "invalid_token");
      await expect401(bearer(await rs256(partnerClaims())), anyOperator, "invalid_token");
    });

    it("operator and partner tokens on a passenger route, a passenger token on an operator route", async () => {
      await expect401(bearer(await rs256(operatorClaims())), passengerRoute, "invalid_token");
      await expect401(
        bearer(await rs256(partnerClaims({ aud: AUD.passenger }))),
        passengerRoute,
        "invalid_token",
      );
      await expect401(bearer(await eddsa(passengerClaims())), anyOperator, "invalid_token");
    });

    it("an audience no surface accepts, on an any-token route", async () => {
      const token = await rs256(operatorClaims({ aud: "https://other-api.test" }));
      await expect401(bearer(token), { kind: "any-token" }, "invalid_token");
    });

    it("a token that is not yet valid", async () => {
      const error = await expect401(
        bearer(await rs256(operatorClaims({ nbf: now + 120 }))),
        supervisorRoute,
        "invalid_token",
      );
      expect(error.message).toMatch(/not yet valid/);
    });

    it("a subject on the emergency revocation list, until it is removed", async () => {
      const token = await rs256(operatorClaims());
      await revocations.add(
        { kind: "subject", value: "urn:user:zx-supervisor" },
        "laptop stolen",
        "urn:user:zx-admin",
      );
      await expect401(bearer(token), supervisorRoute, "invalid_token");
      expect(await revocations.remove({ kind: "subject", value: "urn:user:zx-supervisor" })).toBe(true);
      await expect(authenticator.authenticate(bearer(token), supervisorRoute)).resolves.toBeDefined();
    });

    it("a token id on the emergency revocation list, which does not expire by itself", async () => {
      await revocations.add({ kind: "token", value: "op-token-1" }, "leaked in a log");
      await clock.advance(400 * 86400 * 1000);
      now = Math.floor(clock.now() / 1000);
      await expect401(
        bearer(await rs256(operatorClaims({ jti: "op-token-1" }))),
        supervisorRoute,
        "invalid_token",
      );
      await expect(
        authenticator.authenticate(
          bearer(await rs256(operatorClaims({ jti: "op-token-2" }))),
          supervisorRoute,
        ),
      ).resolves.toBeDefined();
    });

    it("a partner listed by its partner URN", async () => {
      await revocations.add({ kind: "subject", value: "urn:partner:skyhub" }, "contract ended");
      await expect401(bearer(await rs256(partnerClaims())), casesReadRoute, "invalid_token");
    });

    it("an access token whose refresh-token family was revoked", async () => {
      await revokedGrants.add("grant-1");
      await expect401(bearer(await rs256(operatorClaims())), supervisorRoute, "invalid_token");
      await expect(
        authenticator.authenticate(bearer(await rs256(operatorClaims({ gid: "grant-2" }))), supervisorRoute),
      ).resolves.toBeDefined();
    });

    it("ADMIN, OPS_SUPERVISOR or FINANCE_AUDIT without otp in amr", async () => {
      for (const role of ["ADMIN", "OPS_SUPERVISOR", "FINANCE_AUDIT"]) {
        const token = await rs256(operatorClaims({ [CLAIM.role]: role, amr: ["pwd"] }));
        const error = await expect401(bearer(token), anyOperator, "invalid_token");
        expect(error.message).toMatch(/multi-factor/);
      }
      const operator = await rs256(operatorClaims({ [CLAIM.role]: "AIRPORT_OPERATOR", amr: ["pwd"] }));
      await expect(authenticator.authenticate(bearer(operator), anyOperator)).resolves.toBeDefined();
    });

    it("an unknown role, or INTEGRATION outside a service token", async () => {
      await expect401(
        bearer(await rs256(operatorClaims({ [CLAIM.role]: "ROOT" }))),
        anyOperator,
        "invalid_token",
      );
      const integration = operatorClaims({ [CLAIM.role]: "INTEGRATION", amr: [] });
      await expect401(
        bearer(await rs256(integration)),
        { kind: "operator", anyOf: ["INTEGRATION"] },
        "invalid_token",
      );
    });

    it("a partner token whose registration no longer exists or names another airline", async () => {
      await expect401(
        bearer(await rs256(partnerClaims({ sub: "gone@clients" }))),
        casesReadRoute,
        "invalid_token",
      );
      const otherTenant = partnerClaims({ [CLAIM.tenantUrn]: "urn:airline:VQ" });
      await expect401(bearer(await rs256(otherTenant)), casesReadRoute, "invalid_token");
    });
  });

  it("refuses an expired token with 401 expired_token", async () => {
    const token = await rs256(operatorClaims());
    await clock.advance((900 + 31) * 1000);
    await expect401(bearer(token), supervisorRoute, "expired_token");
    await expect401(bearer(await eddsa(passengerClaims({ exp: now - 60 }))), passengerRoute, "expired_token");
  });

  it("refuses a token it accepted before, once the token expires or is revoked", async () => {
    const operator = await rs256(operatorClaims());
    const passenger = await eddsa(passengerClaims({ exp: now + 900 }));
    await expect(authenticator.authenticate(bearer(operator), supervisorRoute)).resolves.toBeDefined();
    await expect(authenticator.authenticate(bearer(passenger), passengerRoute)).resolves.toBeDefined();

    await clock.advance((900 + 29) * 1000);
    await expect(authenticator.authenticate(bearer(operator), supervisorRoute)).resolves.toBeDefined();
    await revocations.add({ kind: "token", value: "op-token-1" }, "leaked in a log");
    await expect401(bearer(operator), supervisorRoute, "invalid_token");

    await clock.advance(2 * 1000);
    await expect401(bearer(passenger), passengerRoute, "expired_token");
    await expect(revocations.remove({ kind: "token", value: "op-token-1" })).resolves.toBe(true);
    await expect401(bearer(operator), supervisorRoute, "expired_token");
  });

  it("hands out claims no caller can change for the next one, on a first and on a later call", async () => {
    const verify = tokenVerifier(
      { issuer: ISSUER, audience: AUD.partner, publicKey: idpKeys.publicKey },
      { algorithms: ["RS256"], typ: "at+jwt", clock, skewSeconds: 30 },
    );
    const token = await rs256(partnerClaims({ aud: [AUD.partner, AUD.operator] }));
    for (let call = 0; call < 2; call++) {
      const claims = await verify(token);
      expect(() => {
        claims.scope = "cases.write";
      }).toThrow(TypeError);
      expect(() => (claims.aud as string[]).push("https://elsewhere.test")).toThrow(TypeError);
    }
    expect(await verify(token)).toMatchObject({
      scope: "cases.read bookings.read",
      aud: [AUD.partner, AUD.operator],
    });
  });

  it("hands every call with one token a principal no caller can change, and still refuses it once its session is revoked", async () => {
    const operator = bearer(await rs256(operatorClaims()));
    const passenger = bearer(await eddsa(passengerClaims({ exp: now + 900 })));
    for (let call = 0; call < 2; call++) {
      const principal = (await authenticator.authenticate(operator, supervisorRoute)) as { role: string };
      expect(() => {
        principal.role = "ADMIN";
      }).toThrow(TypeError);
      const session = (await authenticator.authenticate(passenger, passengerRoute)) as { caseUrn: string };
      expect(() => {
        session.caseUrn = "urn:case:another";
      }).toThrow(TypeError);
    }
    expect(await authenticator.authenticate(operator, supervisorRoute)).toMatchObject({
      role: "OPS_SUPERVISOR",
    });
    await revokedGrants.add("grant-1");
    await expect401(operator, supervisorRoute, "invalid_token");
  });

  it("accepts a service token without amr, with INTEGRATION as its role", async () => {
    const service = operatorClaims({
      sub: "urn:service-token:s1",
      [CLAIM.operatorUrn]: "urn:service-token:s1",
      [CLAIM.role]: "INTEGRATION",
      [CLAIM.serviceToken]: true,
      amr: undefined,
      gid: undefined,
    });
    const principal = await authenticator.authenticate(bearer(await rs256(service)), {
      kind: "operator",
      anyOf: ["INTEGRATION"],
    });
    expect(principal).toMatchObject({ role: "INTEGRATION", actorUrn: "urn:service-token:s1", amr: [] });
  });

  describe("refuses with 403", () => {
    it("a role that does not satisfy the route", async () => {
      const operator = await rs256(operatorClaims({ [CLAIM.role]: "AIRPORT_OPERATOR", amr: ["pwd"] }));
      const thrown = await thrownBy(bearer(operator), supervisorRoute);
      expect(thrown).toBeInstanceOf(DomainError);
      expect(thrown).toMatchObject({ kind: "forbidden", code: "role-not-allowed" });
      const error = asProblemError(thrown);
      expect(error.status).toBe(403);
      // The same problem body the surfaces answered before the decision moved into src/app.
      expect(problemBody(error, "https://errors.test", "urn:trace:t")).toEqual({
        type: "https://errors.test/forbidden/role-not-allowed",
        title: "Forbidden",
        status: 403,
        detail: "Role AIRPORT_OPERATOR may not perform this operation",
        instance: "urn:trace:t",
        requiredRoles: ["OPS_SUPERVISOR"],
      });
      const finance = await rs256(operatorClaims({ [CLAIM.role]: "FINANCE_AUDIT" }));
      expect((await refusal(bearer(finance), supervisorRoute)).status).toBe(403);
    });

    it("a partner without the route's scope, naming insufficient_scope", async () => {
      const error = await refusal(
        bearer(await rs256(partnerClaims({ scope: "bookings.read" }))),
        casesReadRoute,
      );
      expect(error).toBeInstanceOf(InsufficientScopeError);
      expect(error.status).toBe(403);
      expect(error.headers["WWW-Authenticate"]).toBe('Bearer error="insufficient_scope", scope="cases.read"');
    });
  });

  it("reports an unreachable JWKS endpoint as an outage (503), not as a bad token", async () => {
    const remote = createAuthenticator({
      operator: { issuer: ISSUER, audience: AUD.operator, jwksUri: "http://127.0.0.1:9/auth/jwks" },
      partner: { issuer: ISSUER, audience: AUD.partner, jwksUri: "http://127.0.0.1:9/auth/jwks" },
      passenger: { issuer: PASSENGER_ISSUER, audience: AUD.passenger, publicKey: passengerKeys.publicKey },
      partnerRegistrations: async () => undefined,
      revocations,
      revokedGrants,
      clock,
    });
    const error = await remote
      .authenticate(bearer(await rs256(operatorClaims())), supervisorRoute)
      .catch((e) => e);
    expect(error).toBeInstanceOf(CircuitOpenError);
    // Passenger sessions do not depend on the operator identity provider (spec 5).
    await expect(
      remote.authenticate(bearer(await eddsa(passengerClaims())), passengerRoute),
    ).resolves.toBeDefined();
  });
});

describe("tenant and airport helpers", () => {
  const operator: OperatorPrincipal = {
    surface: "operator",
    actorUrn: "urn:user:zx-operator-jfk",
    tenant: "urn:airline:ZX",
    role: "AIRPORT_OPERATOR",
    airport: "JFK",
    amr: ["pwd"],
    expiresAt: 0,
  };

  it("refuses a resource of another tenant with 403, for a partner holding registrations with both", () => {
    const regulatorZx: Principal = {
      surface: "partner",
      actorUrn: "urn:partner:aero-regulator",
      clientId: "regulator-zx",
      tenant: "urn:airline:ZX",
      scopes: new Set(["cases.read"]),
      tier: 2,
      expiresAt: 0,
    };
    expect(() => assertTenant(regulatorZx, "urn:airline:ZX")).not.toThrow();
    const refused = refusalOf(() => assertTenant(regulatorZx, "urn:airline:VQ"));
    expect(refused).toMatchObject({ kind: "forbidden", code: "tenant-mismatch" });
    expect(asProblemError(refused)).toMatchObject({ status: 403, code: "tenant-mismatch" });
  });

  it("refuses an airport-scoped operator acting on another airport", () => {
    expect(() => assertAirport(operator, "JFK")).not.toThrow();
    const refused = refusalOf(() => assertAirport(operator, "BOS"));
    expect(refused).toBeInstanceOf(DomainError);
    expect(asProblemError(refused)).toMatchObject({
      status: 403,
      category: "forbidden",
      code: "airport-mismatch",
    });
    const airlineWide = { ...operator, airport: undefined };
    expect(() => assertAirport(airlineWide, "BOS")).not.toThrow();
  });
});

function refusalOf(act: () => void): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}
