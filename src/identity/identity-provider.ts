import { randomBytes } from "node:crypto";
import Koa, { type Middleware } from "koa";
import mount from "koa-mount";
import Provider, { type Configuration } from "oidc-provider";
import type { JSONWebKeySet, JWK } from "jose";
import type { Clock } from "../runtime/clock.js";
import { systemClock } from "../runtime/clock.js";
import { accessTokenClaims } from "./access-token-claims.js";
import type { Audiences } from "./audiences.js";
import { TOKEN_LIFETIME } from "../http/auth/claims.js";
import type { Directory } from "../app/directory.js";
import { loginPage } from "./login-page.js";
import { createOidcAdapters } from "./oidc-adapters.js";
import { PASSWORD_GRANT_PARAMETERS, passwordGrant } from "./password-grant.js";
import { refreshTokenCookie } from "./refresh-token-cookie.js";
import { refreshTokenTtl } from "./refresh-token-lifetime.js";
import { resourceServers } from "./resource-servers.js";
import type { RevokedGrants } from "../http/auth/revoked-grants.js";
import { type ServiceToken, type ServiceTokenRequest, serviceTokenMinter } from "./service-tokens.js";
import { loadSigningKey } from "./signing-keys.js";
import { normalizeTokenRequest } from "./token-request.js";
import { providerRequestContext } from "./provider-request-context.js";
import type { DocumentStore } from "../runtime/document-store.js";
import { OperatorPasskeys } from "../app/operator-factors/operator-passkeys.js";
import { SignInHistories } from "../app/operator-factors/sign-in-history.js";
import { loginAssets } from "./login-assets.js";
import type { NotificationChannel } from "../app/notifications/notification-channel.js";
import { SmsCodes } from "./sms-codes.js";
import type { OperatorSignIn } from "./operator-login.js";
import { PasskeyCeremonies, type RelyingParty, relyingPartyOf } from "./passkey-ceremonies.js";
import { NO_RISK_TABLES, type SignInRiskSettings, signInRiskAssessor } from "./sign-in-risk.js";

export const CONSOLE_CLIENT_ID = "operator-console";
const TOKEN_PATH = "/oauth/token";
/** Beside the token endpoint, so that the console's refresh cookie (scoped to their folder) reaches both. */
const REVOCATION_PATH = "/oauth/revoke";

export interface IdentityProviderOptions {
  /** Full issuer URL including the mount path, e.g. `http://localhost:8080/auth`. */
  issuer: string;
  directory: Directory;
  audiences: Audiences;
  /** Fed on every grant revocation (refresh-token reuse, revocation, logout) before the IdP answers. */
  revokedGrants: RevokedGrants;
  /** Time for what this code decides (TOTP, secret windows, service tokens); oidc-provider reads the system time. */
  clock?: Clock;
  /** The console's redirect URIs for the authorization-code flow; default `<issuer origin>/console/callback`. */
  consoleRedirectUris?: string[];
  /** Private RS256 JWK to sign with; a fresh key per process when absent. */
  signingKey?: JWK;
  /** Where the operators' passkeys, sign-in history and pending sign-ins are kept. */
  documents: DocumentStore;
  /** Whom passkeys are for: from the public base URL; the issuer's origin when absent. */
  relyingParty?: RelyingParty;
  /** The step-up risk tables (spec 5.1); none when absent. */
  signInRisk?: SignInRiskSettings;
  /** The notification port's SMS channel, for one-time codes by SMS (last resort); none: no SMS codes. */
  smsChannel?: () => NotificationChannel | undefined;
}

export interface IdentityProvider {
  /** Mount on the operator host at the issuer's path: `host.use(mount("/auth", idp.app))`. */
  app: Koa;
  provider: Provider;
  issuer: string;
  /** The public keys (what `/auth/jwks` serves), for verifying tokens in-process. */
  jwks: JSONWebKeySet;
  /** Passkey enrolment for signed-in operators (the operator API's routes call it). */
  passkeys: PasskeyCeremonies;
  mintServiceToken(request: ServiceTokenRequest): Promise<ServiceToken>;
}

/**
 * The embedded identity provider of the default runtime (dev only; production points the APIs at
 * an external issuer): OIDC discovery and JWKS, authorization code + PKCE with a login page for the
 * console, refresh tokens with rotation and reuse detection, client credentials for partners and a
 * password grant for the seeded users.
 */
