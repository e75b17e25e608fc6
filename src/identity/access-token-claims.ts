import {
  type AccessToken,
  type ClientCredentials,
  errors,
  type JWTStructured,
  type KoaContextWithOIDC,
} from "oidc-provider";
import { CLAIM } from "../http/auth/claims.js";
import type { Directory } from "../app/directory.js";

/**
 * Writes the access-token payload from scratch, so tokens carry exactly the claims of spec 5.1 / 5.3
 * (plus `jti`, the token id the emergency revocation list can name) and nothing oidc-provider adds
 * by default such as `client_id`.
 */
export function accessTokenClaims(directory: Directory) {
  return async (ctx: KoaContextWithOIDC, token: AccessToken | ClientCredentials, jwt: JWTStructured) => {
    const { iss, aud, exp, iat, jti, scope } = jwt.payload;
    if (token.kind === "ClientCredentials") {
      const registration = token.clientId && (await directory.findPartnerRegistration(token.clientId));
      if (!registration) throw new errors.InvalidClient("partner registration not found");
      jwt.payload = {
        iss,
        sub: `${registration.clientId}@clients`,
        aud,
        exp,
        iat,
        jti,
        scope,
        gty: "client-credentials",
        [CLAIM.partnerUrn]: registration.partnerUrn,
        [CLAIM.tenantUrn]: registration.airlineUrn,
      };
      return;
    }
    const user = await directory.findUser(token.accountId);
    const membership = user?.membership;
    if (!user || !membership)
      throw new errors.CustomOIDCProviderError(
        "invalid_grant",
        "the user is not a member of any organization",
      );
    jwt.payload = {
      iss,
      sub: user.id,
      aud,
      exp,
      iat,
      jti,
      scope,
      [CLAIM.airline]: membership.airlineUrn,
      [CLAIM.role]: membership.role,
      [CLAIM.operatorUrn]: `urn:user:${user.id}`,
      ...(membership.airport ? { [CLAIM.airport]: membership.airport } : {}),
      amr: authenticationMethods(ctx),
      gid: token.grantId,
    };
  };
}

/** `amr` of the login this token descends from: the code's, or the refresh token's of the family. */
function authenticationMethods(ctx: KoaContextWithOIDC): string[] {
  const source = ctx.oidc.entities.RefreshToken ?? ctx.oidc.entities.AuthorizationCode;
  return source?.amr ?? [];
}
