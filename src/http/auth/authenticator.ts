import { decodeJwt, type JWTPayload } from "jose";
import type { Context } from "koa";
import type { ServiceRole } from "../../domain/roles.js";
import { MFA_REQUIRED_ROLES } from "./claims.js";
import { amrShowsSecondFactor } from "../../domain/second-factors.js";
import type { RevokedGrants } from "./revoked-grants.js";
import type { Clock } from "../../runtime/clock.js";
import type { Access } from "../access.js";
import type { Principal } from "../../app/principals.js";
import { UnauthorizedError } from "../errors.js";
import { assertScope } from "./insufficient-scope.js";
import { assertRole } from "../../app/authorization.js";
import { bearerToken } from "./bearer-token.js";
import { type EmergencyRevocationList, revocationIdsOf } from "./emergency-revocations.js";
import {
  isServiceToken,
  operatorPrincipal,
  type PartnerRegistrationLookup,
  partnerPrincipal,
  passengerPrincipal,
} from "./principals.js";
import { TokenMemo } from "./token-memo.js";
import { type TokenTrust, type TokenVerifier, tokenVerifier } from "./token-verifier.js";

export interface AuthenticatorOptions {
  /** RS256 tokens of the operator identity provider. */
  operator: TokenTrust;
  /** RS256 client-credentials tokens; same issuer as the operator's in the embedded default, distinct audience. */
  partner: TokenTrust;
  /** EdDSA (Ed25519) session tokens, signed by the passenger component with a key of its own. */
  passenger: TokenTrust;
  /** The partner registry (the directory), for the tier and to end tokens of deleted registrations. */
  partnerRegistrations: PartnerRegistrationLookup;
  revocations: EmergencyRevocationList;
  revokedGrants: RevokedGrants;
  clock: Clock;
  /** Tolerated clock difference for exp and nbf; 30 s unless told. */
  skewSeconds?: number;
  /** Roles whose tokens must show a second factor in `amr` (amrShowsSecondFactor); spec 5.1 by default. */
  mfaRequiredRoles?: readonly ServiceRole[];
}

export type ProtectedAccess = Exclude<Access, { kind: "public" }>;

export interface Authenticator {
  /**
   * The caller of a route with this access rule, or a thrown UnauthorizedError (401, with the
   * WWW-Authenticate reason), a forbidden DomainError or InsufficientScopeError (403). Public routes
   * never call it.
   */
  authenticate(ctx: Context, access: ProtectedAccess): Promise<Principal>;
  /** The same checks on a bare token, for channels that carry it outside a header (WebSocket). */
  authenticateToken(token: string, access: ProtectedAccess): Promise<Principal>;
}

type Surface = Principal["surface"];

