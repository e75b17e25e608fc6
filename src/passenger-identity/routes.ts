/**
 * The passenger API's authentication routes, declared with `defineRoute` so the router and the
 * passenger OpenAPI document share them. All three are public: they are how a passenger gets a
 * session. The tenant comes from the host (one passenger host per airline, spec 1).
 */
import type { Context } from "koa";
import { ProblemError } from "../http/errors.js";
import { defineRoute, type Route } from "../http/route.js";
import {
  captchaChallengeSchema,
  magicLinkExchangeBodySchema,
  magicLinkExchangeResponseSchema,
  pnrLoginBodySchema,
  pnrLoginResponseSchema,
} from "./auth-schemas.js";
import type { Captcha } from "./captcha.js";
import type { MagicLinks } from "./magic-links.js";
import type { PnrLogin } from "./pnr-login.js";
import { sessionCookie } from "./session-cookie.js";

export interface PassengerAuthRouteDeps {
  captcha: Captcha;
  login: PnrLogin;
  magicLinks: MagicLinks;
  /** The airline URN of the passenger host the request came to; undefined for an unknown host. */
  tenantOf: (ctx: Context) => string | undefined;
  /** Marks the session cookie Secure even when TLS ends before this process (passenger host on https). */
  secureCookies: boolean;
}

const TAGS = ["Passenger authentication"] as const;

/** Tokens and one-time challenges must not be kept by any cache on the way. */
const NO_STORE = { "Cache-Control": "no-store" };

const SESSION_COOKIE_HEADER = {
  "Set-Cookie": { description: "passenger_session=<jwt>; HttpOnly; SameSite=Strict" },
};

export function passengerAuthRoutes(deps: PassengerAuthRouteDeps): Route[] {
  const tenantOf = (ctx: Context): string => {
    const tenant = deps.tenantOf(ctx);
    if (!tenant) {
      throw new ProblemError({
        status: 404,
        category: "not-found",
        code: "passenger-host",
        detail: `No airline serves passengers at ${ctx.host}`,
      });
    }
    return tenant;
  };

  const cookieOf = (ctx: Context, token: string, expiresAt: string) =>
    sessionCookie(token, expiresAt, deps.secureCookies || ctx.secure);

  return [
    defineRoute({
      method: "GET",
      path: "/v1/auth/captcha",
      operationId: "getPassengerCaptcha",
      summary: "A captcha challenge for one PNR login attempt",
      description: "Valid 5 minutes; a solution is accepted once.",
      tags: TAGS,
      surface: "passenger",
      access: { kind: "public" },
      responses: { 200: { description: "An ALTCHA challenge", schema: captchaChallengeSchema } },
      handler: async () => ({ status: 200, body: await deps.captcha.issueChallenge(), headers: NO_STORE }),
    }),
    defineRoute({
      method: "POST",
      path: "/v1/auth/pnr-login",
      operationId: "passengerPnrLogin",
      summary: "Log in with PNR and last name",
      description:
        "Limited to 5 attempts per 15 minutes per IP address and 10 per 24 hours per PNR; every attempt " +
        "counts and needs a fresh captcha solution. Captcha problems are 400 (`captcha-required`, " +
        "`captcha-invalid`, `captcha-expired`, `captcha-reused`). The session is also set as the HttpOnly " +
        "cookie the magic-link exchange sets, so a browser (the passenger app and its event stream) holds " +
        "it where no script reads it.",
      tags: TAGS,
      surface: "passenger",
      access: { kind: "public" },
      idempotent: false,
      body: pnrLoginBodySchema,
      responses: {
        200: {
          description: "A session token for the passenger's case",
          schema: pnrLoginResponseSchema,
          headers: SESSION_COOKIE_HEADER,
        },
        401: { description: "No booking matches this PNR and last name (`pnr-login-failed`)" },
        403: { description: "The case is closed (`case-closed`)" },
        429: { description: "Too many attempts; Retry-After gives the seconds to wait" },
      },
      handler: async ({ body, ctx, correlationUrn }) => {
        const result = await deps.login.login({ tenant: tenantOf(ctx), ...body, ip: ctx.ip, correlationUrn });
        return {
          status: 200,
          body: result,
          headers: { ...NO_STORE, "Set-Cookie": cookieOf(ctx, result.sessionToken, result.expiresAt) },
        };
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v1/auth/magic-link/exchange",
      operationId: "exchangePassengerMagicLink",
      summary: "Exchange a magic-link token for a session cookie",
      description:
        "The token of `{passenger_base_url}?token=<jwt>`, once. Sets an HttpOnly, SameSite=Strict session cookie.",
      tags: TAGS,
      surface: "passenger",
      access: { kind: "public" },
      idempotent: false,
      body: magicLinkExchangeBodySchema,
      responses: {
        200: {
          description: "The session is in the cookie",
          schema: magicLinkExchangeResponseSchema,
          headers: SESSION_COOKIE_HEADER,
        },
        401: { description: "The link is invalid, expired, already used or revoked" },
        403: { description: "The case is closed, or the link is another airline's" },
      },
      handler: async ({ body, ctx }) => {
        const session = await deps.magicLinks.exchange(body.token, { tenant: tenantOf(ctx) });
        return {
          status: 200,
          body: { caseUrn: session.caseUrn, expiresAt: session.expiresAt },
          headers: { ...NO_STORE, "Set-Cookie": cookieOf(ctx, session.token, session.expiresAt) },
        };
      },
    }),
  ];
}
