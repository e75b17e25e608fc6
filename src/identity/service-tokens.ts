import { SignJWT } from "jose";
import type { ServiceRole } from "../domain/roles.js";
import type { Clock } from "../runtime/clock.js";
import { CLAIM } from "../http/auth/claims.js";
import type { Directory } from "../app/directory.js";
import type { SigningKey } from "./signing-keys.js";
import { randomUuid } from "../domain/uuid.js";

/** Spec 5.1: the roles an ADMIN may give a service token. */
export const SERVICE_TOKEN_ROLES = ["ADMIN", "OPS_SUPERVISOR", "AIRPORT_OPERATOR", "INTEGRATION"] as const;
export type ServiceTokenRole = (typeof SERVICE_TOKEN_ROLES)[number];

const MAX_TTL_SECONDS = 365 * 24 * 60 * 60;

export interface ServiceTokenRequest {
  /** Airline URN of the tenant the token acts for. */
  tenant: string;
  role: ServiceTokenRole;
  /** Restricts the token to one airport of the tenant. */
  airport?: string;
  /** Lifetime in seconds. */
  ttl: number;
}

/** Shown to the ADMIN once; only `tokenId` (the `jti`, for the emergency revocation list) may be kept. */
export interface ServiceToken {
  token: string;
  tokenId: string;
  /** `urn:service-token:<tokenId>`, the token's subject. */
  actorUrn: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export class ServiceTokenRequestError extends Error {}

export interface ServiceTokenMinterOptions {
  issuer: string;
  operatorAudience: string;
  signingKey: SigningKey;
  directory: Directory;
  clock: Clock;
}

/**
 * Mints a JWT bearer service token: signed with the identity provider's key for the operator
 * audience, so the operator API verifies it like a login token, and marked as a service token
 * (no interactive login behind it, hence no `amr`).
 */
export function serviceTokenMinter({
  issuer,
  operatorAudience,
  signingKey,
  directory,
  clock,
}: ServiceTokenMinterOptions) {
  return async (request: ServiceTokenRequest): Promise<ServiceToken> => {
    if (!(SERVICE_TOKEN_ROLES as readonly ServiceRole[]).includes(request.role)) {
      throw new ServiceTokenRequestError(`role must be one of ${SERVICE_TOKEN_ROLES.join(", ")}`);
    }
    if (!Number.isInteger(request.ttl) || request.ttl <= 0 || request.ttl > MAX_TTL_SECONDS) {
      throw new ServiceTokenRequestError(
        `ttl must be a whole number of seconds between 1 and ${MAX_TTL_SECONDS}`,
      );
    }
    const organization = await directory.findOrganization(request.tenant);
    if (!organization) throw new ServiceTokenRequestError(`unknown tenant ${request.tenant}`);
    if (request.airport && !organization.airports.some((a) => a.code === request.airport)) {
      throw new ServiceTokenRequestError(`airport ${request.airport} is not an airport of ${request.tenant}`);
    }

    const tokenId = randomUuid();
    const actorUrn = `urn:service-token:${tokenId}`;
    const issuedAt = Math.floor(clock.now() / 1000);
    const expiresAtSeconds = issuedAt + request.ttl;
    const token = await new SignJWT({
      [CLAIM.airline]: request.tenant,
      [CLAIM.role]: request.role,
      [CLAIM.operatorUrn]: actorUrn,
      ...(request.airport ? { [CLAIM.airport]: request.airport } : {}),
      [CLAIM.serviceToken]: true,
    })
      .setProtectedHeader({ alg: "RS256", kid: signingKey.kid, typ: "at+jwt" })
      .setIssuer(issuer)
      .setSubject(actorUrn)
      .setAudience(operatorAudience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAtSeconds)
      .setJti(tokenId)
      .sign(signingKey.privateKey);
    return { token, tokenId, actorUrn, expiresAt: expiresAtSeconds * 1000 };
  };
}
