import type { Context, Middleware } from "koa";
import { TOKEN_LIFETIME } from "../http/auth/claims.js";
import { readRequestBody, UnreadableBodyError } from "./request-body.js";

/** The cookie holding the console's refresh token. */
export const REFRESH_COOKIE = "operator_refresh";

export interface RefreshTokenCookieOptions {
  /** Paths inside the identity provider's app. */
  tokenPath: string;
  revocationPath: string;
  /** The cookie's path as browsers see it: the folder of both endpoints, e.g. `/auth/oauth/`. */
  cookiePath: string;
  /** Whether the issuer is served over https (the cookie is then Secure). */
  secure: boolean;
  consoleClientId: string;
}

/**
 * The console keeps its refresh token where its scripts cannot read it (spec 5.1: "memory plus
 * httpOnly cookie; local storage forbidden"): for the console's browser flows, the token endpoint
 * moves the refresh token out of the JSON answer into an httpOnly, SameSite=Strict cookie that
 * only the token and revocation endpoints receive, and reads it back from there.
 * - `authorization_code` of the console: the family's first refresh token goes to the cookie.
 * - `refresh_token` of the console without a `refresh_token` field: the cookie is the refresh
 *   token, and the rotated one replaces it; a refused one (reuse, revoked, expired) is dropped.
 * - revocation by the console without a `token` field: the cookie's token is revoked and dropped.
 * Everything else (the password grant of scripts, a refresh token in the body, partners) is untouched.
 * Runs after normalizeTokenRequest, which leaves token requests parsed in `ctx.request.body`.
 */
export function refreshTokenCookie(options: RefreshTokenCookieOptions): Middleware {
  const { consoleClientId } = options;
  const attributes = {
    httpOnly: true,
    sameSite: "strict" as const,
    path: options.cookiePath,
    secure: options.secure,
    signed: false,
    overwrite: true,
  };
  const setCookie = (ctx: Context, value: string) => {
    if (options.secure) ctx.cookies.secure = true;
    ctx.cookies.set(REFRESH_COOKIE, value, { ...attributes, maxAge: TOKEN_LIFETIME.refreshIdle * 1000 });
  };
  const dropCookie = (ctx: Context) => {
    if (options.secure) ctx.cookies.secure = true;
    ctx.cookies.set(REFRESH_COOKIE, "", { ...attributes, maxAge: 0 });
  };
  const cookieOf = (ctx: Context) => ctx.cookies.get(REFRESH_COOKIE, { signed: false }) || undefined;

  return async (ctx, next) => {
    if (ctx.method !== "POST") return next();
    if (ctx.path === options.tokenPath) {
      const params = (ctx.request as { body?: Record<string, unknown> }).body;
      if (!params || params.client_id !== consoleClientId) return next();
      const fromCookie = params.grant_type === "refresh_token" && params.refresh_token === undefined;
      if (!fromCookie && params.grant_type !== "authorization_code") return next();
      const cookie = fromCookie ? cookieOf(ctx) : undefined;
      if (cookie) params.refresh_token = cookie;
      await next();
      const body = ctx.body as Record<string, unknown> | undefined;
      if (ctx.status === 200 && typeof body?.refresh_token === "string") {
        setCookie(ctx, body.refresh_token);
        delete body.refresh_token;
      } else if (fromCookie && cookie && ctx.status >= 400) {
        dropCookie(ctx);
      }
      return;
    }
    if (ctx.path === options.revocationPath) {
      let params: Record<string, unknown>;
      try {
        params = await readRequestBody(ctx);
      } catch (error) {
        if (error instanceof UnreadableBodyError) {
          ctx.status = 400;
          ctx.body = { error: "invalid_request", error_description: error.message };
          return;
        }
        throw error;
      }
      (ctx.request as { body?: unknown }).body = params;
      ctx.req.headers["content-type"] = "application/x-www-form-urlencoded";
      if (params.token !== undefined || params.client_id !== consoleClientId) return next();
      const cookie = cookieOf(ctx);
      if (!cookie) {
        // RFC 7009 2.2: nothing to revoke is answered like a revocation.
        ctx.status = 200;
        ctx.set("Cache-Control", "no-store");
        ctx.body = "";
        return;
      }
      params.token = cookie;
      await next();
      if (ctx.status === 200) dropCookie(ctx);
      return;
    }
    return next();
  };
}
