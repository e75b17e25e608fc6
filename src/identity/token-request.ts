import { timingSafeEqual } from "node:crypto";
import type { Context, Middleware } from "koa";
import type { Clock } from "../runtime/clock.js";
import type { Directory } from "../app/directory.js";
import { readRequestBody, UnreadableBodyError } from "./request-body.js";

export interface TokenRequestOptions {
  directory: Directory;
  clock: Clock;
  /** Path of the token endpoint inside the identity provider's app, e.g. `/oauth/token`. */
  tokenPath: string;
  /** The public client that password and refresh requests without a client id belong to. */
  consoleClientId: string;
}

/** Grants that mint a new token family and so must name the API the token is for. */
const AUDIENCE_REQUIRED = new Set(["password", "client_credentials"]);
/** Grants a first-party script may call without naming a client. */
const CONSOLE_GRANTS = new Set(["password", "refresh_token", "authorization_code"]);

/**
 * Brings a token request into the shape oidc-provider understands, before it reaches the provider:
 * JSON bodies become form fields, `audience` becomes the `resource` indicator (a missing one would
 * silently yield an opaque token, so it is refused), HTTP Basic credentials become body credentials
 * (every client then authenticates one way), and a partner's previous secret is swapped for the
 * current one while its 14-day dual-key window is open.
 */
export function normalizeTokenRequest(options: TokenRequestOptions): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== "POST" || ctx.path !== options.tokenPath) return next();
    let params: Record<string, string | string[]>;
    try {
      params = toParams(await readRequestBody(ctx));
    } catch (error) {
      if (error instanceof UnreadableBodyError) return oauthError(ctx, 400, "invalid_request", error.message);
      throw error;
    }

    const basic = parseBasicCredentials(ctx.get("authorization"));
    if (basic === "malformed") return oauthError(ctx, 401, "invalid_client", "malformed Basic credentials");
    if (basic) {
      if (params.client_secret !== undefined || (params.client_id && params.client_id !== basic.clientId)) {
        return oauthError(ctx, 400, "invalid_request", "client credentials must be sent in one way only");
      }
      params.client_id = basic.clientId;
      params.client_secret = basic.clientSecret;
      delete ctx.req.headers.authorization;
    }

    if (params.audience !== undefined) {
      if (params.resource !== undefined && params.resource !== params.audience) {
        return oauthError(ctx, 400, "invalid_request", "audience and resource disagree");
      }
      params.resource = params.audience;
      delete params.audience;
    }
    const grantType = params.grant_type;
    if (typeof grantType === "string" && AUDIENCE_REQUIRED.has(grantType) && !params.resource) {
      return oauthError(ctx, 400, "invalid_request", "audience is required");
    }
    if (typeof grantType === "string" && CONSOLE_GRANTS.has(grantType) && !params.client_id) {
      params.client_id = options.consoleClientId;
    }
    if (grantType === "client_credentials" && typeof params.client_id === "string") {
      const refusal = await applyPartnerRegistration(params, params.client_id, options);
      if (refusal) return oauthError(ctx, 400, "invalid_scope", refusal);
    }

    (ctx.request as { body?: unknown }).body = params;
    ctx.req.headers["content-type"] = "application/x-www-form-urlencoded";
    return next();
  };
}

/** Swaps a previous secret inside its window and fills in or checks the requested scopes. */
async function applyPartnerRegistration(
  params: Record<string, string | string[]>,
  clientId: string,
  { directory, clock }: TokenRequestOptions,
): Promise<string | undefined> {
  const registration = await directory.findPartnerRegistration(clientId);
  if (!registration) return undefined;
  const previous = registration.previousSecret;
  if (
    previous &&
    typeof params.client_secret === "string" &&
    clock.now() < previous.acceptedUntil &&
    sameSecret(params.client_secret, previous.value)
  ) {
    params.client_secret = registration.clientSecret;
  }
  if (params.scope === undefined || params.scope === "") {
    params.scope = registration.scopes.join(" ");
    return undefined;
  }
  if (typeof params.scope !== "string") return undefined;
  const registered = new Set(registration.scopes);
  const missing = params.scope.split(" ").filter((s) => s !== "" && !registered.has(s));
  return missing.length === 0 ? undefined : `scope not registered for this client: ${missing.join(" ")}`;
}

function toParams(body: Record<string, unknown>): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (typeof value === "string") params[key] = value;
    else if (typeof value === "number" || typeof value === "boolean") params[key] = String(value);
    else if (Array.isArray(value) && value.every((v) => typeof v === "string")) params[key] = value;
    else throw new UnreadableBodyError(`parameter ${key} must be a string`);
  }
  return params;
}

function parseBasicCredentials(
  header: string,
): { clientId: string; clientSecret: string } | "malformed" | undefined {
  const match = /^basic\s+(\S+)$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "malformed";
  try {
    // RFC 6749 2.3.1: both parts are form-urlencoded before being joined.
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, "%20"));
    return {
      clientId: formDecode(decoded.slice(0, colon)),
      clientSecret: formDecode(decoded.slice(colon + 1)),
    };
  } catch {
    return "malformed";
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function oauthError(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set("Cache-Control", "no-store");
  if (status === 401) ctx.set("WWW-Authenticate", 'Basic realm="token"');
  ctx.body = { error, error_description: description };
}
