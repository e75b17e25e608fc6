import type { Context } from "koa";
import { UnauthorizedError } from "../errors.js";
import { TokenMemo } from "./token-memo.js";

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Authorization headers that passed the grammar check, with their token. A client sends the same
 * header on every call, and the check reads every character of a thousand-character token.
 */
const wellFormed = new TokenMemo<string>();

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 2.1); anything else is a 401. */
export function bearerToken(ctx: Context): string {
  const header = ctx.get("authorization");
  const known = wellFormed.get(header);
  if (known !== undefined) return known;
  const match = BEARER.exec(header);
  if (!match) {
    throw new UnauthorizedError(
      "invalid_token",
      header === "" ? "No access token was presented" : "The Authorization header is not a Bearer token",
    );
  }
  wellFormed.set(header, match[1]!);
  return match[1]!;
}
