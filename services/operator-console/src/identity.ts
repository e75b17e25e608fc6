/**
 * The console as a public client of the operator identity provider (spec 5.1): authorization code
 * with PKCE, the refresh token kept by the browser as an httpOnly cookie that only the token and
 * revocation endpoints receive (never visible here), and revocation at logout.
 */
import { randomToken, codeChallenge } from "./pkce.js";
import { clearSession, signIn } from "./session.js";

/** The identity provider is mounted beside the API on the operator host. */
const ISSUER_PATH = "/auth";
export const CLIENT_ID = "operator-console";
const CALLBACK_PATH = "/console/callback";
/**
 * What survives the round trip to the login page: state, PKCE verifier and the screen to return to.
 * A cookie of the console's own path for ten minutes, not storage (spec 5.1 forbids it).
 */
const LOGIN_COOKIE = "console_login";

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
}

let discovery: Promise<Discovery> | undefined;

function endpoints(): Promise<Discovery> {
  discovery ??= fetch(`${ISSUER_PATH}/.well-known/openid-configuration`).then(async (response) => {
    if (!response.ok) throw new Error(`the identity provider answered ${response.status}`);
    return (await response.json()) as Discovery;
  });
  discovery.catch(() => {
    discovery = undefined;
  });
  return discovery;
}

/** Leaves for the identity provider's login page; `returnTo` is the console path to come back to. */
export async function startLogin(returnTo: string): Promise<void> {
  const { authorization_endpoint } = await endpoints();
  const state = randomToken(16);
  const verifier = randomToken(32);
  const remembered = [state, verifier, encodeURIComponent(returnTo)].join(".");
  writeLoginCookie(`${remembered}; Max-Age=600${location.protocol === "https:" ? "; Secure" : ""}`);
  const url = new URL(authorization_endpoint, location.origin);
  url.search = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: "code",
    redirect_uri: `${location.origin}${CALLBACK_PATH}`,
    scope: "openid profile email",
    state,
    code_challenge: await codeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  location.assign(url.href);
}

function takeLoginCookie(): { state: string; verifier: string; returnTo: string } | undefined {
  const entry = document.cookie
    .split("; ")
    .find((c) => c.startsWith(`${LOGIN_COOKIE}=`))
    ?.slice(LOGIN_COOKIE.length + 1);
  writeLoginCookie("; Max-Age=0");
  const [state, verifier, returnTo] = entry?.split(".") ?? [];
  if (!state || !verifier) return undefined;
  return { state, verifier, returnTo: returnTo ? decodeURIComponent(returnTo) : "/" };
}

function writeLoginCookie(valueAndAttributes: string): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from browsers operators still use.
  document.cookie = `${LOGIN_COOKIE}=${valueAndAttributes}; Path=/console/; SameSite=Strict`;
}

export class LoginError extends Error {}

/**
 * The callback's half of the flow: checks the state, exchanges the code (the identity provider
 * answers the access token and sets the refresh cookie) and returns the console path to show.
 */
export async function completeLogin(callback: URL): Promise<string> {
  const remembered = takeLoginCookie();
  const error = callback.searchParams.get("error");
  if (error) throw new LoginError(callback.searchParams.get("error_description") ?? error);
  const code = callback.searchParams.get("code");
  if (!remembered || !code || callback.searchParams.get("state") !== remembered.state) {
    throw new LoginError("The sign-in could not be matched to this browser window: sign in again.");
  }
  const { token_endpoint } = await endpoints();
  const response = await fetch(token_endpoint, {
    method: "POST",
    credentials: "same-origin",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: CLIENT_ID,
      code,
      redirect_uri: `${location.origin}${CALLBACK_PATH}`,
      code_verifier: remembered.verifier,
    }),
  });
  const tokens = (await response.json().catch(() => ({}))) as TokenResponse;
  if (!response.ok || !tokens.access_token || !signIn(tokens.access_token, tokens.id_token)) {
    throw new LoginError(tokens.error_description ?? "The identity provider refused the sign-in.");
  }
  return remembered.returnTo;
}

interface TokenResponse {
  access_token?: string;
  id_token?: string;
  error?: string;
  error_description?: string;
}

let refreshing: Promise<RefreshOutcome> | undefined;

/** `refused`: the identity provider ended the family (reuse detected, revoked, expired) or there is none. */
export type RefreshOutcome = "refreshed" | "refused";

/**
 * A new access token for the refresh cookie. One refresh at a time in this window, and across the
 * console's windows (they share the cookie, and rotation makes a second use of the same refresh
 * token a reuse that ends the family, spec 5.1).
 */
export function refreshAccessToken(): Promise<RefreshOutcome> {
  refreshing ??= withRefreshLock(requestRefresh).finally(() => {
    refreshing = undefined;
  });
  return refreshing;
}

function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? locks.request("operator-console-refresh", task) : task();
}

async function requestRefresh(): Promise<RefreshOutcome> {
  const { token_endpoint } = await endpoints();
  const response = await fetch(token_endpoint, {
    method: "POST",
    credentials: "same-origin",
    body: new URLSearchParams({ grant_type: "refresh_token", client_id: CLIENT_ID }),
  });
  const tokens = (await response.json().catch(() => ({}))) as TokenResponse;
  if (response.ok && tokens.access_token && signIn(tokens.access_token, tokens.id_token)) return "refreshed";
  if (response.status >= 500) throw new Error(`the identity provider answered ${response.status}`);
  return "refused";
}

/**
 * A refresh was refused while the operator was signed in: the session is over and the console
 * says so instead of recovering silently (spec 5.1: after a detected reuse, clients must not).
 */
export function endRefusedSession(): void {
  clearSession("Your session has ended (it was revoked or expired). Sign in again to continue.");
}

/** Logout step 2 (spec 5.1): the identity provider revokes the refresh cookie's token family and drops the cookie. */
export async function revokeRefreshToken(): Promise<void> {
  const { revocation_endpoint } = await endpoints();
  const response = await fetch(revocation_endpoint, {
    method: "POST",
    credentials: "same-origin",
    body: new URLSearchParams({ client_id: CLIENT_ID, token_type_hint: "refresh_token" }),
  });
  if (!response.ok) throw new Error(`the identity provider answered ${response.status} to the revocation`);
}
