import { OPERATOR_ROLES } from "../../src/domain/roles.js";
import type { OperatorPrincipal } from "../../src/app/principals.js";
import type { Authenticator } from "../../src/http/auth/authenticator.js";
import { UnauthorizedError } from "../../src/http/errors.js";

/**
 * The HTTP authenticator applied to a bare operator token, so the channel trusts exactly what the
 * routes trust (issuer, audience, signature, expiry, emergency revocations, revoked grants, MFA).
 * The channel checks the role itself.
 */
export function operatorTokenAuthentication(
  authenticator: Authenticator,
): (token: string) => Promise<OperatorPrincipal> {
  return async (token) => {
    const principal = await authenticator.authenticateToken(token, {
      kind: "operator",
      anyOf: OPERATOR_ROLES,
    });
    if (principal.surface !== "operator") throw new UnauthorizedError("invalid_token");
    return principal;
  };
}
