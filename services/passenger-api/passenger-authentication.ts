import type { Context } from "koa";
import type { PassengerPrincipal } from "../../src/app/principals.js";
import type { ProtectedAccess } from "../../src/http/auth/authenticator.js";
import { bearerToken } from "../../src/http/auth/bearer-token.js";
import { ForbiddenError } from "../../src/http/errors.js";
import type { Authenticate } from "../../src/http/request-pipeline.js";
import type { PassengerIdentity } from "../../src/passenger-identity/passenger-identity.js";
import { PASSENGER_SESSION_COOKIE } from "../../src/passenger-identity/session-cookie.js";

/**
 * Passenger routes take the session token from `Authorization: Bearer` or from the httpOnly cookie
 * the magic-link exchange sets, and verify it with the passenger component (which also refuses
 * tokens of closed or revoked cases). The token's tenant must be the tenant of the passenger host.
 */
export function passengerAuthentication(
  identity: PassengerIdentity,
  tenantOfHost: (ctx: Context) => string | undefined,
  others: Authenticate,
): Authenticate {
  return async (ctx: Context, access: ProtectedAccess) => {
    if (access.kind !== "passenger") return others(ctx, access);
    // The cookie is looked for only without an Authorization header, which wins over it.
    const cookie = ctx.get("Authorization") ? undefined : ctx.cookies.get(PASSENGER_SESSION_COOKIE);
    const token = cookie ? cookie : bearerToken(ctx);
    const principal: PassengerPrincipal = await identity.sessions.verify(token);
    const hostTenant = tenantOfHost(ctx);
    if (principal.tenant !== hostTenant) {
      throw new ForbiddenError(
        "cross-tenant",
        hostTenant
          ? "This session belongs to another airline"
          : "No airline serves passengers at this host; use your airline's passenger site",
      );
    }
    return principal;
  };
}
