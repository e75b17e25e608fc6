import { errors, type ResourceServer } from "oidc-provider";
import type { Audiences } from "./audiences.js";
import { OPERATOR_SCOPE, TOKEN_LIFETIME } from "../http/auth/claims.js";
import type { Directory } from "../app/directory.js";

export type ResourceServerLookup = (resource: string, clientId: string) => Promise<ResourceServer>;

/**
 * Which API a client may obtain a token for: the operator console gets operator tokens, a partner
 * registration gets partner tokens limited to its registered scopes, anything else is an invalid target.
 * Both are RS256 JWTs (not opaque), so the APIs verify them offline with the JWKS.
 */
export function resourceServers(
  audiences: Audiences,
  directory: Directory,
  consoleClientId: string,
): ResourceServerLookup {
  return async (resource, clientId) => {
    if (resource === audiences.operator && clientId === consoleClientId) {
      return jwtResourceServer(resource, OPERATOR_SCOPE, TOKEN_LIFETIME.operatorAccess);
    }
    if (resource === audiences.partner) {
      const registration = await directory.findPartnerRegistration(clientId);
      if (registration)
        return jwtResourceServer(resource, registration.scopes.join(" "), TOKEN_LIFETIME.partnerAccess);
    }
    throw new errors.CustomOIDCProviderError(
      "invalid_target",
      "this client may not obtain tokens for the requested audience",
    );
  };
}

function jwtResourceServer(audience: string, scope: string, accessTokenTTL: number): ResourceServer {
  return { audience, scope, accessTokenTTL, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } };
}