export async function createIdentityProvider(options: IdentityProviderOptions): Promise<IdentityProvider> {
  const { issuer, directory, audiences, revokedGrants } = options;
  const clock = options.clock ?? systemClock;
  const signingKey = await loadSigningKey(options.signingKey);
  const lookupResourceServer = resourceServers(audiences, directory, CONSOLE_CLIENT_ID);
  const issuerUrl = new URL(issuer);
  const mountPath = issuerUrl.pathname.replace(/\/$/, "");
  const passkeyStore = new OperatorPasskeys(options.documents);
  const passkeys = new PasskeyCeremonies(
    options.relyingParty ?? relyingPartyOf(issuerUrl.origin),
    passkeyStore,
    options.documents,
    clock,
  );
  const signIn: OperatorSignIn = {
    directory,
    clock,
    passkeys: passkeyStore,
    histories: new SignInHistories(options.documents),
    assessRisk: signInRiskAssessor(options.signInRisk ?? NO_RISK_TABLES),
  };

  const configuration: Configuration = {
    adapter: createOidcAdapters(directory, clock, revokedGrants),
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        client_name: "Operations console",
        application_type: "web",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token", "password"],
        response_types: ["code"],
        redirect_uris: options.consoleRedirectUris ?? [`${issuerUrl.origin}/console/callback`],
      },
    ],
    jwks: { keys: [signingKey.privateJwk] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    routes: { token: TOKEN_PATH, revocation: REVOCATION_PATH, jwks: "/jwks" },
    scopes: ["openid", "profile", "email"],
    claims: { openid: ["sub"], email: ["email"], profile: [] },
    clientAuthMethods: ["client_secret_basic", "client_secret_post", "none"],
    pkce: { required: () => true },
    findAccount: async (_ctx, sub) => {
      const user = await directory.findUser(sub);
      if (!user?.membership) return undefined;
      return { accountId: user.id, claims: async () => ({ sub: user.id, email: user.email }) };
    },
    interactions: { url: async (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // Logout step 2 (spec 5.1): a client revokes its own refresh token, which revokes the family.
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // The console's authorization requests need not name the operator API.
        defaultResource: async (_ctx, client, oneOf) =>
          oneOf ?? (client?.clientId === CONSOLE_CLIENT_ID ? audiences.operator : undefined),
        getResourceServerInfo: async (_ctx, resource, client) =>
          lookupResourceServer(resource, client.clientId),
        // A refresh keeps the family's audience, else it would yield an opaque token.
        useGrantedResource: async () => true,
      },
    },
    formats: { customizers: { jwt: accessTokenClaims(directory) } },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    expiresWithSession: async () => false,
    clientBasedCORS: (_ctx, origin, client) =>
      client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false,
    ttl: {
      AccessToken: TOKEN_LIFETIME.operatorAccess,
      ClientCredentials: TOKEN_LIFETIME.partnerAccess,
      AuthorizationCode: 60,
      IdToken: TOKEN_LIFETIME.operatorAccess,
      Interaction: 10 * 60,
      Session: 24 * 60 * 60,
      // The family never outlives the refresh token's absolute lifetime.
      Grant: TOKEN_LIFETIME.refreshAbsolute,
      RefreshToken: (_ctx, token) => {
        const now = Math.floor(Date.now() / 1000);
        return refreshTokenTtl(token.iiat ?? now, now);
      },
    },
  };

  const provider = new Provider(issuer, configuration);
  // Like the hosts it is mounted on: the client address (risk signals) is the proxy's X-Forwarded-For.
  provider.proxy = true;
  provider.registerGrantType(
    "password",
    passwordGrant(signIn, lookupResourceServer),
    PASSWORD_GRANT_PARAMETERS,
  );

  const app = new Koa();
  app.use(providerRequestContext());
  app.use(providerCookies(provider));
  app.use(
    normalizeTokenRequest({ directory, clock, tokenPath: TOKEN_PATH, consoleClientId: CONSOLE_CLIENT_ID }),
  );
  app.use(
    refreshTokenCookie({
      tokenPath: TOKEN_PATH,
      revocationPath: REVOCATION_PATH,
      cookiePath: `${mountPath}/oauth/`,
      secure: issuerUrl.protocol === "https:",
      consoleClientId: CONSOLE_CLIENT_ID,
    }),
  );
  app.use(loginAssets());
  app.use(
    loginPage({
      provider,
      signIn,
      passkeys,
      documents: options.documents,
      mountPath,
      operatorAudience: audiences.operator,
      sms: new SmsCodes(options.smsChannel ?? (() => undefined), clock),
    }),
  );
  app.use(mount(provider));

  return {
    app,
    provider,
    issuer,
    jwks: signingKey.publicJwks,
    passkeys,
    mintServiceToken: serviceTokenMinter({
      issuer,
      operatorAudience: audiences.operator,
      signingKey,
      directory,
      clock,
    }),
  };
}

/**
 * koa-mount runs the provider on the host's context, whose cookies would be signed with the host
 * app's keys while oidc-provider reads them back with its own (`SessionNotFound`). Giving every
 * request the provider's cookie jar makes the mount independent of how the host is configured.
 */
function providerCookies(provider: Provider): Middleware {
  return async (ctx, next) => {
    ctx.cookies = provider.createContext(ctx.req, ctx.res).cookies;
    await next();
  };
}
