/**
 * Passenger session tokens (spec 5.2, 8.2): EdDSA JWTs that last 7 days and open one case's group.
 * Claims are exactly iss, sub (`urn:passenger-session:<uuid>`), aud, iat, exp, case_urn, group_id
 * and tenant. Verification accepts EdDSA only, this issuer and audience, 30 s of clock skew, and
 * asks CaseRevocations whether the case closed since.
 */
import type { JWTPayload } from "jose";
import type { PassengerPrincipal } from "../app/principals.js";
import { passengerPrincipal } from "../http/auth/principals.js";
import type { TokenVerifier } from "../http/auth/token-verifier.js";
import { UnauthorizedError } from "../http/errors.js";
import type { Clock } from "../runtime/clock.js";
import { type CaseRevocations, caseClosed } from "./case-revocations.js";
import {
  type GroupTokenKind,
  type PassengerGroupRef,
  groupTokenVerifier,
  signGroupToken,
} from "./group-token.js";
import type { PassengerSigningKey } from "./signing-key.js";
import { randomUuid } from "../domain/uuid.js";

export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_TOKEN_TYPE = "passenger-session+jwt";
const SESSION_SUBJECT_PREFIX = "urn:passenger-session:";

export { type PassengerGroupRef, TOKEN_SKEW_SECONDS } from "./group-token.js";

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
  private readonly kind: GroupTokenKind;
  private readonly verifySignature: TokenVerifier;

  constructor(private readonly options: SessionTokenOptions) {
    this.kind = { ...options, typ: SESSION_TOKEN_TYPE, ttlSeconds: SESSION_TTL_SECONDS };
    this.verifySignature = groupTokenVerifier(this.kind);
  }

  /** A new session for the group; refused with 403 while the case is closed. */
  async mint(group: PassengerGroupRef): Promise<MintedSession> {
    if (await this.options.revocations.isClosed(group.caseUrn)) throw caseClosed();
    const { token, expiresAt } = await signGroupToken(this.kind, group, {
      subject: randomUuid(SESSION_SUBJECT_PREFIX),
    });
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
