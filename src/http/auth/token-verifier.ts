import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  type KeyObject,
} from "jose";
import type { Clock } from "../../runtime/clock.js";
import { CircuitOpenError, UnauthorizedError } from "../errors.js";

/** Where one surface's tokens come from and whom they are for. Give exactly one key source. */
export interface TokenTrust {
  issuer: string;
  audience: string;
  /** The issuer's public keys, when known in-process (the embedded identity provider). */
  jwks?: JSONWebKeySet;
  /** The issuer's JWKS endpoint, fetched and cached (an external identity provider). */
  jwksUri?: string;
  /** A single public key, e.g. the passenger surface's Ed25519 key. */
  publicKey?: CryptoKey | KeyObject | JWK;
}

export interface VerifierOptions {
  /** The only JWS algorithms accepted: `none` and anything symmetric are never in it. */
  algorithms: readonly string[];
  /** Required `typ` header, e.g. `at+jwt` (RFC 9068), so an ID token is not taken for an access token. */
  typ?: string;
  clock: Clock;
  skewSeconds: number;
}

export type TokenVerifier = (token: string) => Promise<JWTPayload>;

/**
 * Verifies signature, algorithm, issuer, audience, exp and nbf (with a small skew) of one surface's
 * tokens. Every failure is a 401: `expired_token` for an expired token, `invalid_token` otherwise.
 */
export function tokenVerifier(trust: TokenTrust, options: VerifierOptions): TokenVerifier {
  const key = keySource(trust);
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [...options.algorithms],
        issuer: trust.issuer,
        audience: trust.audience,
        ...(options.typ ? { typ: options.typ } : {}),
        requiredClaims: ["exp", "sub"],
        clockTolerance: options.skewSeconds,
        currentDate: new Date(options.clock.now()),
      });
      return payload;
    } catch (error) {
      throw asUnauthorized(error);
    }
  };
}

function keySource(trust: TokenTrust): JWTVerifyGetKey | CryptoKey | KeyObject | JWK {
  const sources = [trust.jwks, trust.jwksUri, trust.publicKey].filter((s) => s !== undefined);
  if (sources.length !== 1)
    throw new Error(`Give exactly one of jwks, jwksUri, publicKey for issuer ${trust.issuer}`);
  if (trust.jwks) return createLocalJWKSet(trust.jwks);
  if (trust.jwksUri) return createRemoteJWKSet(new URL(trust.jwksUri));
  return trust.publicKey!;
}

function asUnauthorized(error: unknown): Error {
  // The issuer's JWKS cannot be fetched: that is an outage, not a bad token.
  if (error instanceof errors.JWKSTimeout) return new CircuitOpenError("identity");
  if (error instanceof errors.JWTExpired) return new UnauthorizedError("expired_token");
  if (error instanceof errors.JOSEError) return new UnauthorizedError("invalid_token", describe(error));
  if (error instanceof TypeError && /fetch/i.test(error.message)) return new CircuitOpenError("identity");
  return error instanceof Error ? error : new Error(String(error));
}

function describe(error: InstanceType<typeof errors.JOSEError>): string {
  if (error instanceof errors.JWTClaimValidationFailed) {
    return error.claim === "nbf"
      ? "The access token is not yet valid"
      : `The access token's ${error.claim} claim is not accepted`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return "The access token's signing algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return "The access token's signature is not valid";
  }
  return "The access token is malformed";
}
