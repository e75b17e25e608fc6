/**
 * What the simulators' HTTP faces share: the body read as text, the `/_sim/...` control input as a
 * loose JSON object, and a request handed to the simulator's wire handler (the very code the
 * in-process transport calls) with its answer written back as it is.
 */
import type { Context } from "koa";
import type { WireEndpoint, WireMethod } from "../../src/vendors/wire.js";

/** The largest request a simulator reads. */
export const MAX_SIMULATOR_BODY_BYTES = 100_000;

/** A control request's fields; anything that is not a JSON object reads as none. */
export function controlInput(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body || "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Passes the request at `path` (below the simulator's prefix) to `endpoint` and writes its answer. */
export async function answerOnWire(
  ctx: Context,
  endpoint: WireEndpoint,
  path: string,
  body: string,
): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  const response = await endpoint.handle({
    method: ctx.method as WireMethod,
    path: ctx.querystring ? `${path}?${ctx.querystring}` : path,
    headers,
    ...(body ? { body } : {}),
  });
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  ctx.body = response.body;
}
