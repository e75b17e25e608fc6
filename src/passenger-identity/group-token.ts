/**
 * The one shape both passenger token kinds share (session tokens and magic links): an EdDSA JWT
 * naming one case's group, typed so one kind never passes for the other. Each kind keeps its own
 * type, audience, subject and lifetime.
 */
import { SignJWT } from "jose";
import { type TokenVerifier, tokenVerifier } from "../http/auth/token-verifier.js";
import type { Clock } from "../runtime/clock.js";
import { PASSENGER_SIGNING_ALGORITHM, type PassengerSigningKey } from "./signing-key.js";

export const TOKEN_SKEW_SECONDS = 30;

export interface PassengerGroupRef {
  /** Airline URN. */
  tenant: string;
  caseUrn: string;
  groupId: string;
}

export interface GroupTokenKind {
  /** The JWT `typ` header of this kind. */
  typ: string;
  issuer: string;
  audience: string;
  key: PassengerSigningKey;
  clock: Clock;
  ttlSeconds: number;
}

export function groupTokenVerifier(kind: GroupTokenKind): TokenVerifier {
  return tokenVerifier(
    { issuer: kind.issuer, audience: kind.audience, publicKey: kind.key.publicKey },
    {
      algorithms: [PASSENGER_SIGNING_ALGORITHM],
      typ: kind.typ,
      clock: kind.clock,
      skewSeconds: TOKEN_SKEW_SECONDS,
    },
  );
}

/** Signs a token of `kind` for `group`; returns it with its expiry in Unix seconds. */
export async function signGroupToken(
  kind: GroupTokenKind,
  group: PassengerGroupRef,
  claims: { subject: string; jti?: string },
): Promise<{ token: string; expiresAt: number }> {
  const issuedAt = Math.floor(kind.clock.now() / 1000);
  const expiresAt = issuedAt + kind.ttlSeconds;
  let jwt = new SignJWT({ case_urn: group.caseUrn, group_id: group.groupId, tenant: group.tenant })
    .setProtectedHeader({ alg: PASSENGER_SIGNING_ALGORITHM, typ: kind.typ, kid: kind.key.kid })
    .setIssuer(kind.issuer)
    .setSubject(claims.subject)
    .setAudience(kind.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt);
  if (claims.jti) jwt = jwt.setJti(claims.jti);
  return { token: await jwt.sign(kind.key.privateKey), expiresAt };
}
