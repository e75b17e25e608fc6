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
import { UnauthorizedError } from "../errors.js";
import { CircuitOpenError } from "../../vendors/circuit-open-error.js";
import { TokenMemo } from "./token-memo.js";

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

/** The token's claims, frozen: every call presenting the same token may be handed the same object. */
export type TokenVerifier = (token: string) => Promise<JWTPayload>;

/** Tokens a verifier remembers as verified; the oldest is forgotten first. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Verifies signature, algorithm, issuer, audience, exp and nbf (with a small skew) of one surface's
 * tokens. Every failure is a 401: `expired_token` for an expired token, `invalid_token` otherwise.
 *
 * A client presents the same token on every call until it expires, and verifying an RS256
 * signature is most of what authentication costs. With keys fixed for the verifier's life (a key
 * set or key given in-process), every check but exp and nbf depends on the token's bytes alone, so
 * a token verified once is only checked against the clock on later calls; one no longer within its
 * lifetime is verified in full again, which gives the same refusal as the first time would have.
 * Keys fetched from an issuer's JWKS endpoint can change, so those tokens are verified every time.
 * Revocation is not decided here and is checked on every request regardless.
 */
export function tokenVerifier(trust: TokenTrust, options: VerifierOptions): TokenVerifier {
  const key = keySource(trust);
  const verifyFully = async (token: string): Promise<JWTPayload> => {
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
  if (trust.jwksUri) return async (token) => deepFreeze(await verifyFully(token));
  const verified = new TokenMemo<JWTPayload>(VERIFIED_TOKENS_KEPT);
  return async (token) => {
    const known = verified.get(token);
    if (known && withinLifetime(known, options)) return known;
    verified.delete(token);
    const payload = deepFreeze(await verifyFully(token));
    verified.set(token, payload);
    return payload;
  };
}

/** jose's exp and nbf checks (numeric dates in seconds, the skew either way) on a verified payload. */
function withinLifetime(payload: JWTPayload, { clock, skewSeconds }: VerifierOptions): boolean {
  const now = Math.floor(clock.now() / 1000);
  const startedInTime = payload.nbf === undefined || payload.nbf <= now + skewSeconds;
  return startedInTime && payload.exp !== undefined && payload.exp > now - skewSeconds;
}

/** Claims are JSON: objects and arrays all the way down. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
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
