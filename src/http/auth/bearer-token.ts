import type { Context } from "koa";
import { UnauthorizedError } from "../errors.js";

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 2.1); anything else is a 401. */
export function bearerToken(ctx: Context): string {
  const header = ctx.get("authorization");
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match) {
    throw new UnauthorizedError(
      "invalid_token",
      header === "" ? "No access token was presented" : "The Authorization header is not a Bearer token",
    );
  }
  return match[1]!;
}
