import { errors, type TokenEndpointGrantContext } from "oidc-provider";
import { OPERATOR_SCOPE } from "../http/auth/claims.js";
import { checkOperatorLogin, type OperatorSignIn } from "./operator-login.js";
import type { ResourceServerLookup } from "./resource-servers.js";

export const PASSWORD_GRANT_PARAMETERS = ["username", "password", "otp", "resource"] as const;

interface PasswordParams {
  username?: string;
  password?: string;
  otp?: string;
}

/**
 * Resource-owner password grant for the seeded demo users, so scripts and tests log in without a
 * browser. It starts a refresh-token family (a Grant) exactly like the authorization-code flow does:
 * same claims, same rotation and reuse detection.
 */
export function passwordGrant(signIn: OperatorSignIn, lookupResourceServer: ResourceServerLookup) {
  const { clock } = signIn;
  return async (ctx: TokenEndpointGrantContext<PasswordParams>): Promise<void> => {
    const { provider, client, params } = ctx.oidc;
    if (!params.username || !params.password) {
      throw new errors.InvalidRequest("username and password are required");
    }
    const resource = params.resource;
    if (typeof resource !== "string")
      throw new errors.CustomOIDCProviderError("invalid_target", "exactly one audience is required");
    const resourceServer = await lookupResourceServer(resource, client.clientId);

    // No device cookie here: a script's sign-in steps up on its address alone.
    const login = await checkOperatorLogin(signIn, {
      username: params.username,
      password: params.password,
      address: ctx.ip,
      ...(params.otp ? { otp: params.otp } : {}),
    });
    // The description says why (e.g. the one-time code is missing) so a script can tell the user.
    if (!login.ok) throw new errors.CustomOIDCProviderError("invalid_grant", login.reason);
    const accountId = login.user.id;

    const grant = new provider.Grant({ accountId, clientId: client.clientId });
    grant.addOIDCScope(OPERATOR_SCOPE);
    grant.addResourceScope(resource, OPERATOR_SCOPE);
    const grantId = await grant.save();

    const refreshToken = new provider.RefreshToken({
      accountId,
      client,
      grantId,
      gty: "password",
      scope: OPERATOR_SCOPE,
      resource,
      amr: login.amr,
      authTime: Math.floor(clock.now() / 1000),
      rotations: 0,
    });
    const accessToken = new provider.AccessToken({
      accountId,
      client,
      grantId,
      gty: "password",
      scope: OPERATOR_SCOPE,
    });
    accessToken.resourceServer = new provider.ResourceServer(resource, resourceServer);

    ctx.oidc.entity("Grant", grant);
    // The access-token claims read `amr` from the refresh token of the family.
    ctx.oidc.entity("RefreshToken", refreshToken);
    ctx.oidc.entity("AccessToken", accessToken);
    const accessTokenValue = await accessToken.save();
    const refreshTokenValue = await refreshToken.save();

    ctx.body = {
      access_token: accessTokenValue,
      refresh_token: refreshTokenValue,
      token_type: "Bearer",
      expires_in: accessToken.expiration,
      scope: OPERATOR_SCOPE,
    };
  };
}
