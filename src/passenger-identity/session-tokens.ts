/**
 * Passenger session tokens (spec 5.2, 8.2): EdDSA JWTs that last 7 days and open one case's group.
 * Claims are exactly iss, sub (`urn:passenger-session:<uuid>`), aud, iat, exp, case_urn, group_id
 * and tenant. Verification accepts EdDSA only, this issuer and audience, 30 s of clock skew, and
 * asks CaseRevocations whether the case closed since.
 */
import { randomUUID } from "node:crypto";
import { type JWTPayload, SignJWT } from "jose";
import type { PassengerPrincipal } from "../http/access.js";
import { passengerPrincipal } from "../http/auth/principals.js";
import { type TokenVerifier, tokenVerifier } from "../http/auth/token-verifier.js";
import { UnauthorizedError } from "../http/errors.js";
import type { Clock } from "../runtime/clock.js";
import { type CaseRevocations, caseClosed } from "./case-revocations.js";
import { PASSENGER_SIGNING_ALGORITHM, type PassengerSigningKey } from "./signing-key.js";

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_TOKEN_TYPE = "passenger-session+jwt";
export const TOKEN_SKEW_SECONDS = 30;
const SESSION_SUBJECT_PREFIX = "urn:passenger-session:";

export interface PassengerGroupRef {
  /** Airline URN. */
  tenant: string;
  caseUrn: string;
  groupId: string;
}

export interface MintedSession {
  token: string;
  caseUrn: string;
  /** ISO 8601 UTC. */
  expiresAt: string;
}

export interface SessionTokenOptions {
  /** The passenger base URL. */
  issuer: string;
  /** {passenger_audience}. */
  audience: string;
  key: PassengerSigningKey;
  revocations: CaseRevocations;
  clock: Clock;
}

export class PassengerSessionTokens {
  private readonly verifySignature: TokenVerifier;

  constructor(private readonly options: SessionTokenOptions) {
    this.verifySignature = tokenVerifier(
      { issuer: options.issuer, audience: options.audience, publicKey: options.key.publicKey },
      {
        algorithms: [PASSENGER_SIGNING_ALGORITHM],
        typ: SESSION_TOKEN_TYPE,
        clock: options.clock,
        skewSeconds: TOKEN_SKEW_SECONDS,
      },
    );
  }

  /** A new session for the group; refused with 403 while the case is closed. */
  async mint(group: PassengerGroupRef): Promise<MintedSession> {
    if (await this.options.revocations.isClosed(group.caseUrn)) throw caseClosed();
    const issuedAt = Math.floor(this.options.clock.now() / 1000);
    const expiresAt = issuedAt + SESSION_TTL_SECONDS;
    const token = await new SignJWT({
      case_urn: group.caseUrn,
      group_id: group.groupId,
      tenant: group.tenant,
    })
      .setProtectedHeader({
        alg: PASSENGER_SIGNING_ALGORITHM,
        typ: SESSION_TOKEN_TYPE,
        kid: this.options.key.kid,
      })
      .setIssuer(this.options.issuer)
      .setSubject(`${SESSION_SUBJECT_PREFIX}${randomUUID()}`)
      .setAudience(this.options.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.options.key.privateKey);
    return { token, caseUrn: group.caseUrn, expiresAt: new Date(expiresAt * 1000).toISOString() };
  }

  /** The session's principal, or 401 (invalid, expired, revoked) / 403 (case closed). */
  async verify(token: string): Promise<PassengerPrincipal> {
    const claims = await this.verifySignature(token);
    const principal = passengerPrincipal(claims);
    if (!principal.actorUrn.startsWith(SESSION_SUBJECT_PREFIX)) {
      throw new UnauthorizedError(
        "invalid_token",
        "The session token's sub claim is not a passenger session",
      );
    }
    await this.options.revocations.assertTokenAlive(principal.caseUrn, issuedAt(claims));
    return principal;
  }
}

export function issuedAt(claims: JWTPayload): number {
  if (typeof claims.iat !== "number") {
    throw new UnauthorizedError("invalid_token", "The token's iat claim is missing or not valid");
  }
  return claims.iat;
}
