/**
 * The cookie a magic-link exchange leaves the session in (spec 4.4: the client swaps the link's
 * token for a session cookie). HttpOnly keeps it from scripts, SameSite=Strict from other sites'
 * requests; Secure whenever the passenger host is served over HTTPS.
 */
export const PASSENGER_SESSION_COOKIE = "passenger_session";

export function sessionCookie(token: string, expiresAt: string, secure: boolean): string {
  return [
    `${PASSENGER_SESSION_COOKIE}=${token}`,
    "Path=/",
    `Expires=${new Date(expiresAt).toUTCString()}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}
