import type { JWTPayload } from "jose";
import { OPERATOR_ROLES, type ServiceRole } from "../../domain/roles.js";
import { CLAIM } from "./claims.js";
import type { OperatorPrincipal, PartnerPrincipal, PassengerPrincipal } from "../../app/principals.js";
import { UnauthorizedError } from "../errors.js";

/** What the platform's registry knows of a partner registration (the tier is not in the token). */
export type PartnerRegistrationLookup = (
  clientId: string,
) => Promise<{ tier: 1 | 2 | 3; airlineUrn: string; partnerUrn: string } | undefined>;

const LOGIN_ROLES: ReadonlySet<string> = new Set(OPERATOR_ROLES);

/** Claims of a verified operator token; a token lacking one is refused as invalid. */
export function operatorPrincipal(claims: JWTPayload): OperatorPrincipal {
  const isServiceToken = claims[CLAIM.serviceToken] === true;
  const role = claims[CLAIM.role];
  // INTEGRATION exists only for server-to-server service tokens, never for a login.
  const knownRole =
    typeof role === "string" && (LOGIN_ROLES.has(role) || (isServiceToken && role === "INTEGRATION"));
  if (!knownRole) throw invalid("role");
  const airport = optionalString(claims, CLAIM.airport);
  return {
    surface: "operator",
    actorUrn: requiredString(claims, CLAIM.operatorUrn),
    tenant: requiredString(claims, CLAIM.airline),
    role: role as ServiceRole,
    ...(airport ? { airport } : {}),
    amr: Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === "string") : [],
    ...(typeof claims.gid === "string" ? { grantId: claims.gid } : {}),
    ...(typeof claims.jti === "string" ? { tokenId: claims.jti } : {}),
    expiresAt: claims.exp! * 1000,
  };
}

export function isServiceToken(claims: JWTPayload): boolean {
  return claims[CLAIM.serviceToken] === true;
}

/**
 * Claims of a verified partner token, with the registration's tier. The registration must still
 * exist and still name the same partner and airline: a deleted registration ends its tokens at once.
 */
export async function partnerPrincipal(
  claims: JWTPayload,
  findRegistration: PartnerRegistrationLookup,
): Promise<PartnerPrincipal> {
  const subject = requiredString(claims, "sub");
  if (!subject.endsWith("@clients")) throw invalid("sub");
  const clientId = subject.slice(0, -"@clients".length);
  const actorUrn = requiredString(claims, CLAIM.partnerUrn);
  const tenant = requiredString(claims, CLAIM.tenantUrn);
  const registration = await findRegistration(clientId);
  if (!registration || registration.partnerUrn !== actorUrn || registration.airlineUrn !== tenant) {
    throw new UnauthorizedError("invalid_token", "The partner registration no longer exists");
  }
  return {
    surface: "partner",
    actorUrn,
    clientId,
    tenant,
    scopes: scopesOf(optionalString(claims, "scope") ?? ""),
    tier: registration.tier,
    expiresAt: claims.exp! * 1000,
  };
}

/**
 * The scopes of a `scope` claim. Partners present the same few scope strings on every call, so
 * each string's set is built once and shared, read-only, by every principal that names it.
 */
const scopeSets = new Map<string, ReadonlySet<string>>();
const SCOPE_STRINGS_KEPT = 1_000;

function scopesOf(scope: string): ReadonlySet<string> {
  let scopes = scopeSets.get(scope);
  if (!scopes) {
    scopes = new Set(scope.split(" ").filter((s) => s !== ""));
    if (scopeSets.size >= SCOPE_STRINGS_KEPT) scopeSets.clear();
    scopeSets.set(scope, scopes);
  }
  return scopes;
}

/** Claims of a verified passenger session token (spec 5.2). */
export function passengerPrincipal(claims: JWTPayload): PassengerPrincipal {
  return {
    surface: "passenger",
    actorUrn: requiredString(claims, "sub"),
    tenant: requiredString(claims, "tenant"),
    caseUrn: requiredString(claims, "case_urn"),
    groupId: requiredString(claims, "group_id"),
    expiresAt: claims.exp! * 1000,
  };
}

function requiredString(claims: JWTPayload, name: string): string {
  const value = claims[name];
  if (typeof value !== "string" || value === "") throw invalid(name);
  return value;
}

function optionalString(claims: JWTPayload, name: string): string | undefined {
  const value = claims[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw invalid(name);
  return value;
}

function invalid(claim: string): UnauthorizedError {
  return new UnauthorizedError("invalid_token", `The access token's ${claim} claim is missing or not valid`);
}
