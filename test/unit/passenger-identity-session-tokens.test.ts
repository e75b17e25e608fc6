import {
  base64url,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";
import { describe, expect, it } from "vitest";
import { UnauthorizedError } from "../../src/http/errors.js";
import { createPassengerIdentity } from "../../src/passenger-identity/passenger-identity.js";
import { loadPassengerSigningKey } from "../../src/passenger-identity/signing-key.js";
import { ManualClock } from "../../src/runtime/clock.js";
import { MemoryCounterStore } from "../../src/runtime/memory/counter-store.js";
import { MemoryDocumentStore } from "../../src/runtime/memory/document-store.js";
import { CASE, problemOf, ZX } from "./passenger-identity-fixture.js";

const OTHER_CASE = "urn:case:5f1c2a8e-0000-4000-8000-000000000002";
const BASE = "https://zx.passenger.example";
const DAY_S = 24 * 60 * 60;

async function setup() {
  const clock = new ManualClock("2026-03-01T10:00:00Z");
  const signingJwk = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
  const identity = await createPassengerIdentity({
    passengerBaseUrl: BASE,
    signingKey: signingJwk,
    captchaSecret: "s",
    onLoginLocked: async () => {},
    counters: new MemoryCounterStore(clock),
    documents: new MemoryDocumentStore(),
    clock,
  });
  const group = { tenant: ZX, caseUrn: CASE, groupId: "g-1" };
  return { clock, identity, group, signingJwk };
}

/** The claims a genuine session token of `group` carries, for forging tokens that differ only in the signature. */
function sessionClaims(identity: { issuer: string; audience: string }, now: number) {
  const iat = Math.floor(now / 1000);
  return {
    iss: identity.issuer,
    sub: "urn:passenger-session:0b7f3c4e-1111-4222-8333-944455556666",
    aud: identity.audience,
    iat,
    exp: iat + 7 * DAY_S,
    case_urn: CASE,
    group_id: "g-1",
    tenant: ZX,
  };
}

describe("passenger session tokens", () => {
  it("carry exactly iss, sub, aud, iat, exp, case_urn, group_id and tenant", async () => {
    const { clock, identity, group } = await setup();
    const minted = await identity.sessions.mint(group);
    const claims = decodeJwt(minted.token);
    expect(Object.keys(claims).sort()).toEqual([
      "aud",
      "case_urn",
      "exp",
      "group_id",
      "iat",
      "iss",
      "sub",
      "tenant",
    ]);
    const iat = Math.floor(clock.now() / 1000);
    expect(claims.iss).toBe(BASE);
    expect(claims.aud).toBe(`${BASE}/v1`);
    expect(claims.sub).toMatch(
      /^urn:passenger-session:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(claims.iat).toBe(iat);
    expect(claims.exp).toBe(iat + 7 * DAY_S);
    expect([claims.case_urn, claims.group_id, claims.tenant]).toEqual([CASE, "g-1", ZX]);
    expect(minted.expiresAt).toBe(new Date((iat + 7 * DAY_S) * 1000).toISOString());
    expect(decodeProtectedHeader(minted.token)).toMatchObject({ alg: "EdDSA", typ: "passenger-session+jwt" });
    const other = decodeJwt((await identity.sessions.mint(group)).token);
    expect(other.sub).not.toBe(claims.sub);
  });

  it("verify into the passenger principal", async () => {
    const { identity, group } = await setup();
    const minted = await identity.sessions.mint(group);
    const principal = await identity.sessions.verify(minted.token);
    expect(principal).toEqual({
      surface: "passenger",
      actorUrn: decodeJwt(minted.token).sub,
      tenant: ZX,
      caseUrn: CASE,
      groupId: "g-1",
      expiresAt: Date.parse(minted.expiresAt),
    });
  });

  it("verify against the published JWKS, with no access to the private key", async () => {
    const { clock, identity, group } = await setup();
    const { token } = await identity.sessions.mint(group);
    expect(identity.jwks.keys).toHaveLength(1);
    expect(identity.jwks.keys[0]).not.toHaveProperty("d");
    const { payload } = await jwtVerify(token, createLocalJWKSet(identity.jwks), {
      algorithms: ["EdDSA"],
      issuer: identity.issuer,
      audience: identity.audience,
      currentDate: new Date(clock.now()),
    });
    expect(payload.case_urn).toBe(CASE);
  });

  it("accept EdDSA only: RS256, HS256, alg none and Ed25519-labelled tokens with the same claims are refused", async () => {
    const { clock, identity, signingJwk } = await setup();
    const claims = sessionClaims(identity, clock.now());
    const typ = "passenger-session+jwt";
    // The genuine key and claims verify, so the refusals below are about the algorithm alone.
    const ownKey = await importJWK(signingJwk, "EdDSA");
    const genuine = await new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", typ }).sign(ownKey);
    await expect(identity.sessions.verify(genuine)).resolves.toMatchObject({ caseUrn: CASE });

    const rsa = (await generateKeyPair("RS256")).privateKey;
    const rs256 = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ }).sign(rsa);
    const hs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ })
      .sign(new TextEncoder().encode(JSON.stringify(identity.jwks.keys[0])));
    const none = `${base64url.encode(JSON.stringify({ alg: "none", typ }))}.${base64url.encode(JSON.stringify(claims))}.`;
    const ed25519Label = await new SignJWT(claims).setProtectedHeader({ alg: "Ed25519", typ }).sign(ownKey);
    for (const forged of [rs256, hs256, none, ed25519Label]) {
      const problem = await problemOf(identity.sessions.verify(forged));
      expect(problem).toBeInstanceOf(UnauthorizedError);
      expect(problem.headers["WWW-Authenticate"]).toBe('Bearer error="invalid_token"');
    }
  });

  it("refuse a token signed by another Ed25519 key, or of another issuer or audience", async () => {
    const { clock, identity, signingJwk } = await setup();
    const claims = sessionClaims(identity, clock.now());
    const ownKey = await importJWK(signingJwk, "EdDSA");
    const strangerKey = (await generateKeyPair("EdDSA")).privateKey;
    const header = { alg: "EdDSA", typ: "passenger-session+jwt" };
    const forged = [
      await new SignJWT(claims).setProtectedHeader(header).sign(strangerKey),
      await new SignJWT({ ...claims, iss: "https://vq.passenger.example" })
        .setProtectedHeader(header)
        .sign(ownKey),
      await new SignJWT({ ...claims, aud: "http://localhost:8080/v1" })
        .setProtectedHeader(header)
        .sign(ownKey),
      await new SignJWT({ ...claims, sub: "urn:user:ops-1" }).setProtectedHeader(header).sign(ownKey),
    ];
    for (const token of forged) expect((await problemOf(identity.sessions.verify(token))).status).toBe(401);
  });

  it("refuse a magic-link token presented as a session", async () => {
    const { identity, group } = await setup();
    const link = await identity.magicLinks.issueMagicLink(group);
    const problem = await problemOf(identity.sessions.verify(link.token));
    expect(problem.status).toBe(401);
  });

  it("expire 7 days after issue, with 30 s of clock skew tolerated", async () => {
    const { clock, identity, group } = await setup();
    const { token } = await identity.sessions.mint(group);
    await clock.advance(7 * DAY_S * 1000 + 29_000);
    await expect(identity.sessions.verify(token)).resolves.toMatchObject({ caseUrn: CASE });
    await clock.advance(1_000);
    const problem = await problemOf(identity.sessions.verify(token));
    expect(problem.status).toBe(401);
    expect((problem as UnauthorizedError).reason).toBe("expired_token");
  });

  describe("case revocation", () => {
    it("refuses with 403 case-closed every token of a case while it is closed, and mints none", async () => {
      const { clock, identity, group } = await setup();
      const { token } = await identity.sessions.mint(group);
      const otherCase = await identity.sessions.mint({ ...group, caseUrn: OTHER_CASE });
      await clock.advance(60_000);
      await identity.revocations.revokeCase(CASE, new Date(clock.now()));
      const problem = await problemOf(identity.sessions.verify(token));
      expect([problem.status, problem.code]).toEqual([403, "case-closed"]);
      expect((await problemOf(identity.sessions.mint(group))).status).toBe(403);
      await expect(identity.sessions.verify(otherCase.token)).resolves.toMatchObject({ caseUrn: OTHER_CASE });
    });

    it("keeps tokens minted before the close revoked (401) after the case reopens, and accepts new ones", async () => {
      const { clock, identity, group } = await setup();
      const before = await identity.sessions.mint(group);
      await clock.advance(60_000);
      await identity.revocations.revokeCase(CASE, new Date(clock.now()));
      await clock.advance(60_000);
      await identity.revocations.caseReopened(CASE);
      const problem = await problemOf(identity.sessions.verify(before.token));
      expect(problem.status).toBe(401);
      expect((problem as UnauthorizedError).reason).toBe("invalid_token");
      const after = await identity.sessions.mint(group);
      await expect(identity.sessions.verify(after.token)).resolves.toMatchObject({ caseUrn: CASE });
    });

    it("is durable: another instance over the same document store sees it", async () => {
      const clock = new ManualClock("2026-03-01T10:00:00Z");
      const documents = new MemoryDocumentStore();
      const signingKey = await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey);
      const build = () =>
        createPassengerIdentity({
          passengerBaseUrl: BASE,
          signingKey,
          captchaSecret: "s",
          onLoginLocked: async () => {},
          counters: new MemoryCounterStore(clock),
          documents,
          clock,
        });
      const first = await build();
      const { token } = await first.sessions.mint({ tenant: ZX, caseUrn: CASE, groupId: "g-1" });
      await first.revocations.revokeCase(CASE, new Date(clock.now()));
      const second = await build();
      expect((await problemOf(second.sessions.verify(token))).status).toBe(403);
    });
  });
});

describe("passenger signing key", () => {
  it("refuses anything but a private Ed25519 key, such as the operator's RSA key", async () => {
    const rsa = await exportJWK((await generateKeyPair("RS256", { extractable: true })).privateKey);
    await expect(loadPassengerSigningKey(rsa)).rejects.toThrow(/Ed25519/);
    const publicOnly = await exportJWK((await generateKeyPair("EdDSA")).publicKey);
    await expect(loadPassengerSigningKey(publicOnly as JWK)).rejects.toThrow(/Ed25519/);
  });

  it("keeps the kid of a configured key and publishes only its public half", async () => {
    const jwk = {
      ...(await exportJWK((await generateKeyPair("EdDSA", { extractable: true })).privateKey)),
      kid: "p-1",
    };
    const key = await loadPassengerSigningKey(jwk);
    expect(key.kid).toBe("p-1");
    expect(key.publicJwks.keys).toEqual([
      { kty: "OKP", crv: "Ed25519", x: jwk.x, kid: "p-1", alg: "EdDSA", use: "sig" },
    ]);
  });
});
