import * as querystring from "node:querystring";
import type { Context } from "koa";

/** Small bodies only: token requests and the login form. */
const LIMIT_BYTES = 56 * 1024;

export class UnreadableBodyError extends Error {}

/**
 * The request's JSON or form body as a flat object. Reads the stream itself unless an upstream body
 * parser already did (then uses `ctx.request.body`).
 */
export async function readRequestBody(ctx: Context): Promise<Record<string, unknown>> {
  const parsed = (ctx.request as { body?: unknown }).body;
  if (!ctx.req.readable) return isRecord(parsed) ? parsed : {};
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > LIMIT_BYTES) throw new UnreadableBodyError("request body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return {};
  if (ctx.is("application/json")) {
    try {
      const value: unknown = JSON.parse(text);
      if (!isRecord(value)) throw new UnreadableBodyError("the JSON body must be an object");
      return value;
    } catch (error) {
      if (error instanceof UnreadableBodyError) throw error;
      throw new UnreadableBodyError("the JSON body is not valid JSON");
    }
  }
  if (ctx.is("application/x-www-form-urlencoded")) return { ...querystring.parse(text) };
  throw new UnreadableBodyError("the body must be application/json or application/x-www-form-urlencoded");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