/**
 * Verifies bearer tokens per surface, each against its own issuer, audience, algorithm and key,
 * so a token of one surface never passes on another; then applies revocation, MFA and the route's
 * role or scope.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const skewSeconds = options.skewSeconds ?? 30;
  const mfaRoles: ReadonlySet<ServiceRole> = new Set(options.mfaRequiredRoles ?? MFA_REQUIRED_ROLES);
  const common = { clock: options.clock, skewSeconds };
  const verifiers: Record<Surface, TokenVerifier> = {
    operator: tokenVerifier(options.operator, { ...common, algorithms: ["RS256"], typ: "at+jwt" }),
    partner: tokenVerifier(options.partner, { ...common, algorithms: ["RS256"], typ: "at+jwt" }),
    passenger: tokenVerifier(options.passenger, { ...common, algorithms: ["EdDSA", "Ed25519"] }),
  };
  const audiences: Record<Surface, string> = {
    operator: options.operator.audience,
    partner: options.partner.audience,
    passenger: options.passenger.audience,
  };

  /**
   * Operator and passenger principals by verified claims, which the verifiers hand out as the same
   * frozen object for the same token: such a principal follows from the claims alone. A partner's
   * is not kept, since its registration is looked up on every request (a deleted one ends its tokens).
   */
  const principals = new WeakMap<JWTPayload, Principal>();

  async function principalOf(surface: Surface, claims: JWTPayload): Promise<Principal> {
    if (surface === "partner") return partnerPrincipal(claims, options.partnerRegistrations);
    let principal = principals.get(claims);
    if (principal === undefined || principal.surface !== surface) {
      principal = Object.freeze(principalFromClaims(surface, claims));
      principals.set(claims, principal);
    }
    return principal;
  }

  function principalFromClaims(surface: "operator" | "passenger", claims: JWTPayload): Principal {
    if (surface === "passenger") return passengerPrincipal(claims);
    const principal = operatorPrincipal(claims);
    // A service token has no interactive login behind it; the ADMIN who minted it passed MFA.
    if (
      !isServiceToken(claims) &&
      mfaRoles.has(principal.role) &&
      !amrShowsSecondFactor(principal.role, principal.amr)
    ) {
      throw new UnauthorizedError(
        "invalid_token",
        `Role ${principal.role} requires multi-factor authentication`,
      );
    }
    return principal;
  }

  /** By verified claims, which the verifiers hand out as the same object for the same token. */
  const revocationIds = new WeakMap<JWTPayload, readonly string[]>();

  async function assertNotRevoked(principal: Principal, claims: JWTPayload): Promise<void> {
    let ids = revocationIds.get(claims);
    if (!ids) {
      const tokenId = typeof claims.jti === "string" ? claims.jti : undefined;
      ids = revocationIdsOf({
        tenant: principal.tenant,
        subjects: [principal.actorUrn, ...(claims.sub ? [claims.sub] : [])],
        ...(tokenId ? { tokenId } : {}),
      });
      revocationIds.set(claims, ids);
    }
    if (await options.revocations.isRevoked(ids)) {
      throw new UnauthorizedError("invalid_token", "The access token has been revoked");
    }
    if (
      principal.surface === "operator" &&
      principal.grantId &&
      (await options.revokedGrants.has(principal.grantId))
    ) {
      throw new UnauthorizedError("invalid_token", "The session of this access token has been revoked");
    }
  }

  /**
   * Surfaces `surfaceNamedBy` found for tokens that then verified: a client presents the same token
   * on every call, and the answer depends on the token's bytes alone, so it is not decoded again.
   */
  const surfacesOfVerifiedTokens = new TokenMemo<Surface>();

  /** For `any-token` routes: the surface whose audience the (not yet verified) token names. */
  function surfaceNamedBy(token: string): Surface {
    let aud: JWTPayload["aud"];
    try {
      aud = decodeJwt(token).aud;
    } catch {
      throw new UnauthorizedError("invalid_token", "The access token is malformed");
    }
    const named = Array.isArray(aud) ? aud : [aud];
    const surface = (Object.keys(audiences) as Surface[]).find((s) => named.includes(audiences[s]));
    if (!surface)
      throw new UnauthorizedError("invalid_token", "The access token's aud claim is not accepted");
    return surface;
  }

  async function authenticateToken(token: string, access: ProtectedAccess): Promise<Principal> {
    const remembered = access.kind === "any-token" ? surfacesOfVerifiedTokens.get(token) : undefined;
    const surface = access.kind === "any-token" ? (remembered ?? surfaceNamedBy(token)) : access.kind;
    const claims = await verifiers[surface](token);
    if (access.kind === "any-token" && remembered === undefined) surfacesOfVerifiedTokens.set(token, surface);
    const principal = await principalOf(surface, claims);
    await assertNotRevoked(principal, claims);
    if (access.kind === "operator" && principal.surface === "operator") assertRole(principal, access.anyOf);
    if (access.kind === "partner" && principal.surface === "partner") assertScope(principal, access.scope);
    return principal;
  }

  return {
    authenticate: async (ctx, access) => authenticateToken(bearerToken(ctx), access),
    authenticateToken,
  };
}
